// SPDX-License-Identifier: MIT
#include "rubble/collisions/rigid_predict.hpp"

#include "conservative_advance.hpp"
#include "path_points.hpp"
#include "rubble/core/contact_time.hpp"
#include "rubble/core/debug_checks.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <vector>

namespace rubble::collisions {
namespace {

// The bounding spheres are grown by this factor against the round-off of the reach
// |offset| + R, so that round-off cannot make them miss where spheres touch.
constexpr double bound_margin = 1.0 + 1e-12;

using detail::point_on_path;
using detail::PointState;

// The end of the span from t on which both bodies' paths are smooth (their splitting steps
// end; never t itself, so a search always moves on).
double smooth_until(const RigidMotion& body1, const RigidMotion& body2, double t) {
    const double end = std::min(body1.time + body1.rotor->step_end(t - body1.time),
                                body2.time + body2.rotor->step_end(t - body2.time));
    return end > t ? end : std::nextafter(t, std::numeric_limits<double>::infinity());
}

// The reach windows of one pair of bodies (reach_window, contact_time.hpp): from points r
// apart (m) at t (s), drifting apart at the bodies' relative velocity v but for their turns,
// which stray at most `wander` (m/s) times the time from their lines, the span of times
// (absolute, and no later than `end`) in which they can come within sigma of each other. The
// margin is far above the round-off of positions of this size (`roundoff`, m) and of spans up
// to `end`.
struct ReachWindows {
    Vec3 v;          // m/s
    double speed;    // m/s, |v|
    double end;      // s
    double roundoff; // m

    [[nodiscard]] TimeWindow at(const Vec3& r, double sigma, double wander, double t) const {
        constexpr double relative = 1e-9;
        const double distance = r.norm();
        const double margin =
            relative * (distance + sigma + (speed + wander) * (end - t)) + roundoff;
        // Within reach now, or out of reach until `end` even at the first-order bound
        // (|r + v s| >= |r| - |v| s): no window worth its square root.
        const double gap = distance - (sigma + margin);
        if (!(gap > 0.0)) return TimeWindow{t, end};
        if (t + gap / (speed + wander) > end) return TimeWindow{end, t};
        const TimeWindow w = reach_window(r, v, sigma, wander, margin);
        return TimeWindow{t + w.lo, std::min(end, t + w.hi)};
    }
};

// Everything one pair's search needs that does not change along it.
struct PairSearch {
    const RigidMotion& body1;
    const RigidMotion& body2;
    const Vec3& offset1;
    const Vec3& offset2;
    Vec3 shift;
    double sigma;  // m, R_a + R_b
    double speed;  // m/s, bound on |g'| (and on |d'|) everywhere
    double g2;     // s^-2 m, bound on |g''| where g >= 0 and both paths are smooth
    double wander; // m/s, W_1 rho_1 + W_2 rho_2
    const ReachWindows& windows;

