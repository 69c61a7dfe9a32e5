// SPDX-License-Identifier: MIT
#include "rubble/polyhedra/nsc_stages.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <tuple>

#include "rubble/core/rigid_body.hpp"
#include "rubble/integrate/leapfrog.hpp"
#include "rubble/polyhedra/broad_phase.hpp"
#include "rubble/polyhedra/epa.hpp"
#include "rubble/polyhedra/gjk.hpp"
#include "rubble/polyhedra/point3_eigen.hpp"
#include "rubble/polyhedra/support.hpp"

namespace rubble::polyhedra {
namespace {

// Candidate pairs from this many on are shared between OpenMP threads; below it a fork costs
// more than the search.
constexpr std::size_t parallel_pairs = 256;

// The contact manifold of two placed cores within max_gap (m) of each other (grown by the
// margin m each): GJK on the cores, stopped once they are certainly farther apart; EPA when
// they overlap (penetration beyond the margin). Empty (count 0) when out of reach.
ContactManifold core_contacts(const PlacedBody& pa, const shapes::Polyhedron& core_a,
                              const PlacedBody& pb, const shapes::Polyhedron& core_b, double m,
                              double max_gap, bool speculative_faces) {
    const WorldPolytopeSupport sa{pa.world.data(), static_cast<int>(pa.world.size())};
    const WorldPolytopeSupport sb{pb.world.data(), static_cast<int>(pb.world.size())};
    const Point3 towards_b = to_point3(pb.pose.position - pa.pose.position);
    // The walk stops once the cores are certainly out of reach (most candidate pairs).
    const GjkResult g = gjk_distance(sa, sb, towards_b, 2.0 * m + max_gap);
    Vec3 normal;                                                  // from b to a
    double separation = std::numeric_limits<double>::quiet_NaN(); // of the grains, m
    if (!g.overlap && g.distance > 0.0) {
        if (g.beyond || g.distance - 2.0 * m > max_gap) return ContactManifold{};
        normal = (to_vec3(g.on_a) - to_vec3(g.on_b)) / g.distance;
        separation = g.distance - 2.0 * m;
    } else {
        // The cores overlap: penetration beyond the margin, the normal from EPA (its normal
        // points from A to B).
        const PenetrationResult e = penetration_depth(sa, sb, towards_b);
        normal =
            e.overlap ? -to_vec3(e.normal) : Vec3(pa.pose.position - pb.pose.position).normalized();
        if (e.overlap) separation = -e.depth - 2.0 * m;
    }
    return contact_manifold(PlacedPolyhedron{core_a, pa.pose, m},
                            PlacedPolyhedron{core_b, pb.pose, m}, normal, max_gap, separation,
                            speculative_faces);
}

// The speculative face points of a manifold (contact_manifold) that the step can close: those
// whose gap is at most the pair's approach in the step. The envelope that keeps resting contacts
// from step to step is the feature point's business; a face that cannot reach the other grain
// within the step needs no constraint (a settled pile then has nearly none).
void keep_face_points_within(double approach, ContactManifold& m) {
    int kept = 0;
    for (int k = 0; k < m.face.count; ++k)
        if (m.face.points[static_cast<std::size_t>(k)].gap <= approach)
            m.face.points[static_cast<std::size_t>(kept++)] =
                m.face.points[static_cast<std::size_t>(k)];
    m.face.count = kept;
}

// A manifold's points as contacts of bodies a and b (b = -1 for a wall or fixed hull `wall`),
// each at the middle of its two witness points with its points' normal: the manifold's own,
// then its speculative face points (under their own keys, speculative_key).
void append_manifold_contacts(std::int64_t a, std::int64_t b, std::int32_t wall,
                              const ContactManifold& m, std::vector<FoundContact>& found) {
    for (int k = 0; k < m.count; ++k) {
        const ContactPoint& c = m.points[static_cast<std::size_t>(k)];
        found.push_back(
            FoundContact{a, b, wall, 0.5 * (c.on_a + c.on_b), m.normal, c.gap, c.id.key()});
    }
    for (int k = 0; k < m.face.count; ++k) {
        const ContactPoint& c = m.face.points[static_cast<std::size_t>(k)];
        found.push_back(FoundContact{a, b, wall, 0.5 * (c.on_a + c.on_b), m.face.normal, c.gap,
                                     c.id.speculative_key()});
    }
}

// Whether the boxes around two placed cores are farther apart along a world axis than `gap`
// (m): then so are the cores, and GJK would find them out of reach. Most candidate pairs of a
// pile are (their bounding spheres meet, elongated grains do not): this test costs six
// comparisons where GJK's early exit costs two support scans. The factor keeps round-off of
// the boxes (ulps of the coordinates) from deciding a pair that GJK would keep.
bool boxes_apart(const PlacedBody& a, const PlacedBody& b, double gap) {
    const double apart = std::max({b.lo.x - a.hi.x, a.lo.x - b.hi.x, b.lo.y - a.hi.y,
                                   a.lo.y - b.hi.y, b.lo.z - a.hi.z, a.lo.z - b.hi.z});
    return apart >
           gap * (1.0 + 1e-9) + 1e-12 * (std::abs(a.lo.x) + std::abs(a.lo.y) + std::abs(a.lo.z));
}

// The core vertices of body k within `reach` of plane wall w, whose point is at `at` now.
void plane_contacts(std::size_t k, const PlacedBody& p, const boundaries::Wall& w, const Vec3& at,
                    std::int32_t wall, double margin, double reach,
                    std::vector<FoundContact>& out) {
    for (std::size_t v = 0; v < p.world.size(); ++v) {
        const Vec3 x = to_vec3(p.world[v]);
        const double gap = w.normal.dot(x - at) - margin;
        if (gap > reach) continue;
        out.push_back(FoundContact{static_cast<std::int64_t>(k), -1, wall, x - margin * w.normal,
                                   w.normal, gap, static_cast<std::uint64_t>(v)});
    }
}

} // namespace

// The envelope is the margin unless set: a resting contact, a separation of the cores of up to
// two margins, stays a contact from step to step (Ferrari et al. 2017, sec. 2.3). The recovery
// speed undoes an overlap of one margin in auto_recovery_steps steps unless set.
StepScales step_scales(const NscConfig& config, double margin, double h) {
    const double m = margin;
    const double envelope = config.envelope > 0.0 ? config.envelope : m;
    const double recovery_speed =
        config.recovery_speed > 0.0 ? config.recovery_speed : m / (auto_recovery_steps * h);
    return StepScales{h, m, envelope, recovery_speed, config.speculative_faces};
}

// The contacts are found once, at the start of the step (velocity-level time stepping,
// Anitescu & Tasora 2010): each body's core vertices are put in the world once here, for GJK's
// support function and the wall test alike, rather than once per pair. Its reach is what it can
// cover in the step, so that no contact the step can close is missed (speculative contacts).
Placement place_bodies(const Bodies& b, std::span<const shapes::Polyhedron> cores,
                       const StepScales& s) {
    const std::size_t n = b.size();
    Placement out;
    out.bodies.resize(n);
    out.reach.resize(n);
    // (Each body has one hull: b.hulls.body is a permutation, so the threads write apart.)
#pragma omp parallel for schedule(static) if (n >= parallel_pairs)
    for (std::size_t k = 0; k < n; ++k) {
        const auto shape = static_cast<std::size_t>(b.hulls.shape[k]);
        const auto body = static_cast<std::size_t>(b.hulls.body[k]);
        PlacedBody& p = out.bodies[body];
        p.pose = Pose{b.pos[body], b.orientation[body].toRotationMatrix()};
        for (const Vec3& v : cores[shape].hull.vertices)
            p.world.push_back(to_point3(p.pose.position + p.pose.rotation * v));
        p.lo = p.hi = p.world.front();
        for (const Point3& x : p.world) {
            p.lo = Point3{std::min(p.lo.x, x.x), std::min(p.lo.y, x.y), std::min(p.lo.z, x.z)};
            p.hi = Point3{std::max(p.hi.x, x.x), std::max(p.hi.y, x.y), std::max(p.hi.z, x.z)};
        }
        p.rim_speed = b.spin[body].norm() * b.radius[body];
        // What the body can cover in the step, and half the envelope each.
        out.reach[body] =
            b.radius[body] + s.h * (b.vel[body].norm() + p.rim_speed) + 0.5 * s.envelope;
    }
    out.shape.resize(n);
    for (std::size_t k = 0; k < n; ++k)
        out.shape[static_cast<std::size_t>(b.hulls.body[k])] =
            static_cast<std::size_t>(b.hulls.shape[k]);
    return out;
}

// Bounding spheres first, as every multi-body contact code does (Chrono::Multicore's broad
// phase, Ferrari et al. 2017): GJK on the few pairs whose spheres meet, not on all N^2.
std::vector<BodyPair> find_candidate_pairs(std::span<const Vec3> pos, const Placement& placed) {
    return sphere_pairs(pos, placed.reach);
}

// GJK on the cores (Ferrari et al. 2017, sec. 2.3: a shallow contact is a separation of the
// cores, so the costly EPA runs only for overlaps beyond the margin), then the manifold of up
// to four points that keeps a face resting on a face from rocking. The pairs are shared between
// threads, each writing its own slot; the contacts are listed from the slots in pair order
// afterwards (pair_contacts), so the same contacts come in the same order with any number of
// threads.
std::vector<ContactManifold> narrow_phase(const Placement& placed,
                                          std::span<const shapes::Polyhedron> cores,
                                          std::span<const Vec3> vel,
                                          std::span<const BodyPair> pairs, const StepScales& s) {
    const double h = s.h;
    const double m = s.margin;
    const double envelope = s.envelope;
    const std::vector<std::size_t>& shape_of = placed.shape;
    std::vector<ContactManifold> manifolds(pairs.size());
    std::exception_ptr failure;
#pragma omp parallel for schedule(dynamic, 64) if (pairs.size() >= parallel_pairs)
    for (std::size_t q = 0; q < pairs.size(); ++q) {
        const auto ui = static_cast<std::size_t>(pairs[q].first);
        const auto uj = static_cast<std::size_t>(pairs[q].second);
        const PlacedBody &pa = placed.bodies[ui], &pb = placed.bodies[uj];
        // Contacts the pair can reach in the step: the envelope plus its approach.
        const double approach = h * ((vel[ui] - vel[uj]).norm() + pa.rim_speed + pb.rim_speed);
        if (boxes_apart(pa, pb, 2.0 * m + envelope + approach)) continue; // GJK's answer too
        try {
            ContactManifold& mf = manifolds[q];
            mf = core_contacts(pa, cores[shape_of[ui]], pb, cores[shape_of[uj]], m,
                               envelope + approach, s.speculative_faces);
            keep_face_points_within(approach, mf);
        } catch (...) {
#pragma omp critical(nsc_pair_failure)
            if (!failure) failure = std::current_exception();
        }
    }
    if (failure) std::rethrow_exception(failure);
    return manifolds;
}

// A manifold point becomes a contact at the middle of its two witness points, with the
// manifold's normal: the solver sees points, not features. The feature pair stays as the key
// of its warm start, which is what lets a resting stack converge in a few iterations.
std::vector<FoundContact> pair_contacts(std::span<const BodyPair> pairs,
                                        std::span<const ContactManifold> manifolds) {
    std::vector<FoundContact> found;
    for (std::size_t q = 0; q < pairs.size(); ++q)
        append_manifold_contacts(pairs[q].first, pairs[q].second, -1, manifolds[q], found);
    return found;
}

// The walls where they are at the start of the step (a plane turning about its normal stays
// where it is; its surface velocity enters the contacts).
std::vector<Vec3> wall_points(std::span<const boundaries::Wall> walls, double t0) {
    std::vector<Vec3> at(walls.size());
    for (std::size_t w = 0; w < walls.size(); ++w)
        at[w] = boundaries::wall_point_at(walls[w], t0);
    return at;
}

// A plane against a convex core: the closest features are vertices, so each core vertex within
// reach is a contact point (a face resting on the plane gets all of its corners, the manifold
// of a plane). The bounding sphere is tested first.
void append_wall_contacts(const Bodies& b, const Placement& placed,
                          std::span<const boundaries::Wall> walls, std::span<const Vec3> wall_at,
                          const StepScales& s, std::vector<FoundContact>& found) {
    const std::size_t n = b.size();
    const double h = s.h;
    const double envelope = s.envelope;
    for (std::size_t w = 0; w < walls.size(); ++w) {
        const boundaries::Wall& wall = walls[w];
        for (std::size_t k = 0; k < n; ++k) {
            const double approach = h * (std::max(0.0, -wall.normal.dot(b.vel[k] - wall.velocity)) +
                                         placed.bodies[k].rim_speed);
            if (wall.normal.dot(b.pos[k] - wall_at[w]) - b.radius[k] > envelope + approach)
                continue;
            plane_contacts(k, placed.bodies[k], wall, wall_at[w], static_cast<std::int32_t>(w),
                           s.margin, envelope + approach, found);
        }
    }
}

// A fixed hull is a grain of infinite mass at rest: GJK, EPA and the manifold as between two
// grains. Tested against every grain (bounding spheres first): meant for a few obstacles.
void append_fixed_hull_contacts(const Bodies& b, const Placement& placed,
                                std::span<const shapes::Polyhedron> cores,
                                std::span<const boundaries::FixedHull> hulls,
                                std::span<const shapes::Polyhedron> fixed_cores,
                                std::int32_t first_index, const StepScales& s,
                                std::vector<FoundContact>& found) {
    const std::size_t n = b.size();
    const double h = s.h;
    const double envelope = s.envelope;
    for (std::size_t j = 0; j < hulls.size(); ++j) {
        const boundaries::FixedHull& hull = hulls[j];
        PlacedBody fixed;
        fixed.pose = Pose{hull.position, hull.orientation.toRotationMatrix()};
        for (const Vec3& v : fixed_cores[j].hull.vertices)
            fixed.world.push_back(to_point3(fixed.pose.position + fixed.pose.rotation * v));
        double radius = 0.0; // about its position
        for (const Vec3& v : hull.shape.hull.vertices)
            radius = std::max(radius, v.norm());
        const auto wall = static_cast<std::int32_t>(first_index + static_cast<std::int32_t>(j));
        for (std::size_t k = 0; k < n; ++k) {
            const double max_gap = envelope + h * (b.vel[k].norm() + placed.bodies[k].rim_speed);
            if ((b.pos[k] - hull.position).norm() - b.radius[k] - radius > max_gap) continue;
            const ContactManifold mf =
                core_contacts(placed.bodies[k], cores[placed.shape[k]], fixed, fixed_cores[j],
                              s.margin, max_gap, s.speculative_faces);
            append_manifold_contacts(static_cast<std::int64_t>(k), -1, wall, mf, found);
        }
    }
}

NscWarmKey warm_key(const Bodies& b, const FoundContact& f) {
    return NscWarmKey{b.id[static_cast<std::size_t>(f.a)],
                      f.b >= 0 ? b.id[static_cast<std::size_t>(f.b)] : -1 - f.wall, f.feature};
}

// The contact in the solver's terms (contact_solver.hpp): the CCP of Anitescu & Tasora 2010
// wants each contact's lever arms, an orthonormal basis and the bias of its normal condition.
// The bias is where the step's physics enters: a speculative contact (gap g >= 0) may close by
// g in the step and no more, so nothing tunnels and nothing is pushed before it touches; an
// overlap is undone at no more than the recovery speed (Baumgarte-like stabilisation that does
// not launch grains); a fast approach bounces with Newton's e. The warm start, the last step's
// impulse by feature key, makes a resting pile converge in few iterations (Tasora & Anitescu
// 2011).
SolverProblem build_solver_contacts(const Bodies& b, std::span<const FoundContact> found,
                                    const NscConfig& config, std::span<const Vec3> wall_at,
                                    const StepScales& scales, const NscWarmStarts& warm) {
    const double h = scales.h;
    const double recovery_speed = scales.recovery_speed;
    SolverProblem problem;
    problem.contacts.resize(found.size());
    double fastest = 0.0; // m/s, the largest relative speed at a contact: the solver's scale
    std::int64_t overlaps = 0;
    double max_overlap = 0.0;
    // Each contact on its own (the maxima and the count do not depend on the order).
#pragma omp parallel for schedule(static) reduction(max : fastest, max_overlap) \
    reduction(+ : overlaps) if (found.size() >= parallel_pairs)
    for (std::size_t c = 0; c < found.size(); ++c) {
        const FoundContact& f = found[c];
        SolverContact& s = problem.contacts[c];
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
        } else if (const auto w = static_cast<std::size_t>(f.wall); w < config.walls.size()) {
            s.v_wall = boundaries::surface_velocity(config.walls[w], wall_at[w], f.point);
            u -= s.v_wall;
        } // (a fixed hull is at rest)
        s.n = f.normal;
        std::tie(s.t1, s.t2) = tangent_basis(s.n);
        s.mu = config.mu;
        s.radius = f.rolling_radius;
        s.mu_roll = config.mu_roll;
        s.mu_twist = config.mu_twist;
        // Speculative (g >= 0): approach by at most the gap; overlapping: part at most at the
        // recovery speed; fast approaches bounce with Newton's e.
        const double un = u.dot(s.n);
        fastest = std::max(fastest, u.norm());
        double bias = f.gap >= 0.0 ? f.gap / h : std::max(f.gap / h, -recovery_speed);
        if (config.eps_n > 0.0 && un < -config.v_min && f.gap + h * un < 0.0)
            bias = std::min(bias, config.eps_n * un);
        s.bias = bias;
        if (const Vec3* j = warm.find(warm_key(b, f)); j != nullptr)
            s.warm = Vec3(j->dot(s.n), j->dot(s.t1), j->dot(s.t2));
        if (f.gap < 0.0) {
            const double depth = -f.gap / sum_radii;
            if (depth > config.overlap_tolerance) ++overlaps;
            max_overlap = std::max(max_overlap, depth);
        }
    }
    problem.fastest = fastest;
    problem.overlaps = overlaps;
    problem.max_overlap = max_overlap;
    return problem;
}

