// SPDX-License-Identifier: MIT
#pragma once
// When does a sphere of a rotating rigid body touch a wall during a drift? (docs/aggregates.md,
// "Walls".)
//
// The same root search as sphere pairs (rigid_predict.hpp): the body's centre of mass moves on
// a straight line and its orientation follows its rotor path, and the wall translates at a
// constant velocity (turning about its own axis leaves a plane's or a cylinder's surface where
// it is), so the gap g(t) = wall_gap(w, p(t), x(t), R).gap of a sphere centred at x(t) is
// searched by conservative advancement with first- and second-order bounds. With
// V = |v - v_wall| + W rho and A = Y rho the bounds on |x'| and |x''| relative to the wall
// (W, Y: the rotor path's bounds, rho: the sphere's distance from the centre of mass), the
// distance to a plane or to a cylinder's surface changes no faster than the point moves, so
// |g'| <= V, and
//   plane:                  g'' = n.x'', |g''| <= A;
//   cylinder from outside:  |g''| <= A + V^2 / |q|, |q| >= R_cyl + R where g >= 0
//                           (q: the centre's offset from the axis, perpendicular to it);
//   cylinder from inside:   the same bound with |q| >= |q(t)| / 2, which holds for
//                           |q(t)| / (2 V) seconds: the second-order step is held to that.
// Finite cylinders (caps, rims) have creases where no second-order bound holds, and the
// first-order one alone converges too slowly near a grazing contact: they are refused with
// aggregates (the event-driven drift refuses them at its start, naming the wall), as
// docs/aggregates.md says.
#include <optional>
#include <span>

#include "rubble/boundaries/wall.hpp"
#include "rubble/collisions/rigid_predict.hpp"

namespace rubble::collisions {

/// A predicted contact with a wall: its time (s into the drift) and the sphere (index into the
/// span given to predict_rigid_wall_contact).
struct RigidWallContact {
    double time = 0.0;
    int part = 0;
};

/// Whether predict_rigid_wall_contact takes wall w (planes and infinite cylinders).
[[nodiscard]] bool rigid_bodies_meet(const boundaries::Wall& w);

/// The earliest contact in [now, until] (s into the drift, now >= the body's segment start)
/// between any sphere of `body` and wall w whose point is at `wall_start` (m) at drift time 0,
/// or nothing. A sphere touching or overlapping the wall at `now` touches now if it moves into
/// the wall at the body's physical spin, and is otherwise left alone (it leaves).
/// Requires rigid_bodies_meet(w).
[[nodiscard]] std::optional<RigidWallContact>
predict_rigid_wall_contact(const RigidMotion& body, std::span<const PartSphere> parts,
                           const boundaries::Wall& w, const Vec3& wall_start, double now,
                           double until);

} // namespace rubble::collisions
