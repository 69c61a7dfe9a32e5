// SPDX-License-Identifier: MIT
#pragma once
// When do two spheres moving on straight lines touch? The drift of the KDK leapfrog is linear
// in velocity, so collisions inside a drift are predicted exactly (DESIGN.md).
#include <cmath>
#include <limits>
#include <optional>

#include "rubble/core/hostdevice.hpp"
#include "rubble/core/types.hpp"

namespace rubble {

/// The smaller root t of |r + v t|^2 = sigma^2 for two spheres approaching each other
/// (b = r.v < 0): the time (s) they first touch on their lines, later than now when they are
/// apart and earlier (t < 0) when they overlap now, or nothing when their lines pass further
/// apart than sigma. r = x2 - x1 (m), v = v2 - v1 (m/s), sigma = R1 + R2 (m).
///
/// |r + v t|^2 = sigma^2 is a t^2 + 2 b t + c = 0 with a = v.v, b = r.v, c = r.r - sigma^2
/// (Richardson, "N rigid-body dynamics", PiTP). Its smaller root (-b - sqrt(D)) / a is taken
/// as c / (-b + sqrt(D)): with b < 0 both terms of the denominator are positive, so there is
/// no cancellation; and D = b^2 - a c is evaluated as a sigma^2 - |r x v|^2 (Lagrange's
/// identity): for small spheres far apart b^2 and a c are huge and nearly equal, and their
/// difference would lose most digits (Bannerman, Strobl, Formella & Poschel 2014, Comput.
/// Part. Mech. 1, 191).
[[nodiscard]] inline std::optional<double> touching_time(const Vec3& r, const Vec3& v,
                                                         double sigma) {
    const double b = r.dot(v);
    const double c = r.squaredNorm() - sigma * sigma;
    const double a = v.squaredNorm();
    const double discriminant = a * sigma * sigma - r.cross(v).squaredNorm();
    if (discriminant < 0.0) return std::nullopt; // they pass each other
    return c / (-b + std::sqrt(discriminant));
}

/// Time (s, >= 0) until two spheres touch, or nothing if they never do while moving apart or
/// past each other. r = x2 - x1 (m), v = v2 - v1 (m/s), sigma = R1 + R2 (m).
///
/// Robust after Bannerman et al. 2014: a pair that already touches or overlaps (c <= 0) while
/// approaching (b < 0) collides now (t = 0), so round-off can never let an approaching,
/// touching pair pass unnoticed; otherwise the root of touching_time; receding pairs
/// (b >= 0) and misses (D < 0) give nothing.
[[nodiscard]] inline std::optional<double> predict_contact(const Vec3& r, const Vec3& v,
                                                           double sigma) {
    const double b = r.dot(v);
    if (!(b < 0.0)) return std::nullopt; // receding, at rest relative to each other, or NaN
    const double c = r.squaredNorm() - sigma * sigma;
    if (c <= 0.0) return 0.0; // touching or overlapping and approaching: now
    return touching_time(r, v, sigma);
}

/// A span of time offsets [lo, hi] (s; hi infinite when unbounded; empty when lo > hi or lo
/// is infinite).
struct TimeWindow {
    double lo, hi;
    [[nodiscard]] bool empty() const {
        return !(lo <= hi) || lo == std::numeric_limits<double>::infinity();
    }
};

/// When can two points, r = x2 - x1 apart now (m) and drifting apart at v = v2 - v1 (m/s) on
/// straight lines, each also wandering off its line by at most `wander` times the time elapsed
/// in all (m/s: a point of a turning rigid body at distance rho from its centre of mass, on a
/// path turning at most W, strays at most W rho s from where it stood; the two summed), come
/// within sigma of each other (m), at s >= 0? For pairs apart now (|r| > sigma); `margin` (m)
/// grows sigma against round-off.
///
/// |r + v s + e(s)| <= sigma with |e(s)| <= k s needs f(s) = |r + v s| - k s - sigma <= 0, and
/// f is convex (a norm of an affine map less a linear one) and positive at 0: the span where it
/// is not positive is one interval, between the roots of
/// (v.v - k^2) s^2 + 2 (r.v - sigma k) s + (r.r - sigma^2) = 0 (both sides of
/// |r + v s| = sigma + k s are non-negative, so squaring adds no root), or none. Each root is
/// taken in the form that does not cancel (touching_time). A tighter bound on the wandering
/// than the first-order one the root searches use (|g'| <= |v| + k), since the straight parts
/// of the paths are exact: a pair whose lines pass by is ruled out at once.
///
/// Growing sigma by `margin` lowers f by as much everywhere; the round-off of the coefficients
/// moves f by a few ulps of |r| + sigma + (|v| + k) s, so with a margin far above that the
/// window computed holds every s at which f is not positive.
[[nodiscard]] inline TimeWindow reach_window(const Vec3& r, const Vec3& v, double sigma,
                                             double wander, double margin) {
    constexpr double infinity = std::numeric_limits<double>::infinity();
    sigma += margin;
    const double alpha = v.squaredNorm() - wander * wander;
    const double beta = r.dot(v) - sigma * wander;
    const double gamma = r.squaredNorm() - sigma * sigma;
    if (!(gamma > 0.0)) return TimeWindow{0.0, infinity}; // within reach now
    if (alpha > 0.0) {
        // Both roots (if any) have the sign of -beta: the window lies ahead only if approaching.
        if (!(beta < 0.0)) return TimeWindow{infinity, 0.0};
        const double d = beta * beta - alpha * gamma;
        if (d < 0.0) return TimeWindow{infinity, 0.0}; // f stays positive
        const double q = -beta + std::sqrt(d);
        return TimeWindow{gamma / q, q / alpha};
    }
    if (alpha < 0.0) {
        // One root ahead (the roots' product is negative), and f <= 0 for ever after it.
        const double q = -beta + std::sqrt(beta * beta - alpha * gamma);
        return TimeWindow{gamma / q, infinity};
    }
    if (beta < 0.0) return TimeWindow{gamma / (-2.0 * beta), infinity};
    return TimeWindow{infinity, 0.0};
}

/// Absolute time (s, >= now) at which two bodies touch, from states kept lazily at their own
/// times (each body is advanced only when it collides): body 1 at x1 at time t1 moving with
/// v1, body 2 at x2 (already shifted to the image body 1 sees) at time t2 with v2. Both are
/// first carried to `now`, so every caller that asks the same question gets bitwise the same
/// answer (the event-driven drift and the brute-force check in the tests).
[[nodiscard]] inline std::optional<double> predict_contact_at(const Vec3& x1, const Vec3& v1,
                                                              double t1, const Vec3& x2,
                                                              const Vec3& v2, double t2,
                                                              double sigma, double now) {
    const Vec3 r = (x2 + (now - t2) * v2) - (x1 + (now - t1) * v1);
    const std::optional<double> dt = predict_contact(r, v2 - v1, sigma);
    if (!dt) return std::nullopt;
    return now + *dt;
}

} // namespace rubble
