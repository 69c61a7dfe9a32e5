// SPDX-License-Identifier: MIT
#pragma once
// Spheres of different rigid bodies (aggregates, or an aggregate and a free sphere), or a
// sphere of a rigid body and a wall, found overlapping at the start of a drift, and what is
// done about them: the strategies of free spheres (overlaps.hpp, wall_overlaps.hpp) with both
// inertia tensors. The drift finds them (event_drift_overlaps.cpp); the default for aggregates,
// OverlapStrategy::automatic, is repulse (collision_config.hpp says why).
#include <cstdint>
#include <vector>

#include "rubble/boundaries/wall.hpp"
#include "rubble/collisions/collision_config.hpp"
#include "rubble/collisions/event_queue.hpp"
#include "rubble/collisions/wall_resolve.hpp"
#include "rubble/core/bodies.hpp"

namespace rubble::collisions {

struct RigidOverlap {
    std::int32_t i = 0;              ///< body row
    Partner other = Partner::exit(); ///< the other body (its row) or the wall
    std::size_t sphere_i = 0;        ///< row of i's sphere in b.spheres
    std::size_t sphere_j = 0;        ///< row of the other's sphere (a body)
    Vec3 shift = Vec3::Zero();       ///< m, periodic image of the other body
    double depth = 0.0;              ///< m, R_a + R_b - |d| (wall: -gap), > 0
    double relative = 0.0;           ///< depth / (R_a + R_b) (wall: / R_a)
};

/// Applies strategy effective_overlaps(c.overlaps, true), one overlap after another, from the
/// bodies' state now (the start of a drift of dt seconds at absolute time `time`):
/// - abort: PhysicsError naming the bodies (or the wall), the depth and the time;
/// - repulse: an impulse J n at the middle of the overlap, equal and opposite on the two bodies
///   (a wall takes none), that sets the normal velocity of the two material points there to at
///   least depth / dt apart: J = (depth / dt - u_n) / (n.K n) with the collision matrix K of
///   rigid_impulse.hpp, so momentum and angular momentum are kept to round-off and the overlap
///   is undone within about one step;
/// - push_apart: the two centres of mass moved apart along n by the depth in inverse proportion
///   to their masses (the centre of mass kept; a wall does not move), orientations and
///   velocities untouched;
/// - trace_back: the two bodies carried back along their motion by the time the material
///   points at the overlap took to close it, t = depth / -u_n, turned back about their spins
///   (first order in t), the contact resolved there with the drift's impulse (rigid_impulse),
///   and carried forward again with the new velocities and spins; a pair not closing in is
///   pushed apart instead;
/// - merge: the two bodies stick into one aggregate (stick_bodies of rigid_merge.hpp: mass,
///   momentum and angular momentum kept), flagging the absorbed one in `removed` (the caller
///   removes it); a wall cannot merge: pushed apart.
/// Impulses given by walls are added to `impulses`.
void handle_rigid_overlaps(Bodies& b, const std::vector<RigidOverlap>& overlaps,
                           const std::vector<boundaries::Wall>& walls,
                           const std::vector<Vec3>& wall_at, const CollisionConfig& c, double dt,
                           double time, std::vector<std::uint8_t>& removed,
                           std::vector<collisions::WallImpulse>& impulses);

} // namespace rubble::collisions