InverseMasses inverse_masses(const Bodies& b) {
    const std::size_t n = b.size();
    InverseMasses out;
    out.inv_mass.resize(n);
    out.inv_inertia.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
        out.inv_mass[k] = 1.0 / b.mass[k];
        out.inv_inertia[k] = inverse_inertia_tensor(principal_to_inertial(b, k), b.inertia[k]);
    }
    return out;
}

// The impulses of all contacts at once (APGD, Mazhar et al. 2015, or PGS, Tasora & Anitescu
// 2011: contact_solver.hpp). The solver's tolerance is relative to the contacts' own speeds,
// not to the biases of speculative contacts (a gap over the step can be far faster than
// anything moving).
ContactSolution solve_impulses(const Bodies& b, const InverseMasses& inverse,
                               const SolverProblem& problem, ContactSolverOptions options) {
    if (options.reference_speed == 0.0) options.reference_speed = problem.fastest;
    const SolverBodies bodies{inverse.inv_mass, inverse.inv_inertia, b.vel, b.spin};
    if (problem.contacts.empty())
        return ContactSolution{{}, b.vel, b.spin, 0, 0, 0.0, 0.0, 0.0, true};
    return solve_contacts(bodies, problem.contacts, options);
}

// The impulses in the world frame, kept by contact key for the next step's warm start (the
// basis of a contact may turn between steps; the world impulse does not care) and reported.
void record_impulses(const Bodies& b, std::span<const FoundContact> found,
                     std::span<const SolverContact> contacts, const ContactSolution& solution,
                     NscWarmStarts& warm, std::vector<NscContact>& reports) {
    reports.resize(found.size());
#pragma omp parallel for schedule(static) if (found.size() >= parallel_pairs)
    for (std::size_t c = 0; c < found.size(); ++c) {
        const FoundContact& f = found[c];
        const SolverContact& s = contacts[c];
        const Vec3& g = solution.impulse[c];
        const Vec3 impulse = g.x() * s.n + g.y() * s.t1 + g.z() * s.t2;
        reports[c] = NscContact{f.a, f.b, f.wall, f.point, f.normal, f.gap, impulse};
    }
    warm.clear();
    warm.reserve(found.size());
    for (std::size_t c = 0; c < found.size(); ++c) // in order: a repeated key keeps the last
        warm.assign(warm_key(b, found[c]), reports[c].impulse);
}

// Semi-implicit Euler on the leapfrog's free velocity (Anitescu & Tasora 2010): the positions
// move with the velocities after the impulses, so the contacts hold at the end of the step;
// orientations by the exact torque-free rotation (integrate/free_rotor.hpp, the exponential
// map of Ferrari et al. 2017 for constant spin).
void apply_impulses_and_drift(Bodies& b, const ContactSolution& solution, double h) {
    b.vel = solution.vel;
    b.spin = solution.spin;
    integrate::drift(b, h);
}

} // namespace rubble::polyhedra
