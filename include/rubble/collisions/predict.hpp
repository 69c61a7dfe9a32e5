// SPDX-License-Identifier: MIT
#pragma once
// When do two spheres moving on straight lines touch? The drift of the KDK leapfrog is linear
// in velocity, so collisions inside a drift are predicted exactly (DESIGN.md).
#include <optional>

#include "rubble/core/hostdevice.hpp"
#include "rubble/core/types.hpp"

namespace rubble::collisions {

/// Time (s, >= 0) until two spheres touch, or nothing if they never do while moving apart or
/// past each other. r = x2 - x1 (m), v = v2 - v1 (m/s), sigma = R1 + R2 (m).
///
/// Solves |r + v t|^2 = sigma^2, i.e. a t^2 + 2 b t + c = 0 with a = v.v, b = r.v,
/// c = r.r - sigma^2, for its smallest root (Richardson, "N rigid-body dynamics", PiTP).
/// Numerically robust after Bannerman, Strobl, Formella & Poschel 2014 (Comput. Part. Mech.
/// 1, 191): a pair that already touches or overlaps (c <= 0) while approaching (b < 0)
/// collides now (t = 0), so round-off can never let an approaching, touching pair pass
/// unnoticed; the root is taken in the form t = c / (-b + sqrt(D)), which has no cancellation
/// (b < 0 there), with D = b^2 - a c evaluated as a sigma^2 - |r x v|^2 so that small spheres
/// far apart keep their digits; receding pairs (b >= 0) and misses (D < 0) give nothing.
[[nodiscard]] std::optional<double> predict_contact(const Vec3& r, const Vec3& v, double sigma);

} // namespace rubble::collisions
