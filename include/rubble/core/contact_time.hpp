// SPDX-License-Identifier: MIT
#pragma once
// When do two spheres moving on straight lines touch? The drift of the KDK leapfrog is linear
// in velocity, so collisions inside a drift are predicted exactly (DESIGN.md).
#include <cmath>
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
