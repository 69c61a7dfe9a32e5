// SPDX-License-Identifier: MIT
#pragma once
// Bodies moving between ranks (issue 34, item 2; docs/plans/mpi-distributed-runs.md,
// section 1): each body with its spheres or hull and every field of the field lists
// (core/fields.hpp), so that a field added to the lists travels with no other change, and its
// place in the serial row order, by which every rank keeps its rows sorted.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "rubble/core/bodies.hpp"
#include "rubble/core/communicator.hpp"

namespace rubble::domain {

/// The bytes of `b`'s rows (bodies, spheres, hulls: every column of their field lists, in
/// list order) and of `order` (one value per body). The hull catalogue is not in them: every
/// rank has the run's (shapes never change during a run).
[[nodiscard]] std::vector<std::byte> pack_bodies(const Bodies& b,
                                                 std::span<const std::int64_t> order);

/// Appends the rows that pack_bodies wrote to `b` (which names the catalogue their hulls index)
/// and their order values to `order`. Throws std::length_error for bytes that end early or
/// run on (a message that is not a packing of bodies).
void unpack_bodies(std::span<const std::byte> bytes, Bodies& b, std::vector<std::int64_t>& order);

/// Sends every body to the rank destination[k] (this one included) with its spheres, hull and
/// order value (and, given `weight`, its weight: the decomposition's per-body cost); afterwards
/// this rank holds what was sent to it, its rows sorted by order. The ids stay. Collective:
/// every rank passes a weight or none. Throws std::invalid_argument on every rank when any
/// rank's destinations, order values or weights are not one per body or name no rank.
void migrate(Bodies& b, std::vector<std::int64_t>& order, std::span<const int> destination,
             core::Communicator& world, std::vector<std::int64_t>* weight = nullptr);

} // namespace rubble::domain
