// SPDX-License-Identifier: MIT
#pragma once
// Checks that a set of bodies is a valid starting state: finite values, positive masses and
// radii, unit quaternions, unique ids, and no two spheres overlapping.
#include <string>

#include "rubble/collisions/collision_config.hpp"
#include "rubble/core/bodies.hpp"

namespace rubble::ic {

/// Throws InputError naming `origin`, the body id, the field and the value of the first
/// problem found (non-finite or non-positive values, duplicate ids, overlapping spheres).
/// Spheres overlap when their depth exceeds overlap_tolerance (R1 + R2), the run's
/// collisions.overlap_tolerance (collisions::find_overlaps, as at the start of a drift). Where
/// there are aggregates or polyhedra, their shapes are tested instead of their bounding spheres
/// (collisions::find_shape_overlaps), so a settled pile of them can start a run.
void validate_bodies(const Bodies& b, const std::string& origin,
                     double overlap_tolerance = collisions::default_overlap_tolerance);

} // namespace rubble::ic