    using Gap = detail::Gap;
    // The gap of centres d apart with relative path velocity u, and its reach window.
    [[nodiscard]] Gap gap_of(const Vec3& d, const Vec3& u, double t) const {
        const double dist = d.norm();
        const TimeWindow w = windows.at(d, sigma, wander, t);
        return Gap{dist - sigma, d.dot(u) / dist, w.lo, w.hi};
    }
    [[nodiscard]] Gap gap_at(double t) const {
        const PointState p1 = point_on_path(body1, offset1, t);
        const PointState p2 = point_on_path(body2, offset2, t);
        return gap_of(p2.x + shift - p1.x, p2.v - p1.v, t);
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

    [[nodiscard]] double smooth_until(double t) const {
        return collisions::smooth_until(body1, body2, t);
    }
};

// A sphere's terms of the pair bounds (see the header): the rotor path's bounds on its speed
// W rho and acceleration Y rho, rho its distance from its body's centre of mass.
struct SphereBounds {
    double rate, accel;
};

SphereBounds bounds_of(const RigidMotion& body, const PartSphere& s) {
    const double rho = s.offset.norm();
    return SphereBounds{body.rotor->rate_bound() * rho, body.rotor->acceleration_bound() * rho};
}

// The search for spheres s1 of body1 and s2 of body2: with |d'| <= V and |d''| <= A (rigid
// motion bounds of the two paths, see the header), |g'| <= V and |g''| <= A + V^2 / sigma.
// `relative_speed` is |v_2 - v_1|.
PairSearch make_search(const RigidMotion& body1, const PartSphere& s1, const SphereBounds& b1,
                       const RigidMotion& body2, const PartSphere& s2, const SphereBounds& b2,
                       const ReachWindows& windows, const Vec3& shift) {
    const double sigma = s1.radius + s2.radius;
    const double v = windows.speed + b1.rate + b2.rate;
    const double a = b1.accel + b2.accel;
    return PairSearch{body1, body2, s1.offset,         s2.offset,         shift,
                      sigma, v,     a + v * v / sigma, b1.rate + b2.rate, windows};
}

// The reach windows of body 2 (shifted) against body 1 from `now` to `until`, whose centres of
// mass stand at c1 and c2 at `now`: the margins cover the round-off of positions about them.
ReachWindows windows_of(const RigidMotion& body1, const RigidMotion& body2, const Vec3& c1,
                        const Vec3& c2, double until) {
    const Vec3 v = body2.vel - body1.vel;
    return ReachWindows{v, v.norm(), until,
                        64.0 * std::numeric_limits<double>::epsilon() * (c1.norm() + c2.norm())};
}

} // namespace

double reach_of(std::span<const PartSphere> parts) {
    double r = 0.0;
    for (const PartSphere& p : parts)
        r = std::max(r, p.offset.norm() + p.radius);
    return r;
}

std::optional<double> bounding_contact(const RigidMotion& body1, const RigidMotion& body2,
                                       const Vec3& shift, double now) {
    const double reach_sum = (body1.reach + body2.reach) * bound_margin;
    const Vec3 r = (body2.pos + (now - body2.time) * body2.vel + shift) -
                   (body1.pos + (now - body1.time) * body1.vel);
    // The bounding spheres of bodies that overlap now say nothing: they may touch now.
    if (r.squaredNorm() <= reach_sum * reach_sum) return now;
    // Apart: they meet where the bounding spheres first touch, or never (receding or passing).
    const auto dt = predict_contact(r, body2.vel - body1.vel, reach_sum);
    if (!dt) return std::nullopt;
    return now + *dt;
}

double bounding_exit(const RigidMotion& body1, const RigidMotion& body2, const Vec3& shift,
                     double start) {
    // From `start`, where the bounding spheres touch or overlap (|r| <= R, R their reach
    // sum), |r + v s| = R has one root s >= 0, the larger of a s^2 + 2 b s + c = 0: written as
    // (-b + sqrt(D)) / a when b <= 0 and as -c / (b + sqrt(D)) when b > 0, so that neither
    // form cancels (touching_time, contact_time.hpp). R is grown by exit_margin beyond the
    // entry's margin: r is taken at `start`, where |r| is about R, so the root's round-off is
    // a few ulps of R / |v|, far inside it.
    constexpr double exit_margin = 1.0 + 1e-9;
    const double reach_sum = (body1.reach + body2.reach) * bound_margin * exit_margin;
    const Vec3 r = (body2.pos + (start - body2.time) * body2.vel + shift) -
                   (body1.pos + (start - body1.time) * body1.vel);
    const Vec3 v = body2.vel - body1.vel;
    const double a = v.squaredNorm();
    if (!(a > 0.0)) return std::numeric_limits<double>::infinity(); // together for good
    const double b = r.dot(v);
    const double c = r.squaredNorm() - reach_sum * reach_sum;
    const double root =
        std::sqrt(std::max(0.0, a * reach_sum * reach_sum - r.cross(v).squaredNorm()));
    const double s = b <= 0.0 ? (root - b) / a : std::max(0.0, -c) / (b + root);
    return start + s;
}

std::optional<double> first_touch(const RigidMotion& body1, const PartSphere& s1,
                                  const RigidMotion& body2, const PartSphere& s2, const Vec3& shift,
                                  double now, double until) {
    const Vec3 c1 = body1.pos + (now - body1.time) * body1.vel;
    const Vec3 c2 = body2.pos + (now - body2.time) * body2.vel + shift;
    const ReachWindows windows = windows_of(body1, body2, c1, c2, until);
    const PairSearch search = make_search(body1, s1, bounds_of(body1, s1), body2, s2,
                                          bounds_of(body2, s2), windows, shift);
    return detail::search_from(search, now, search.gap_at(now), until);
}

std::optional<RigidContact> predict_rigid_contact(const RigidMotion& body1,
                                                  std::span<const PartSphere> parts1,
                                                  const RigidMotion& body2,
                                                  std::span<const PartSphere> parts2,
                                                  const Vec3& shift, double now, double until) {
    // No sphere can touch before the bodies' bounding spheres about their centres of mass
    // (which move on straight lines) do, nor after they part: their exact contact time
    // (predict.hpp) rules out most neighbouring pairs at once, and the search starts from it.
    RUBBLE_CHECK(body1.reach >= reach_of(parts1) && body2.reach >= reach_of(parts2),
                 "predict_rigid_contact: a body's reach is below its spheres' reach_of");
    const auto start = bounding_contact(body1, body2, shift, now);
    if (!start || *start > until) return std::nullopt;
    now = *start;
    until = std::min(until, bounding_exit(body1, body2, shift, now));
    const Vec3 c1 = body1.pos + (now - body1.time) * body1.vel;
    const Vec3 c2 = body2.pos + (now - body2.time) * body2.vel + shift;
    const ReachWindows windows = windows_of(body1, body2, c1, c2, until);

    // Every sphere at `now`, once: its place and path velocity (the pairs' first gaps and steps
    // come from them), its terms of the pair bounds, and the span of time in which it can be
    // within the other body's bounding sphere, which holds all that body's spheres: its centre
    // moves on a straight line relative to the other centre but for its turn about its own
    // centre of mass, which strays at most W rho (t - now) from that line (reach_window), so
    // most pairs are ruled out in pairs of spheres rather than one by one.
    struct SphereNow {
        PointState p;
        SphereBounds b;
        TimeWindow reach; // s, absolute
    };
    // `side`: +1 for body 1's spheres, -1 for body 2's (the windows measure from body 1 to 2).
    const auto spheres_now = [&](const RigidMotion& m, std::span<const PartSphere> parts,
                                 const Vec3& other_centre, double other_reach, double side,
                                 std::vector<SphereNow>& out) {
        Vec3 w;
        const Quat q = m.rotor->principal_at(now - m.time, w);
        const Vec3 centre = m.pos + (now - m.time) * m.vel;
        out.clear();
        for (const PartSphere& p : parts) {
            const Vec3 arm = q * p.offset;
            const PointState state{centre + arm, m.vel + w.cross(arm)};
            const SphereBounds b = bounds_of(m, p);
            const Vec3 r = side * (other_centre - state.x);
            out.push_back(SphereNow{state, b, windows.at(r, p.radius + other_reach, b.rate, now)});
        }
    };
    thread_local std::vector<SphereNow> s1, s2;
    spheres_now(body1, parts1, c2, body2.reach * bound_margin, 1.0, s1);
    spheres_now(body2, parts2, c1 - shift, body1.reach * bound_margin, -1.0, s2); // (unshifted)
    // Every pair's paths are smooth until the same time from `now`.
    const double smooth_end = smooth_until(body1, body2, now);
    struct Candidate {
        double earliest;
        int a, b;
        PairSearch::Gap gap;
    };
    thread_local std::vector<Candidate> candidates;
    candidates.clear();
    std::optional<RigidContact> best;
    for (std::size_t a = 0; a < parts1.size(); ++a) {
        if (s1[a].reach.empty()) continue;
        for (std::size_t b = 0; b < parts2.size(); ++b) {
            if (!(std::max(s1[a].reach.lo, s2[b].reach.lo) <=
                  std::min(s1[a].reach.hi, s2[b].reach.hi)))
                continue;
            const PairSearch search =
                make_search(body1, parts1[a], s1[a].b, body2, parts2[b], s2[b].b, windows, shift);
            const Vec3 d = s2[b].p.x + shift - s1[a].p.x;
            const Vec3 u = s2[b].p.v - s1[a].p.v;
            const double g = d.norm() - search.sigma;
            if (!(g > 0.0)) {
                // Touching now: a contact now if approaching (the earliest possible).
                const auto t = detail::search_from(search, now, PairSearch::Gap{g, 0.0}, until);
                if (t && (!best || *t < best->time))
                    best = RigidContact{*t, static_cast<int>(a), static_cast<int>(b)};
                continue;
            }
            // The first-order bound alone (safe_until's first term) rules out most pairs
            // before the window and the second-order bound are worth their square roots.
            if (now + g / search.speed > until) continue;
            const PairSearch::Gap gap = search.gap_of(d, u, now);
            if (!(gap.lo <= gap.hi)) continue;
            const double earliest =
                std::max(detail::safe_until(search, now, gap, smooth_end), gap.lo);
            if (earliest <= gap.hi)
                candidates.push_back(
                    Candidate{earliest, static_cast<int>(a), static_cast<int>(b), gap});
        }
    }
    // In the order of their first safe step (ties by pair, so the order is the same whatever
    // the sort), each only up to the earliest contact found so far.
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& x, const Candidate& y) {
        return std::tie(x.earliest, x.a, x.b) < std::tie(y.earliest, y.a, y.b);
    });
    for (const Candidate& c : candidates) {
        const double limit = best ? std::min(until, best->time) : until;
        if (c.earliest > limit) break;
        const auto a = static_cast<std::size_t>(c.a), b = static_cast<std::size_t>(c.b);
        const PairSearch search =
            make_search(body1, parts1[a], s1[a].b, body2, parts2[b], s2[b].b, windows, shift);
        const auto t = detail::search_from(search, now, c.gap, limit);
        if (t && (!best || *t < best->time)) best = RigidContact{*t, c.a, c.b};
    }
    return best;
}

} // namespace rubble::collisions
