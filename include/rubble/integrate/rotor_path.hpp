// SPDX-License-Identifier: MIT
#pragma once
// The orientation of a rigid body at every instant of a drift, as a smooth function of time
// that collision prediction can search (docs/aggregates.md, "Contact prediction").
//
// The drift turns a body without torque by the free-rotor splitting (free_rotor.hpp): n =
// free_rotor_steps(T) steps of tau = T/n over a segment of T seconds (from the drift's start,
// or from the body's last collision, to the drift's end). The path goes through those steps
// in time: at t = k tau + s (0 <= s <= tau) it is the state after k whole steps followed by one
// splitting step of s, Q(t) = Q_k S_k(s). Within each step that is an analytic function of s;
// it is continuous where steps meet (S_k(tau) is step k + 1's start), it ends bitwise where
// turn_free_rotor(T) ends, keeps the inertial angular momentum L = Q pi to round-off at every
// t, and differs from the exact free rotor by the splitting's O((w tau)^2) relative error.
// The search (rigid_predict.hpp) never steps across a step boundary (step_end), where the
// path's angular velocity jumps by that error.
//
// Bodies with three equal moments (free spheres) turn at their constant spin instead,
// exactly as the drift turns them (rotate_by_spin).
//
// For the root search the path also gives its angular velocity (the derivative of Q, not
// I^-1 L: the two differ by the splitting error) and bounds over the whole segment on the
// speed and acceleration of a body-fixed point at distance rho from the centre of mass:
// |dp/dt| <= rate_bound rho, |d2p/dt2| <= acceleration_bound rho.
#include <vector>

#include "rubble/core/types.hpp"

namespace rubble::integrate {

class RotorPath {
public:
    RotorPath() = default;
    /// A segment of `duration` seconds (>= 0) of a body whose principal frame is turned to the
    /// inertial frame by `principal` at its start, with angular velocity `spin` (inertial,
    /// rad/s) and principal moments `moments` (kg m^2, > 0).
    RotorPath(const Quat& principal, const Vec3& spin, const Vec3& moments, double duration);

    /// The principal frame -> inertial frame rotation t seconds into the segment (0 <= t <=
    /// duration; bitwise turn_free_rotor's at t = duration).
    [[nodiscard]] Quat principal_at(double t) const;
    /// The same, and the path's angular velocity (inertial, rad/s) at t.
    [[nodiscard]] Quat principal_at(double t, Vec3& angular_velocity) const;

    /// The body's angular velocity I^-1 L (inertial, rad/s) when its principal frame is q: the
    /// physical spin that collisions use (the path's own angular velocity differs from it by
    /// the splitting error).
    [[nodiscard]] Vec3 spin_for(const Quat& q) const;

    /// The end of the splitting step that contains t (the segment's end for equal moments):
    /// the path is smooth on [t, step_end(t)].
    [[nodiscard]] double step_end(double t) const;

    /// The spin I^-1 L at the segment's end, bit for bit what turn_free_rotor(duration) leaves.
    [[nodiscard]] Vec3 end_spin() const;

    /// Upper bound over the segment on the path's angular speed (rad/s).
    [[nodiscard]] double rate_bound() const { return rate_bound_; }
    /// Upper bound over the segment on |d2p/dt2| / |rho| (s^-2) for a body-fixed point.
    [[nodiscard]] double acceleration_bound() const { return acceleration_bound_; }
    [[nodiscard]] double duration() const { return duration_; }

private:
    // The state at the start of each splitting step, and at the end (n + 1 of each).
    std::vector<Quat> step_start_{Quat::Identity()};
    std::vector<Vec3> step_pi_{Vec3::Zero()}; // kg m^2/s, angular momentum, principal frame
    double tau_ = 0.0;                        // s, one splitting step
    Vec3 moments_ = Vec3::Ones();             // kg m^2
    Vec3 spin_ = Vec3::Zero();                // rad/s, inertial (equal moments)
    [[nodiscard]] std::size_t step_of(double t) const;
    Vec3 momentum_ = Vec3::Zero();    // kg m^2/s, L, inertial
    double duration_ = 0.0;           // s
    double steps_ = 1.0;              // splitting steps of the segment
    bool spherical_ = true;           // equal moments: constant spin
    double rate_bound_ = 0.0;         // rad/s
    double acceleration_bound_ = 0.0; // s^-2
};

} // namespace rubble::integrate
