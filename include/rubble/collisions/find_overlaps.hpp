// SPDX-License-Identifier: MIT
#pragma once
// The one overlap finder: which spheres overlap, for the check of initial conditions and for
// the start of every event-driven drift (overlaps.hpp says what is done about them).
//
// It walks the neighbour lists of the drift (neighbour_lists.hpp): two spheres that overlap lie
// inside neighbourhoods that meet, so every overlapping pair is a listed pair, periodic images
// included. The drift has its lists already, and the pass costs a few milliseconds at 1e6
// bodies; initial conditions build open-space lists first (about 2 s at 1e6 bodies on two
// cores, against 4 to 50 s for the hash grid it replaced; measured in the clean-up of issue 19).
#include <cstdint>
#include <vector>

#include "rubble/collisions/neighbour_lists.hpp"
#include "rubble/core/bodies.hpp"

namespace rubble::collisions {

/// An overlapping pair: j is seen from i shifted by `shift` (a periodic image; 0 when open).
struct Overlap {
    std::int32_t i, j; ///< body indices, i < j
    Vec3 shift;        ///< m
    double depth;      ///< m, R_i + R_j - |x_j + shift - x_i| > tolerance (R_i + R_j)
};

/// Every pair among the listed neighbours whose depth exceeds tolerance (R_i + R_j) (the
/// tolerance of the run: collisions.overlap_tolerance, collision_config.hpp), in
/// (i, j) order whatever the thread count. The lists must be current for b (prepare() or
/// rebuild()).
[[nodiscard]] std::vector<Overlap> find_overlaps(const Bodies& b, const NeighbourLists& lists,
                                                 double tolerance);

/// The same for bodies without lists (open space): builds them, then finds the pairs.
[[nodiscard]] std::vector<Overlap> find_overlaps(const Bodies& b, double tolerance);

/// The largest depth / (R_i + R_j) among the overlaps (0 for none).
[[nodiscard]] double largest_relative_depth(const Bodies& b, const std::vector<Overlap>& overlaps);

} // namespace rubble::collisions
