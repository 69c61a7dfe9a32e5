// SPDX-License-Identifier: MIT
#pragma once
// Overlaps of the bodies' own shapes, for the check of initial conditions that hold aggregates
// or polyhedra. find_overlaps takes each body as its bounding sphere, which is a free sphere's
// shape and nothing else's: the bounding spheres of a settled pile of aggregates or polyhedra
// lie deep in each other (half of two grains' circumradii in a pile of hulls) while their
// shapes touch, so a pile written by one run could not start another (ic.type = "file" or
// "table"). Here two bodies overlap when their shapes do:
//   - two spheres of two bodies (free spheres, or the spheres of aggregates at their world
//     centres) by r_a + r_b - |c_a - c_b|, against tolerance (r_a + r_b);
//   - two hulls by their penetration depth (EPA, polyhedra/epa.hpp), against tolerance times
//     the sum of their bounding radii;
//   - a sphere and a hull by r less the hull's distance from the sphere's centre (plus the
//     centre's depth inside the hull), against tolerance (r + the hull's bounding radius).
// Candidates are the pairs of shapes whose bounding spheres meet (polyhedra::sphere_pairs), so
// the cost is O(N) for shapes of similar sizes, plus one GJK per candidate pair of hulls.
#include <cstdint>
#include <vector>

#include "rubble/core/bodies.hpp"

namespace rubble::collisions {

/// Two bodies whose shapes overlap, at their deepest pair of shapes.
struct ShapeOverlap {
    std::int32_t i, j; ///< body rows, i < j
    double depth;      ///< m, > tolerance * scale
    double scale;      ///< m, the sum of the two shapes' radii (a hull's: its bounding radius)
};

/// Every pair of bodies with a pair of shapes deeper than tolerance * scale, in (i, j) order,
/// each pair once with its deepest pair of shapes. Spheres of one body never overlap each
/// other here (they are one rigid body).
[[nodiscard]] std::vector<ShapeOverlap> find_shape_overlaps(const Bodies& b, double tolerance);

} // namespace rubble::collisions
