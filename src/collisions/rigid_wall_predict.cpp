// SPDX-License-Identifier: MIT
#include "rubble/collisions/rigid_wall_predict.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "conservative_advance.hpp"
#include "path_points.hpp"
#include "rubble/boundaries/wall_predict.hpp"
#include "rubble/core/debug_checks.hpp"

namespace rubble::collisions {
namespace {

// As rigid_predict.cpp: the bounding sphere is grown against the round-off of its reach.
constexpr double bound_margin = 1.0 + 1e-12;

// Everything one sphere's search against one wall needs (conservative_advance.hpp).
struct WallSearch {
    const RigidMotion& body;
    const Vec3& offset;
    double radius; // m, the sphere's
    const boundaries::Wall& wall;
    Vec3 wall_start; // m, the wall's point at drift time 0
    double speed;    // m/s, V: bound on |g'| everywhere
    double accel;    // m/s^2, A: bound on |x''| where the path is smooth

    [[nodiscard]] detail::Gap gap_at(double t) const {
        const detail::PointState p = detail::point_on_path(body, offset, t);
        const boundaries::WallGap wg =
            boundaries::wall_gap(wall, wall_start + t * wall.velocity, p.x, radius);
        return detail::Gap{wg.gap, wg.normal.dot(p.v - wall.velocity)};
    }

    // The bounds of the header, for each shape.
    [[nodiscard]] double second_order_step(const detail::Gap& gap) const {
        if (wall.shape == boundaries::WallShape::plane) return detail::parabola_step(gap, accel);
        if (!wall.inside)
            return detail::parabola_step(gap, accel + speed * speed / (wall.radius + radius));
        const double q = wall.radius - radius - gap.g; // the centre's distance from the axis
        if (!(q > 0.0)) return 0.0;
        return std::min(detail::parabola_step(gap, accel + 2.0 * speed * speed / q),
                        q / (2.0 * speed));
    }

    [[nodiscard]] double smooth_until(double t) const {
        const double end = body.time + body.rotor->step_end(t - body.time);
        return end > t ? end : std::nextafter(t, std::numeric_limits<double>::infinity());
    }

    // Does the sphere move into the wall at the body's physical spin at t?
    [[nodiscard]] bool approaching(double t) const {
        const detail::PointState p = detail::point_at_spin(body, offset, t);
        const boundaries::WallGap wg =
            boundaries::wall_gap(wall, wall_start + t * wall.velocity, p.x, radius);
        return wg.normal.dot(p.v - wall.velocity) < 0.0;
    }
};

WallSearch make_search(const RigidMotion& body, const PartSphere& s, const boundaries::Wall& w,
                       const Vec3& wall_start) {
    const double rho = s.offset.norm();
    const double v = (body.vel - w.velocity).norm() + body.rotor->rate_bound() * rho;
    return WallSearch{
        body, s.offset, s.radius, w, wall_start, v, body.rotor->acceleration_bound() * rho};
}

} // namespace

bool rigid_bodies_meet(const boundaries::Wall& w) {
    return w.shape == boundaries::WallShape::plane || w.length == 0.0;
}

std::optional<RigidWallContact> predict_rigid_wall_contact(const RigidMotion& body,
                                                           std::span<const PartSphere> parts,
                                                           const boundaries::Wall& w,
                                                           const Vec3& wall_start, double now,
                                                           double until) {
    // No sphere can touch before the body's bounding sphere about its centre of mass (which
    // moves on a straight line) does: its exact contact time (wall_predict.hpp) rules out
    // most bodies at once, and the search starts from it.
    RUBBLE_CHECK(body.reach >= reach_of(parts),
                 "predict_rigid_wall_contact: the body's reach is below its spheres' reach_of");
    const double reach = body.reach * bound_margin;
    {
        const Vec3 centre = body.pos + (now - body.time) * body.vel;
        const Vec3 wall_now = wall_start + now * w.velocity;
        if (boundaries::wall_gap(w, wall_now, centre, reach).gap > 0.0) {
            const auto dt = boundaries::predict_wall_contact(w, wall_now, centre, body.vel, reach);
            if (!dt || now + *dt > until) return std::nullopt;
            now += *dt;
        }
    }
    struct Candidate {
        double earliest;
        int part;
        detail::Gap gap;
    };
    std::vector<Candidate> candidates;
    std::optional<RigidWallContact> best;
    for (std::size_t a = 0; a < parts.size(); ++a) {
        const WallSearch search = make_search(body, parts[a], w, wall_start);
        const detail::Gap gap = search.gap_at(now);
        if (!(gap.g > 0.0)) {
            // Touching now: a contact now if moving in (the earliest possible).
            const auto t = detail::search_from(search, now, gap, until);
            if (t && (!best || *t < best->time)) best = RigidWallContact{*t, static_cast<int>(a)};
            continue;
        }
        const double earliest = detail::safe_until(search, now, gap);
        if (earliest <= until) candidates.push_back(Candidate{earliest, static_cast<int>(a), gap});
    }
    std::sort(candidates.begin(), candidates.end(),
              [](const Candidate& x, const Candidate& y) { return x.earliest < y.earliest; });
    for (const Candidate& c : candidates) {
        const double limit = best ? std::min(until, best->time) : until;
        if (c.earliest > limit) break;
        const WallSearch search =
            make_search(body, parts[static_cast<std::size_t>(c.part)], w, wall_start);
        const auto t = detail::search_from(search, now, c.gap, limit);
        if (t && (!best || *t < best->time)) best = RigidWallContact{*t, c.part};
    }
    return best;
}

} // namespace rubble::collisions
