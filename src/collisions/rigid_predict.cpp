// SPDX-License-Identifier: MIT
#include "rubble/collisions/rigid_predict.hpp"

#include "conservative_advance.hpp"
#include "path_points.hpp"
#include "rubble/collisions/predict.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace rubble::collisions {
namespace {

// The bounding spheres are grown by this factor against the round-off of the reach
// |offset| + R, so that round-off cannot make them miss where spheres touch.
constexpr double bound_margin = 1.0 + 1e-12;

using detail::point_on_path;
using detail::PointState;

// Everything one pair's search needs that does not change along it.
struct PairSearch {
    const RigidMotion& body1;
    const RigidMotion& body2;
    const Vec3& offset1;
    const Vec3& offset2;
    Vec3 shift;
    double sigma; // m, R_a + R_b
    double speed; // m/s, bound on |g'| (and on |d'|) everywhere
    double g2;    // s^-2 m, bound on |g''| where g >= 0 and both paths are smooth

    using Gap = detail::Gap;
    [[nodiscard]] Gap gap_at(double t) const {
        const PointState p1 = point_on_path(body1, offset1, t);
        const PointState p2 = point_on_path(body2, offset2, t);
        const Vec3 d = p2.x + shift - p1.x;
        const double dist = d.norm();
        return Gap{dist - sigma, d.dot(p2.v - p1.v) / dist};
    }

    // The parabola's root under the constant bound g2 (conservative_advance.hpp).
    [[nodiscard]] double second_order_step(const Gap& gap) const {
        return detail::parabola_step(gap, g2);
    }

    // Do the two centres approach each other at the bodies' physical spins at t?
    [[nodiscard]] bool approaching(double t) const {
        const PointState p1 = detail::point_at_spin(body1, offset1, t);
        const PointState p2 = detail::point_at_spin(body2, offset2, t);
        return (p2.x + shift - p1.x).dot(p2.v - p1.v) < 0.0;
    }

    // The end of the span from t on which both paths are smooth (their splitting steps end;
    // never t itself, so the search always moves on).
    [[nodiscard]] double smooth_until(double t) const {
        const double end = std::min(body1.time + body1.rotor->step_end(t - body1.time),
                                    body2.time + body2.rotor->step_end(t - body2.time));
        return end > t ? end : std::nextafter(t, std::numeric_limits<double>::infinity());
    }
};

// The search for spheres s1 of body1 and s2 of body2: with |d'| <= V and |d''| <= A (rigid
// motion bounds of the two paths, see the header), |g'| <= V and |g''| <= A + V^2 / sigma.
PairSearch make_search(const RigidMotion& body1, const PartSphere& s1, const RigidMotion& body2,
                       const PartSphere& s2, const Vec3& shift) {
    const double rho1 = s1.offset.norm(), rho2 = s2.offset.norm();
    const double sigma = s1.radius + s2.radius;
    const double v = (body2.vel - body1.vel).norm() + body1.rotor->rate_bound() * rho1 +
                     body2.rotor->rate_bound() * rho2;
    const double a =
        body1.rotor->acceleration_bound() * rho1 + body2.rotor->acceleration_bound() * rho2;
    return PairSearch{body1, body2, s1.offset, s2.offset, shift, sigma, v, a + v * v / sigma};
}

} // namespace

std::optional<double> first_touch(const RigidMotion& body1, const PartSphere& s1,
                                  const RigidMotion& body2, const PartSphere& s2, const Vec3& shift,
                                  double now, double until) {
    const PairSearch search = make_search(body1, s1, body2, s2, shift);
    return detail::search_from(search, now, search.gap_at(now), until);
}

std::optional<RigidContact> predict_rigid_contact(const RigidMotion& body1,
                                                  std::span<const PartSphere> parts1,
                                                  const RigidMotion& body2,
                                                  std::span<const PartSphere> parts2,
                                                  const Vec3& shift, double now, double until) {
    // Every sphere's place and path velocity at `now`, once: the pairs' first gaps and steps
    // come from them, and the pairs are searched in the order of their first safe step, each
    // only up to the earliest contact found so far.
    const auto states = [&now](const RigidMotion& m, std::span<const PartSphere> parts) {
        Vec3 w;
        const Quat q = m.rotor->principal_at(now - m.time, w);
        const Vec3 centre = m.pos + (now - m.time) * m.vel;
        std::vector<PointState> out;
        out.reserve(parts.size());
        for (const PartSphere& p : parts) {
            const Vec3 arm = q * p.offset;
            out.push_back(PointState{centre + arm, m.vel + w.cross(arm)});
        }
        return out;
    };
    // No sphere can touch before the bodies' bounding spheres about their centres of mass
    // (which move on straight lines) do: their exact contact time (predict.hpp) rules out most
    // neighbouring pairs at once, and the search starts from it.
    const auto reach = [](std::span<const PartSphere> parts) {
        double r = 0.0;
        for (const PartSphere& p : parts)
            r = std::max(r, p.offset.norm() + p.radius);
        return r;
    };
    const double reach_sum = (reach(parts1) + reach(parts2)) * bound_margin;
    const Vec3 r = (body2.pos + (now - body2.time) * body2.vel + shift) -
                   (body1.pos + (now - body1.time) * body1.vel);
    if (r.squaredNorm() > reach_sum * reach_sum) {
        // Apart: they meet where the bounding spheres first touch, or never (receding or
        // passing; the bounding spheres of bodies that overlap now say nothing).
        const auto dt = predict_contact(r, body2.vel - body1.vel, reach_sum);
        if (!dt || now + *dt > until) return std::nullopt;
        now += *dt;
    }
    const std::vector<PointState> p1 = states(body1, parts1), p2 = states(body2, parts2);
    struct Candidate {
        double earliest;
        int a, b;
        PairSearch::Gap gap;
    };
    std::vector<Candidate> candidates;
    std::optional<RigidContact> best;
    for (std::size_t a = 0; a < parts1.size(); ++a) {
        for (std::size_t b = 0; b < parts2.size(); ++b) {
            const PairSearch search = make_search(body1, parts1[a], body2, parts2[b], shift);
            const Vec3 d = p2[b].x + shift - p1[a].x;
            const double dist = d.norm();
            const PairSearch::Gap gap{dist - search.sigma, d.dot(p2[b].v - p1[a].v) / dist};
            if (!(gap.g > 0.0)) {
                // Touching now: a contact now if approaching (the earliest possible).
                const auto t = detail::search_from(search, now, gap, until);
                if (t && (!best || *t < best->time))
                    best = RigidContact{*t, static_cast<int>(a), static_cast<int>(b)};
                continue;
            }
            const double earliest = detail::safe_until(search, now, gap);
            if (earliest <= until)
                candidates.push_back(
                    Candidate{earliest, static_cast<int>(a), static_cast<int>(b), gap});
        }
    }
    std::sort(candidates.begin(), candidates.end(),
              [](const Candidate& x, const Candidate& y) { return x.earliest < y.earliest; });
    for (const Candidate& c : candidates) {
        const double limit = best ? std::min(until, best->time) : until;
        if (c.earliest > limit) break;
        const auto a = static_cast<std::size_t>(c.a), b = static_cast<std::size_t>(c.b);
        const PairSearch search = make_search(body1, parts1[a], body2, parts2[b], shift);
        const auto t = detail::search_from(search, now, c.gap, limit);
        if (t && (!best || *t < best->time)) best = RigidContact{*t, c.a, c.b};
    }
    return best;
}

} // namespace rubble::collisions
