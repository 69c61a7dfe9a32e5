// SPDX-License-Identifier: MIT
#pragma once
// Spheres found overlapping a wall at the start of a drift, and what is done about them: the
// strategies of pairs (overlaps.hpp) with the wall as a body of infinite mass that does not
// move aside. An exact drift creates none; they come from initial conditions (refused at
// start-up, config/wall_config), merged spheres growing into a wall, or round-off.
#include <cstdint>
#include <vector>

#include "rubble/boundaries/wall.hpp"
#include "rubble/collisions/collision_config.hpp"
#include "rubble/collisions/wall_resolve.hpp"
#include "rubble/core/bodies.hpp"

namespace rubble::collisions {

struct WallOverlap {
    std::int32_t i;   ///< body index
    std::size_t wall; ///< index in the walls
    double depth;     ///< m, > 0
};

/// Bodies overlapping a wall deeper than tolerance x their radius, in body then wall order;
/// `wall_at` holds each wall's point now (m). Raises max_relative to the largest depth / R.
[[nodiscard]] std::vector<WallOverlap>
find_wall_overlaps(const Bodies& b, const std::vector<boundaries::Wall>& walls,
                   const std::vector<Vec3>& wall_at, double tolerance, double& max_relative);

/// Applies the configured strategy to each: abort (PhysicsError naming the body, the wall and
/// the depth), trace_back (back along the velocity relative to the wall to touching, the
/// contact resolved there, forward again; a sphere not moving into the wall is pushed out
/// instead), push_apart (out along the wall's normal by the depth; also for merge, as a sphere
/// cannot merge with a wall), repulse (the normal velocity relative to the wall set to at least
/// depth / dt outwards). Impulses given are added to `impulses` (one per wall).
void handle_wall_overlaps(Bodies& b, const std::vector<WallOverlap>& overlaps,
                          const std::vector<boundaries::Wall>& walls,
                          const std::vector<Vec3>& wall_at, const CollisionConfig& c, double dt,
                          double time, std::vector<collisions::WallImpulse>& impulses);

} // namespace rubble::collisions
