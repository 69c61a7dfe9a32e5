// SPDX-License-Identifier: MIT
#pragma once
// The two halves of the kick-drift-kick leapfrog (Richardson, "N rigid-body dynamics", PiTP
// lectures; Quinn et al. 1997 astro-ph/9710043 eq. 2). Both are pure updates of the bodies so
// the steppers (stepper.hpp) replace drift() without touching kick().
#include <span>

#include "rubble/core/bodies.hpp"

namespace rubble::integrate {

/// v += a h for every body (h in s, a in m/s^2). Spins are unchanged.
void kick(Bodies& b, std::span<const Vec3> acc, double h);

/// v += a h and L += N h for every body (N in N m, inertial frame; an empty span: no torques),
/// with the angular velocity from the angular momentum through the inertia tensor in the
/// inertial frame, w = R I^-1 R^T L (R: principal frame -> inertial frame). Richardson et al.
/// 2009, P&SS 57, 183: the kick of a rigid body.
void kick(Bodies& b, std::span<const Vec3> acc, std::span<const Vec3> torque, double h);

/// x += v h for every body, and its rotation without torque: q <- exp(h w / 2) q at constant
/// spin for equal principal moments (free spheres), the free-rotor splitting
/// (free_rotor.hpp) otherwise.
void drift(Bodies& b, double h);

/// Rotates unit quaternion q by the constant inertial-frame angular velocity w (rad/s) for h
/// seconds: q' = exp(h w / 2) (x) q, the exact solution of dq/dt = (0, w)/2 (x) q
/// (Ferrari et al. 2017, exponential-map update).
[[nodiscard]] Quat rotate_by_spin(const Quat& q, const Vec3& w, double h);

} // namespace rubble::integrate
