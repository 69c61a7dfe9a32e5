// SPDX-License-Identifier: MIT
#pragma once
// A uniform external gravity field g (m/s^2), beside or instead of self-gravity: a floor and a
// box under g are the granular experiments of the lectures. The leapfrog's kicks carry it like
// any force; within a drift bodies still move on straight lines, so wall and pair contacts stay
// exactly predicted.
#include <span>

#include "rubble/core/types.hpp"

namespace rubble::boundaries {

/// Adds g (m/s^2) to every acceleration and the field's potential -g.x (J/kg) to `potential`,
/// the per-body specific potential that the diagnostics weigh by m/2 (a pair potential counted
/// from both bodies): an external field's energy m (-g.x) belongs to one body only, so it
/// enters as twice its potential, and the diagnostics' total energy includes it exactly.
void add_uniform_field(const Vec3& g, std::span<const Vec3> pos, std::span<Vec3> acc,
                       std::span<double> potential);

} // namespace rubble::boundaries
