// SPDX-License-Identifier: MIT
#pragma once
// Where a sphere of a rotating rigid body is, and how fast it moves, at one instant of its
// path (rigid_predict.hpp's RigidMotion): for the root searches of rigid_predict.cpp and
// rigid_wall_predict.cpp. Internal to src/collisions.
#include "rubble/collisions/rigid_predict.hpp"
#include "rubble/core/types.hpp"

namespace rubble::collisions::detail {

// A sphere's centre and velocity at one instant.
struct PointState {
    Vec3 x, v;
};

// The centre of the sphere at `offset` (principal frame) of `m` at time t, with its velocity
// on the path (the path's own angular velocity: the derivative the search steps on).
[[nodiscard]] inline PointState point_on_path(const RigidMotion& m, const Vec3& offset, double t) {
    Vec3 w;
    const Quat q = m.rotor->principal_at(t - m.time, w);
    const Vec3 arm = q * offset;
    return PointState{m.pos + (t - m.time) * m.vel + arm, m.vel + w.cross(arm)};
}

// The same point with the velocity it has at the body's physical spin I^-1 L
// (RotorPath::spin_for): the velocity a contact acts on, and so the one that says whether a
// touching pair approaches.
[[nodiscard]] inline PointState point_at_spin(const RigidMotion& m, const Vec3& offset, double t) {
    const Quat q = m.rotor->principal_at(t - m.time);
    const Vec3 arm = q * offset;
    return PointState{m.pos + (t - m.time) * m.vel + arm, m.vel + m.rotor->spin_for(q).cross(arm)};
}

} // namespace rubble::collisions::detail
