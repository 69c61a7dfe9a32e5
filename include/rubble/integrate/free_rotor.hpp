// SPDX-License-Identifier: MIT
#pragma once
// Torque-free rotation of a rigid body with unequal principal moments, by splitting the free
// rotor's Hamiltonian H = sum_a pi_a^2 / (2 I_a) into its three axis terms, each exactly
// solvable: a rotation about principal axis a by the angle h pi_a / I_a (Touma & Wisdom 1994,
// AJ 107, 1189; Dullweber, Leimkuhler & McLachlan 1997, J. Chem. Phys. 107, 5840). The
// symmetric composition 1(h/2) 2(h/2) 3(h) 2(h/2) 1(h/2) is symplectic, time-reversible and
// second order; the angular momentum in the inertial frame is kept to round-off by every
// sub-step. A body turning fast is split into sub-steps of at most max_angle radians.
#include <cmath>

#include "rubble/core/types.hpp"

namespace rubble::integrate {

/// Largest rotation angle (rad) of one splitting step; more sub-steps are taken above it.
inline constexpr double free_rotor_max_angle = 0.05;

/// A rotation by theta about principal axis a (0, 1, 2): as a quaternion, and as the plane
/// rotation that turns vectors back by -theta about that axis (one sincos for both).
struct AxisRotation {
    Quat q;
    double cos, sin; // of theta
    int a;
    /// R_a(-theta) v.
    [[nodiscard]] Vec3 back(const Vec3& v) const {
        const int b = (a + 1) % 3, c = (a + 2) % 3;
        Vec3 out = v;
        out[b] = cos * v[b] + sin * v[c];
        out[c] = cos * v[c] - sin * v[b];
        return out;
    }
};
[[nodiscard]] inline AxisRotation axis_rotation(int a, double theta) {
    const double s = std::sin(0.5 * theta), c = std::cos(0.5 * theta);
    Quat q(c, 0.0, 0.0, 0.0);
    q.vec()[a] = s;
    return AxisRotation{q, c * c - s * s, 2.0 * s * c, a};
}

/// Turns a body for h seconds without torque. `principal` is the rotation from its principal
/// frame to the inertial frame, `spin` its angular velocity (inertial frame, rad/s), `moments`
/// its principal moments (kg m^2, > 0). Both are updated.
void turn_free_rotor(Quat& principal, Vec3& spin, const Vec3& moments, double h);

/// The number of splitting steps turn_free_rotor takes over h seconds for a body whose
/// angular momentum in its principal frame is pi (kg m^2/s).
[[nodiscard]] double free_rotor_steps(const Vec3& pi, const Vec3& moments, double h);

/// `steps` splitting steps of h / steps each: `principal` and the principal-frame angular
/// momentum pi are updated (what turn_free_rotor does once it has chosen the steps).
void split_free_rotor(Quat& principal, Vec3& pi, const Vec3& moments, double h, double steps);

} // namespace rubble::integrate
