// SPDX-License-Identifier: MIT
#pragma once
// Checks that a set of bodies is a valid starting state: finite values, positive masses and
// radii, unit quaternions, unique ids, and no two spheres overlapping.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "rubble/core/bodies.hpp"

namespace rubble::ic {

struct Overlap {
    std::int64_t id_a = 0, id_b = 0;
    double distance = 0.0;  ///< m, between centres
    double sum_radii = 0.0; ///< m
    [[nodiscard]] double depth() const { return sum_radii - distance; }
};

struct OverlapReport {
    std::size_t count = 0;        ///< overlapping pairs in all
    std::vector<Overlap> deepest; ///< up to max_report of them, deepest first
};

/// Relative tolerance below which touching spheres do not count as overlapping: a lattice of
/// touching spheres has distance == sum of radii up to a few ulps of the coordinates.
inline constexpr double overlap_tolerance = 1e-9;

/// Every pair with |x_a - x_b| < (s_a + s_b)(1 - overlap_tolerance). Hash grid, O(N) for
/// similar sizes.
[[nodiscard]] OverlapReport find_overlaps(const Bodies& b, std::size_t max_report = 5);

/// Throws InputError naming `origin`, the body id, the field and the value of the first
/// problem found (non-finite or non-positive values, duplicate ids, overlapping spheres).
void validate_bodies(const Bodies& b, const std::string& origin);

} // namespace rubble::ic
