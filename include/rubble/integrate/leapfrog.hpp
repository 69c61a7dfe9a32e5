// SPDX-License-Identifier: MIT
#pragma once
// The two halves of the kick-drift-kick leapfrog (Richardson, "N rigid-body dynamics", PiTP
// lectures; Quinn et al. 1997 astro-ph/9710043 eq. 2). Both are pure updates of the bodies so
// the event-driven drift of the collision issue can replace drift() without touching kick().
#include <span>

#include "rubble/core/bodies.hpp"

namespace rubble::integrate {

/// v += a h for every body (h in s, a in m/s^2). Spins are unchanged: no torques on spheres.
void kick(Bodies& b, std::span<const Vec3> acc, double h);

/// x += v h and q <- exp(h w / 2) q for every body: straight lines and constant-rate rotation.
void drift(Bodies& b, double h);

/// Rotates unit quaternion q by the constant inertial-frame angular velocity w (rad/s) for h
/// seconds: q' = exp(h w / 2) (x) q, the exact solution of dq/dt = (0, w)/2 (x) q
/// (Ferrari et al. 2017, exponential-map update).
[[nodiscard]] Quat rotate_by_spin(const Quat& q, const Vec3& w, double h);

} // namespace rubble::integrate
