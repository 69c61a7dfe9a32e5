// SPDX-License-Identifier: MIT
#include "rubble/polyhedra/nsc_stepper.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "rubble/core/error.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/integrate/leapfrog.hpp"
#include "rubble/polyhedra/broad_phase.hpp"
#include "rubble/polyhedra/epa.hpp"
#include "rubble/polyhedra/gjk.hpp"
#include "rubble/polyhedra/manifold.hpp"
#include "rubble/polyhedra/point3_eigen.hpp"
#include "rubble/polyhedra/support.hpp"

namespace rubble::polyhedra {
namespace {

// Candidate pairs from this many on are shared between OpenMP threads; below it a fork costs
// more than the search.
constexpr std::size_t parallel_pairs = 256;

// A body's state as the contact search sees it at the start of the step.
struct Placed {
    Pose pose;
    std::vector<Point3> world; // core vertices, world
    double rim_speed = 0.0;    // m/s, |w| times the circumradius: the fastest a vertex turns
};

// One contact before the solve: bodies, point, normal from b to a, gap, warm-start key.
struct Found {
    std::int64_t a, b;
    std::int32_t wall;
    Vec3 point, normal;
    double gap;
    std::uint64_t feature;
};

// The contact manifold of two placed cores within max_gap (m) of each other (grown by the
// margin m each): GJK on the cores, stopped once they are certainly farther apart; EPA when
// they overlap (penetration beyond the margin). Empty (count 0) when out of reach.
ContactManifold core_contacts(const Placed& pa, const shapes::Polyhedron& core_a, const Placed& pb,
                              const shapes::Polyhedron& core_b, double m, double max_gap) {
    const WorldPolytopeSupport sa{pa.world.data(), static_cast<int>(pa.world.size())};
    const WorldPolytopeSupport sb{pb.world.data(), static_cast<int>(pb.world.size())};
    const Point3 towards_b = to_point3(pb.pose.position - pa.pose.position);
    // The walk stops once the cores are certainly out of reach (most candidate pairs).
    const GjkResult g = gjk_distance(sa, sb, towards_b, 2.0 * m + max_gap);
    Vec3 normal; // from b to a
    if (!g.overlap && g.distance > 0.0) {
        if (g.beyond || g.distance - 2.0 * m > max_gap) return ContactManifold{};
        normal = (to_vec3(g.on_a) - to_vec3(g.on_b)) / g.distance;
    } else {
        // The cores overlap: penetration beyond the margin, the normal from EPA (its normal
        // points from A to B).
        const PenetrationResult e = penetration_depth(sa, sb, towards_b);
        normal =
            e.overlap ? -to_vec3(e.normal) : Vec3(pa.pose.position - pb.pose.position).normalized();
    }
    return contact_manifold(PlacedPolyhedron{core_a, pa.pose, m},
                            PlacedPolyhedron{core_b, pb.pose, m}, normal, max_gap);
}

// The core vertices of body k within `reach` of plane wall w, whose point is at `at` now.
void plane_contacts(std::size_t k, const Placed& p, const boundaries::Wall& w, const Vec3& at,
                    std::int32_t wall, double margin, double reach, std::vector<Found>& out) {
    for (std::size_t v = 0; v < p.world.size(); ++v) {
        const Vec3 x = to_vec3(p.world[v]);
        const double gap = w.normal.dot(x - at) - margin;
        if (gap > reach) continue;
        out.push_back(Found{static_cast<std::int64_t>(k), -1, wall, x - margin * w.normal, w.normal,
                            gap, static_cast<std::uint64_t>(v)});
    }
}

} // namespace

std::size_t NscStepper::WarmKeyHash::operator()(const WarmKey& k) const {
    const auto mix = [](std::uint64_t h, std::uint64_t x) {
        return (h ^ x) * 0x100000001b3ULL; // FNV-1a step
    };
    std::uint64_t h = 0xcbf29ce484222325ULL;
    h = mix(h, static_cast<std::uint64_t>(k.id_a));
    h = mix(h, static_cast<std::uint64_t>(k.id_b));
    h = mix(h, k.feature);
    return static_cast<std::size_t>(h);
}

void check_polyhedral_contact_config(const PolyhedralContactConfig& c) {
    if (!(c.margin >= 0.0) || !std::isfinite(c.margin))
        throw KeyError("collisions.margin", c.margin, "must be >= 0 m (0: automatic)");
    if (!(c.envelope >= 0.0) || !std::isfinite(c.envelope))
        throw KeyError("collisions.envelope", c.envelope, "must be >= 0 m (0: the margin)");
    if (!(c.recovery_speed >= 0.0) || !std::isfinite(c.recovery_speed))
        throw KeyError("collisions.recovery_speed", c.recovery_speed,
                       "must be >= 0 m/s (0: automatic)");
    for (const boundaries::FixedHull& f : c.fixed_hulls) {
        const auto fail = [&](const std::string& what) {
            throw InputError("collisions: " + f.name + ": " + what);
        };
        if (!f.position.allFinite() || !f.orientation.coeffs().allFinite() ||
            !(std::abs(f.orientation.norm() - 1.0) <= 1e-9))
            fail("position must be finite and orientation a unit quaternion");
        if (f.shape.vertex_count() < 4 || f.shape.face_count() < 4)
            fail("not a polyhedron (fewer than four vertices or faces)");
    }
}

void check_nsc_config(const NscConfig& c) {
    boundaries::check_contact_config(c);
    check_polyhedral_contact_config(c);
    for (const boundaries::Wall& w : c.walls)
        if (w.shape != boundaries::WallShape::plane)
            throw InputError("collisions: " + w.name +
                             ": polyhedra take plane walls only (boxes are six planes)");
}

std::string NscStepper::summary(const Bodies& b) const {
    (void)b;
    std::ostringstream out;
    out << "collisions: polyhedra (non-smooth contact, "
        << enum_name(contact_method_names, config_.solver.method) << "), mu = " << config_.mu
        << ", restitution " << config_.eps_n << " above " << config_.v_min << " m/s, margin ";
    if (config_.margin > 0.0)
        out << config_.margin << " m";
    else
        out << "auto";
    if (!config_.walls.empty()) out << ", " << config_.walls.size() << " wall(s)";
    if (!config_.fixed_hulls.empty()) out << ", " << config_.fixed_hulls.size() << " fixed hull(s)";
    return out.str();
}

NscStepper::NscStepper(NscConfig config) : config_(std::move(config)) {
    check_nsc_config(config_);
}

void NscStepper::refresh_cores(const Bodies& b) {
    const auto shapes = b.hull_shapes_shared();
    if (shapes == shapes_seen_) return;
    cores_.clear();
    margin_ = config_.margin;
    if (shapes && margin_ == 0.0) {
        double smallest = std::numeric_limits<double>::infinity();
        for (const shapes::Polyhedron& p : *shapes)
            smallest = std::min(smallest, shapes::inradius_about_origin(p));
        margin_ = auto_margin_fraction * smallest;
    }
    if (shapes) {
        for (std::size_t k = 0; k < shapes->size(); ++k) {
            try {
                cores_.push_back(shapes::shrunk((*shapes)[k], margin_));
            } catch (const std::invalid_argument& e) {
                throw InputError("collisions: hull shape " + std::to_string(k) +
                                 " is too small for " + "the collision margin: " + e.what());
            }
        }
    }
    fixed_cores_.clear();
    for (const boundaries::FixedHull& f : config_.fixed_hulls) {
        try {
            fixed_cores_.push_back(shapes::shrunk(f.shape, margin_));
        } catch (const std::invalid_argument& e) {
            throw InputError("collisions: " + f.name +
                             " is too small for the collision margin: " + e.what());
        }
    }
    shapes_seen_ = shapes;
}

integrate::StepStats NscStepper::advance(Bodies& b, double h, double t0, bool /*may_abandon*/) {
    const std::size_t n = b.size();
    if (b.hulls.size() != n)
        throw InputError("the polyhedral contact stepper moves polyhedra only (" +
                         std::to_string(n - b.hulls.size()) + " of " + std::to_string(n) +
                         " bodies are not)");
    refresh_cores(b);
    const double m = margin_;
    const double envelope = config_.envelope > 0.0 ? config_.envelope : m;
    const double recovery_speed =
        config_.recovery_speed > 0.0 ? config_.recovery_speed : m / (auto_recovery_steps * h);

    // Every body placed: its pose and its core's world vertices.
    std::vector<Placed> placed(n);
    std::vector<double> reach(n);
    for (std::size_t k = 0; k < n; ++k) {
        const auto shape = static_cast<std::size_t>(b.hulls.shape[k]);
        const auto body = static_cast<std::size_t>(b.hulls.body[k]);
        Placed& p = placed[body];
        p.pose = Pose{b.pos[body], b.orientation[body].toRotationMatrix()};
        for (const Vec3& v : cores_[shape].hull.vertices)
            p.world.push_back(to_point3(p.pose.position + p.pose.rotation * v));
        p.rim_speed = b.spin[body].norm() * b.radius[body];
        // What the body can cover in the step, and half the envelope each.
        reach[body] = b.radius[body] + h * (b.vel[body].norm() + p.rim_speed) + 0.5 * envelope;
    }
    std::vector<std::size_t> shape_of(n);
    for (std::size_t k = 0; k < n; ++k)
        shape_of[static_cast<std::size_t>(b.hulls.body[k])] =
            static_cast<std::size_t>(b.hulls.shape[k]);

    // The pairs' manifolds, shared between threads (each pair on its own), then listed in pair
    // order: the same contacts in the same order with any number of threads.
    const auto pairs = sphere_pairs(b.pos, reach);
    std::vector<ContactManifold> manifolds(pairs.size());
    std::exception_ptr failure;
#pragma omp parallel for schedule(dynamic, 64) if (pairs.size() >= parallel_pairs)
    for (std::size_t q = 0; q < pairs.size(); ++q) {
        const auto ui = static_cast<std::size_t>(pairs[q].first);
        const auto uj = static_cast<std::size_t>(pairs[q].second);
        const Placed &pa = placed[ui], &pb = placed[uj];
        // Contacts the pair can reach in the step: the envelope plus its approach.
        const double approach = h * ((b.vel[ui] - b.vel[uj]).norm() + pa.rim_speed + pb.rim_speed);
        try {
            manifolds[q] = core_contacts(pa, cores_[shape_of[ui]], pb, cores_[shape_of[uj]], m,
                                         envelope + approach);
        } catch (...) {
#pragma omp critical(nsc_pair_failure)
            if (!failure) failure = std::current_exception();
        }
    }
    if (failure) std::rethrow_exception(failure);
    std::vector<Found> found;
    for (std::size_t q = 0; q < pairs.size(); ++q) {
        const ContactManifold& mf = manifolds[q];
        for (int k = 0; k < mf.count; ++k) {
            const ContactPoint& c = mf.points[static_cast<std::size_t>(k)];
            found.push_back(Found{pairs[q].first, pairs[q].second, -1, 0.5 * (c.on_a + c.on_b),
                                  mf.normal, c.gap, c.id.key()});
        }
    }
    // The walls where they are at the start of the step (a plane turning about its normal
    // stays where it is; its surface velocity enters the contacts).
    std::vector<Vec3> wall_at(config_.walls.size());
    for (std::size_t w = 0; w < config_.walls.size(); ++w) {
        const boundaries::Wall& wall = config_.walls[w];
        wall_at[w] = boundaries::wall_point_at(wall, t0);
        for (std::size_t k = 0; k < n; ++k) {
            const double approach = h * (std::max(0.0, -wall.normal.dot(b.vel[k] - wall.velocity)) +
                                         placed[k].rim_speed);
            if (wall.normal.dot(b.pos[k] - wall_at[w]) - b.radius[k] > envelope + approach)
                continue;
            plane_contacts(k, placed[k], wall, wall_at[w], static_cast<std::int32_t>(w), m,
                           envelope + approach, found);
        }
    }

    // The fixed hulls against every grain near them (bounding spheres first).
    for (std::size_t j = 0; j < config_.fixed_hulls.size(); ++j) {
        const boundaries::FixedHull& hull = config_.fixed_hulls[j];
        Placed fixed;
        fixed.pose = Pose{hull.position, hull.orientation.toRotationMatrix()};
        for (const Vec3& v : fixed_cores_[j].hull.vertices)
            fixed.world.push_back(to_point3(fixed.pose.position + fixed.pose.rotation * v));
        double radius = 0.0; // about its position
        for (const Vec3& v : hull.shape.hull.vertices)
            radius = std::max(radius, v.norm());
        const auto wall = static_cast<std::int32_t>(config_.walls.size() + j);
        for (std::size_t k = 0; k < n; ++k) {
            const double max_gap = envelope + h * (b.vel[k].norm() + placed[k].rim_speed);
            if ((b.pos[k] - hull.position).norm() - b.radius[k] - radius > max_gap) continue;
            const ContactManifold mf =
                core_contacts(placed[k], cores_[shape_of[k]], fixed, fixed_cores_[j], m, max_gap);
            for (int c = 0; c < mf.count; ++c) {
                const ContactPoint& p = mf.points[static_cast<std::size_t>(c)];
                found.push_back(Found{static_cast<std::int64_t>(k), -1, wall,
                                      0.5 * (p.on_a + p.on_b), mf.normal, p.gap, p.id.key()});
            }
        }
    }

    // The solver's view: inverse masses and inertias, free velocities, contacts with biases.
    std::vector<double> inv_mass(n);
    std::vector<Mat3> inv_inertia(n);
    for (std::size_t k = 0; k < n; ++k) {
        inv_mass[k] = 1.0 / b.mass[k];
        inv_inertia[k] = inverse_inertia_tensor(principal_to_inertial(b, k), b.inertia[k]);
    }
    std::vector<SolverContact> contacts(found.size());
    integrate::StepStats stats;
    double fastest = 0.0; // m/s, the largest relative speed at a contact: the solver's scale
    for (std::size_t c = 0; c < found.size(); ++c) {
        const Found& f = found[c];
        SolverContact& s = contacts[c];
        const auto a = static_cast<std::size_t>(f.a);
        s.a = f.a;
        s.b = f.b;
        s.r_a = f.point - b.pos[a];
        Vec3 u = b.vel[a] + b.spin[a].cross(s.r_a);
        double sum_radii = b.radius[a];
        if (f.b >= 0) {
            const auto ub = static_cast<std::size_t>(f.b);
            s.r_b = f.point - b.pos[ub];
            u -= b.vel[ub] + b.spin[ub].cross(s.r_b);
            sum_radii += b.radius[ub];
        } else if (const auto w = static_cast<std::size_t>(f.wall); w < config_.walls.size()) {
            s.v_wall = boundaries::surface_velocity(config_.walls[w], wall_at[w], f.point);
            u -= s.v_wall;
        } // (a fixed hull is at rest)
        s.n = f.normal;
        std::tie(s.t1, s.t2) = tangent_basis(s.n);
        s.mu = config_.mu;
        // Speculative (g >= 0): approach by at most the gap; overlapping: part at most at the
        // recovery speed; fast approaches bounce with Newton's e.
        const double un = u.dot(s.n);
        fastest = std::max(fastest, u.norm());
        double bias = f.gap >= 0.0 ? f.gap / h : std::max(f.gap / h, -recovery_speed);
        if (config_.eps_n > 0.0 && un < -config_.v_min && f.gap + h * un < 0.0)
            bias = std::min(bias, config_.eps_n * un);
        s.bias = bias;
        const WarmKey key{b.id[a], f.b >= 0 ? b.id[static_cast<std::size_t>(f.b)] : -1 - f.wall,
                          f.feature};
        if (const auto it = warm_.find(key); it != warm_.end())
            s.warm = Vec3(it->second.dot(s.n), it->second.dot(s.t1), it->second.dot(s.t2));
        if (f.gap < 0.0) {
            const double depth = -f.gap / sum_radii;
            if (depth > config_.overlap_tolerance) ++stats.overlaps;
            stats.max_overlap = std::max(stats.max_overlap, depth);
        }
    }
    // The solver's tolerance is relative to the contacts' own speeds, not to the biases of
    // speculative contacts (a gap over the step can be far faster than anything moving).
    ContactSolverOptions options = config_.solver;
    if (options.reference_speed == 0.0) options.reference_speed = fastest;
    const SolverBodies bodies{inv_mass, inv_inertia, b.vel, b.spin};
    if (contacts.empty()) {
        solution_ = ContactSolution{{}, b.vel, b.spin, 0, 0, 0.0, 0.0, 0.0, true};
    } else {
        solution_ = solve_contacts(bodies, contacts, options);
    }

    warm_.clear();
    contacts_.clear();
    for (std::size_t c = 0; c < found.size(); ++c) {
        const Found& f = found[c];
        const SolverContact& s = contacts[c];
        const Vec3& g = solution_.impulse[c];
        const Vec3 impulse = g.x() * s.n + g.y() * s.t1 + g.z() * s.t2;
        const WarmKey key{b.id[static_cast<std::size_t>(f.a)],
                          f.b >= 0 ? b.id[static_cast<std::size_t>(f.b)] : -1 - f.wall, f.feature};
        warm_[key] = impulse;
        contacts_.push_back(NscContact{f.a, f.b, f.wall, f.point, f.normal, f.gap, impulse});
    }
    b.vel = solution_.vel;
    b.spin = solution_.spin;
    integrate::drift(b, h);

    stats.contacts = static_cast<std::int64_t>(found.size());
    stats.work = work_counters(solution_);
    return stats;
}

} // namespace rubble::polyhedra
