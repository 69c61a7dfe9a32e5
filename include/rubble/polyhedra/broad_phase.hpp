// SPDX-License-Identifier: MIT
#pragma once
// The broad phase of the polyhedral contact stepper: which bodies may touch during a step. Each
// body is bounded by a sphere about its centre of mass whose radius (its reach) is its
// circumradius grown by what it can travel in the step and the contact envelope (issue 21,
// item 3); two bodies are candidates when their spheres meet. The spheres' centres sit in a
// uniform grid of cells as wide as the largest sphere's diameter, hashed so that open space
// costs nothing, and each body is tested against the bodies of the 27 cells around its own:
// O(N) for bodies of similar sizes. The bodies are sorted by cell, so a cell is a run of them,
// and the threads take blocks of bodies, each listing its pairs in order. A wide size distribution
// makes the cells coarse for the small bodies; the event-driven engine's hierarchical grid
// (collisions/neighbour_lists.hpp, Ogarko & Luding 2012) is the remedy when that matters.
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "rubble/core/types.hpp"

namespace rubble::polyhedra {

/// Every pair (i, j), i < j, with |pos[i] - pos[j]| <= reach[i] + reach[j], sorted by i then j
/// (so the contact order, and with it the solver's, does not depend on the grid). reach >= 0
/// and finite, positions finite.
[[nodiscard]] std::vector<std::pair<std::int32_t, std::int32_t>>
sphere_pairs(std::span<const Vec3> pos, std::span<const double> reach);

} // namespace rubble::polyhedra
