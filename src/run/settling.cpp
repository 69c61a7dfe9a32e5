// SPDX-License-Identifier: MIT
#include "rubble/run/settling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

#include "rubble/collisions/world_shapes.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/polyhedra/broad_phase.hpp"
#include "rubble/polyhedra/gjk.hpp"
#include "rubble/polyhedra/point3_eigen.hpp"
#include "rubble/polyhedra/support.hpp"

namespace rubble::run {
namespace {

using polyhedra::Point3;

using collisions::WorldShapes;

// contacts.py, hull_gap_within: whether the hull of `a` and the convex set of `b` (a hull, or a
// sphere's centre with `radius` > 0) are at most `limit` apart, overlapping ones included. GJK
// stops as soon as its certified lower bound passes the reach; a negative reach (a negative
// tolerance) leaves only overlaps, and the walk then runs to its end.
bool hull_gap_within(const polyhedra::WorldPolytopeSupport& a,
                     const polyhedra::WorldPolytopeSupport& b, const Point3& towards_b,
                     double limit, double radius) {
    const double reach = limit + radius;
    const polyhedra::GjkResult g =
        polyhedra::gjk_distance(a, b, towards_b, reach >= 0.0 ? reach : -1.0);
    return g.overlap || g.distance <= reach;
}

// Whether shapes i < j (indices into s) are in contact, by the definitions of contacts.py.
bool in_contact(const WorldShapes& s, std::size_t i, std::size_t j, double tolerance) {
    if (s.body[i] == s.body[j]) return false; // one rigid body: not a contact
    const double ri = s.radius[i], rj = s.radius[j];
    const double limit = tolerance * std::min(ri, rj);
    // The gap between the (bounding) spheres: the spheres' own test, and for hulls the
    // analysis' candidate filter (_close_pairs), which the exact test implies.
    const double gap = (s.centre[i] - s.centre[j]).norm() - (ri + rj);
    if (!(gap <= limit)) return false;
    if (j < s.spheres) return true; // two spheres
    const Point3 towards = polyhedra::to_point3(s.centre[i] - s.centre[j]);
    if (i >= s.spheres) return hull_gap_within(s.hull(j), s.hull(i), towards, limit, 0.0);
    // Sphere i against hull j: the hull's distance from the sphere's centre.
    const Point3 centre = polyhedra::to_point3(s.centre[i]);
    return hull_gap_within(s.hull(j), polyhedra::WorldPolytopeSupport{&centre, 1}, towards, limit,
                           ri);
}

// Union-find root with path halving.
std::size_t find_root(std::vector<std::size_t>& parent, std::size_t k) {
    while (parent[k] != k) {
        parent[k] = parent[parent[k]];
        k = parent[k];
    }
    return k;
}

void check_field(bool ok, const char* name, double value, const char* unit, const char* range) {
    if (ok) return;
    throw std::invalid_argument(std::string("SettleConfig::") + name + " = " +
                                std::to_string(value) + (*unit ? " " : "") + unit + ": must be " +
                                range);
}

} // namespace

std::vector<std::int64_t> aggregate_labels(const Bodies& b, double tolerance) {
    if (!(tolerance > -1.0) || !std::isfinite(tolerance))
        throw std::invalid_argument("aggregate_labels: tolerance = " + std::to_string(tolerance) +
                                    ": must be finite and > -1");
    const WorldShapes s = collisions::place_world_shapes(b);
    // Candidates: bounding spheres grown by the tolerance meet. gap <= T min(Ri, Rj) implies
    // |d| <= (Ri + Rj)(1 + T); the extra 1e-12 keeps pairs at exactly that distance in against
    // the round-off of |d|^2 (the exact test decides).
    const double grow = 1.0 + std::max(tolerance, 0.0) + 1e-12;
    std::vector<double> reach(s.radius.size());
    for (std::size_t k = 0; k < reach.size(); ++k)
        reach[k] = s.radius[k] * grow;
    const auto pairs = polyhedra::sphere_pairs(s.centre, reach);
    std::vector<std::uint8_t> touch(pairs.size(), 0);
    const auto count = static_cast<std::int64_t>(pairs.size());
#pragma omp parallel for schedule(dynamic, 256) if (count > 4096) // no fork/join for few pairs
    for (std::int64_t p = 0; p < count; ++p) {
        const auto& [i, j] = pairs[static_cast<std::size_t>(p)];
        touch[static_cast<std::size_t>(p)] =
            in_contact(s, static_cast<std::size_t>(i), static_cast<std::size_t>(j), tolerance);
    }
    std::vector<std::size_t> parent(b.size());
    std::iota(parent.begin(), parent.end(), std::size_t{0});
    for (std::size_t p = 0; p < pairs.size(); ++p) {
        if (!touch[p]) continue;
        const std::size_t a = find_root(parent, s.body[static_cast<std::size_t>(pairs[p].first)]);
        const std::size_t c = find_root(parent, s.body[static_cast<std::size_t>(pairs[p].second)]);
        if (a != c) parent[std::max(a, c)] = std::min(a, c);
    }
    // The smallest id of each component, gathered at its root.
    std::vector<std::int64_t> smallest(b.size(), std::numeric_limits<std::int64_t>::max());
    for (std::size_t k = 0; k < b.size(); ++k) {
        const std::size_t r = find_root(parent, k);
        smallest[r] = std::min(smallest[r], b.id[k]);
    }
    std::vector<std::int64_t> labels(b.size());
    for (std::size_t k = 0; k < b.size(); ++k)
        labels[k] = smallest[find_root(parent, k)];
    return labels;
}

std::vector<AggregateSpin> aggregate_spins(const Bodies& b, std::span<const std::int64_t> labels,
                                           double G) {
    if (labels.size() != b.size())
        throw std::invalid_argument("aggregate_spins: " + std::to_string(labels.size()) +
                                    " labels for " + std::to_string(b.size()) + " bodies");
    std::vector<std::size_t> rows(b.size());
    std::iota(rows.begin(), rows.end(), std::size_t{0});
    std::sort(rows.begin(), rows.end(), [&](std::size_t x, std::size_t y) {
        return labels[x] != labels[y] ? labels[x] < labels[y] : x < y;
    });
    std::vector<AggregateSpin> out;
    for (std::size_t first = 0, last = 0; first < rows.size(); first = last) {
        while (last < rows.size() && labels[rows[last]] == labels[rows[first]])
            ++last;
        if (last - first < 2) continue;
        const std::span<const std::size_t> group(rows.data() + first, last - first);
        AggregateSpin a;
        a.label = labels[rows[first]];
        a.members = group.size();
        Vec3 mx = Vec3::Zero(), mv = Vec3::Zero();
        for (const std::size_t k : group) {
            a.mass += b.mass[k];
            mx += b.mass[k] * b.pos[k];
            mv += b.mass[k] * b.vel[k];
        }
        const Vec3 com = mx / a.mass, vcom = mv / a.mass;
        // About the centre of mass: L = sum m r x u + I_k w_k, I = sum I_k + m (r.r 1 - r r^T)
        // (parallel axes), with I_k the body's principal moments turned to the inertial frame.
        Vec3 L = Vec3::Zero();
        Mat3 inertia = Mat3::Zero();
        for (const std::size_t k : group) {
            const Vec3 r = b.pos[k] - com;
            const Mat3 own = inertia_tensor(b, k);
            L += b.mass[k] * r.cross(b.vel[k] - vcom) + own * b.spin[k];
            inertia += own + b.mass[k] * (r.squaredNorm() * Mat3::Identity() - r * r.transpose());
            a.extent = std::max(a.extent, r.norm() + b.radius[k]);
        }
        // Two or more bodies of positive mass have a positive definite tensor (the bodies' own
        // moments are positive), so Cholesky suffices.
        a.spin = inertia.llt().solve(L);
        a.angular_momentum = L;
        a.moment = inertia.trace() / 3.0;
        a.rate_scale = std::sqrt(G * a.mass / (a.extent * a.extent * a.extent));
        out.push_back(a);
    }
    return out;
}

SettleTracker::SettleTracker(const SettleConfig& config)
    : config_(config), t_reference_(std::numeric_limits<double>::quiet_NaN()) {
    const auto finite = [](double x) { return std::isfinite(x); };
    check_field(finite(config.window) && config.window > 0.0, "window", config.window, "s",
                "finite and > 0");
    check_field(finite(config.contact_tolerance) && config.contact_tolerance > -1.0,
                "contact_tolerance", config.contact_tolerance, "", "finite and > -1");
    check_field(finite(config.spin_tolerance) && config.spin_tolerance > 0.0, "spin_tolerance",
                config.spin_tolerance, "", "finite and > 0");
    check_field(finite(config.G) && config.G > 0.0, "G", config.G, "m^3 kg^-1 s^-2",
                "finite and > 0");
}

bool SettleTracker::observe(const Bodies& b, double t) {
    const std::vector<std::int64_t> labels = aggregate_labels(b, config_.contact_tolerance);
    std::vector<std::pair<std::int64_t, std::int64_t>> membership(b.size());
    for (std::size_t k = 0; k < b.size(); ++k)
        membership[k] = {b.id[k], labels[k]};
    std::sort(membership.begin(), membership.end());
    std::vector<AggregateSpin> spins = aggregate_spins(b, labels, config_.G);
    // Same partition of the same ids: the aggregates line up label for label.
    bool same = resets_ > 0 && t >= t_reference_ && membership == membership_;
    for (std::size_t a = 0; same && a < spins.size(); ++a) {
        const AggregateSpin &now = spins[a], &ref = spins_[a];
        const double rate = ref.rate_scale, tol = config_.spin_tolerance * ref.moment * rate;
        same = (now.angular_momentum - ref.angular_momentum).norm() <= tol &&
               std::abs(now.spin.dot(now.angular_momentum) - ref.spin.dot(ref.angular_momentum)) <=
                   tol * rate;
    }
    if (!same) {
        t_reference_ = t;
        membership_ = std::move(membership);
        spins_ = std::move(spins);
        ++resets_;
    }
    return t - t_reference_ >= config_.window;
}

} // namespace rubble::run
