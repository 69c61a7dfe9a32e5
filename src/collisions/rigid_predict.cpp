// SPDX-License-Identifier: MIT
#include "rubble/collisions/rigid_predict.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace rubble::collisions {
namespace {

// Steps before the search gives up and reports a contact where it stands (never later than
// the true one): quadratic convergence needs a handful near a transversal contact; only a
// contact grazed at vanishing normal speed, where the gap's curvature is all there is, takes
// more.
constexpr int max_steps = 500;

// A sphere's centre and velocity at one instant.
struct PointState {
    Vec3 x, v;
};

// The centre of sphere `s` of `m` and its velocity on the path, at time t.
PointState point_on_path(const RigidMotion& m, const Vec3& offset, double t) {
    Vec3 w;
    const Quat q = m.rotor.principal_at(t - m.time, w);
    const Vec3 arm = q * offset;
    return PointState{m.pos + (t - m.time) * m.vel + arm, m.vel + w.cross(arm)};
}

// Everything one pair's search needs that does not change along it.
struct PairSearch {
    const RigidMotion& body1;
    const RigidMotion& body2;
    const Vec3& offset1;
    const Vec3& offset2;
    Vec3 shift;
    double sigma; // m, R_a + R_b
    double g2;    // s^-2 m, bound on |g''| where g >= 0

    struct Gap {
        double g, rate; // m, m/s
    };
    [[nodiscard]] Gap gap_at(double t) const {
        const PointState p1 = point_on_path(body1, offset1, t);
        const PointState p2 = point_on_path(body2, offset2, t);
        const Vec3 d = p2.x + shift - p1.x;
        const double dist = d.norm();
        return Gap{dist - sigma, d.dot(p2.v - p1.v) / dist};
    }

    // The smallest s > 0 at which g + rate s - g2 s^2 / 2 can reach zero (infinite: never),
    // for g > 0; written without cancellation (the root of the parabola taken as
    // 2 g / (-rate + sqrt(rate^2 + 2 g2 g)), both terms of the denominator non-negative
    // when approaching).
    [[nodiscard]] double safe_step(const Gap& gap) const {
        if (g2 > 0.0)
            return 2.0 * gap.g / (-gap.rate + std::sqrt(gap.rate * gap.rate + 2.0 * g2 * gap.g));
        return gap.rate < 0.0 ? gap.g / -gap.rate : std::numeric_limits<double>::infinity();
    }

    // Do the two centres approach each other at the bodies' physical spins at t?
    [[nodiscard]] bool approaching(double t) const {
        const auto state = [t](const RigidMotion& m, const Vec3& offset) {
            const Quat q = m.rotor.principal_at(t - m.time);
            const Vec3 arm = q * offset;
            return PointState{m.pos + (t - m.time) * m.vel + arm,
                              m.vel + m.rotor.spin_for(q).cross(arm)};
        };
        const PointState p1 = state(body1, offset1), p2 = state(body2, offset2);
        return (p2.x + shift - p1.x).dot(p2.v - p1.v) < 0.0;
    }

    // The end of the span from t on which both paths are smooth (their splitting steps end;
    // never t itself, so the search always moves on).
    [[nodiscard]] double smooth_until(double t) const {
        const double end = std::min(body1.time + body1.rotor.step_end(t - body1.time),
                                    body2.time + body2.rotor.step_end(t - body2.time));
        return end > t ? end : std::nextafter(t, std::numeric_limits<double>::infinity());
    }

