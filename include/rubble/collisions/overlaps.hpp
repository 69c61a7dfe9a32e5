// SPDX-License-Identifier: MIT
#pragma once
// What is done about pairs found overlapping at the start of a drift (find_overlaps.hpp;
// Richardson, "N rigid-body dynamics", PiTP lectures: "Round-off error and overlaps"). An
// exact event-driven drift never creates overlaps; they come from initial conditions, from
// merged spheres growing into neighbours, or from round-off beyond
// collisions.overlap_tolerance.
#include <cstdint>
#include <vector>

#include "rubble/collisions/collision_config.hpp"
#include "rubble/collisions/find_overlaps.hpp"
#include "rubble/core/bodies.hpp"

namespace rubble::collisions {

/// Applies the configured strategy to each overlap, in order. `dt` is the step (the repulsive
/// impulse undoes the overlap in one step), `time` the absolute time for messages. Bodies
/// merged away are flagged in `removed` (sized b.size(), 0 = keep). Throws PhysicsError for
/// OverlapStrategy::abort, naming the pairs, their depths and the time.
void handle_overlaps(Bodies& b, const std::vector<Overlap>& overlaps, const CollisionConfig& c,
                     double dt, double time, std::vector<std::uint8_t>& removed);

} // namespace rubble::collisions
