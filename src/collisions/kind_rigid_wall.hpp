// SPDX-License-Identifier: MIT
#pragma once
// Pair kind: a rigid aggregate and a wall (pair_kinds.hpp): planes, boxes and infinite
// cylinders (boundaries::rigid_bodies_meet). The contact is the root search of
// rigid_wall_predict.hpp along the body's rotor path, resolved by the off-centre impulse at
// the touching sphere with the wall as a body of infinite mass. Internal to src/collisions.
#include <cstdint>

#include "rubble/collisions/drift_state.hpp"

namespace rubble::collisions::detail {

struct RigidWall {
    /// As SphereWall::offer_walls: every wall by ascending index, from the body's own time
    /// (where its path starts); each search ends at the later of u's two kept events.
    static void offer_walls(const DriftState& s, Upcoming& u, std::int32_t i, double h);
    /// Resolves body e.i's contact with wall e.partner(), the body advanced to e.time.
    static void collide(DriftState& s, Bodies& b, const CollisionEvent& e, double t0,
                        DriftStats& stats);
};

} // namespace rubble::collisions::detail