    // The search from t, where the gap is `gap`.
    [[nodiscard]] std::optional<double> from(double t, Gap gap, double until) const {
        if (!(gap.g > 0.0)) {
            if (approaching(t)) return t;
            return std::nullopt;
        }
        // The clock's resolution near the end of the search: steps below it are round-off.
        const double resolution =
            4.0 * std::numeric_limits<double>::epsilon() * std::max(std::abs(t), std::abs(until));
        for (int k = 0; k < max_steps; ++k) {
            const double s = safe_step(gap);
            const double next = t + s;
            if (!(next <= until)) {
                // (s infinite or NaN included.) The bound holds only up to the end of both
                // paths' present splitting steps: search on from there if it comes first.
                const double end = smooth_until(t);
                if (!(end < until)) return std::nullopt;
                t = end;
            } else if (s <= resolution) {
                return next;
            } else {
                t = std::min(next, smooth_until(t));
            }
            gap = gap_at(t);
            if (!(gap.g > 0.0)) return t; // reached at round-off (no root before: the bound)
        }
        return t;
    }
};

double gap_curvature_bound(const RigidMotion& b1, double rho1, const RigidMotion& b2, double rho2,
                           double sigma) {
    const double v =
        (b2.vel - b1.vel).norm() + b1.rotor.rate_bound() * rho1 + b2.rotor.rate_bound() * rho2;
    const double a = b1.rotor.acceleration_bound() * rho1 + b2.rotor.acceleration_bound() * rho2;
    return a + v * v / sigma;
}

} // namespace

std::optional<double> first_touch(const RigidMotion& body1, const PartSphere& s1,
                                  const RigidMotion& body2, const PartSphere& s2, const Vec3& shift,
                                  double now, double until) {
    const double sigma = s1.radius + s2.radius;
    const PairSearch search{
        body1,
        body2,
        s1.offset,
        s2.offset,
        shift,
        sigma,
        gap_curvature_bound(body1, s1.offset.norm(), body2, s2.offset.norm(), sigma)};
    return search.from(now, search.gap_at(now), until);
}

std::optional<RigidContact> predict_rigid_contact(const RigidMotion& body1,
                                                  std::span<const PartSphere> parts1,
                                                  const RigidMotion& body2,
                                                  std::span<const PartSphere> parts2,
                                                  const Vec3& shift, double now, double until) {
    // Every sphere's place and path velocity at `now`, once: the pairs' first gaps and steps
    // come from them, and the pairs are searched in the order of their first safe step, each
    // only up to the earliest contact found so far.
    const auto states = [now](const RigidMotion& m, std::span<const PartSphere> parts) {
        Vec3 w;
        const Quat q = m.rotor.principal_at(now - m.time, w);
        const Vec3 centre = m.pos + (now - m.time) * m.vel;
        std::vector<PointState> out;
        out.reserve(parts.size());
        for (const PartSphere& p : parts) {
            const Vec3 arm = q * p.offset;
            out.push_back(PointState{centre + arm, m.vel + w.cross(arm)});
        }
        return out;
    };
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
            const double sigma = parts1[a].radius + parts2[b].radius;
            const PairSearch search{body1,
                                    body2,
                                    parts1[a].offset,
                                    parts2[b].offset,
                                    shift,
                                    sigma,
                                    gap_curvature_bound(body1, parts1[a].offset.norm(), body2,
                                                        parts2[b].offset.norm(), sigma)};
            const Vec3 d = p2[b].x + shift - p1[a].x;
            const double dist = d.norm();
            const PairSearch::Gap gap{dist - sigma, d.dot(p2[b].v - p1[a].v) / dist};
            if (!(gap.g > 0.0)) {
                // Touching now: a contact now if approaching (the earliest possible).
                const auto t = search.from(now, gap, until);
                if (t && (!best || *t < best->time))
                    best = RigidContact{*t, static_cast<int>(a), static_cast<int>(b)};
                continue;
            }
            const double earliest = now + search.safe_step(gap);
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
        const double sigma = parts1[a].radius + parts2[b].radius;
        const PairSearch search{body1,
                                body2,
                                parts1[a].offset,
                                parts2[b].offset,
                                shift,
                                sigma,
                                gap_curvature_bound(body1, parts1[a].offset.norm(), body2,
                                                    parts2[b].offset.norm(), sigma)};
        const auto t = search.from(now, c.gap, limit);
        if (t && (!best || *t < best->time)) best = RigidContact{*t, c.a, c.b};
    }
    return best;
}

} // namespace rubble::collisions
