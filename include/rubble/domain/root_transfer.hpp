// SPDX-License-Identifier: MIT
#pragma once
// A run's bodies between rank 0 and the domains (issue 34, items 2 and 5; docs/plans/
// mpi-distributed-runs.md, sections 1 and 4). Rank 0 alone reads parameters, initial
// conditions and run files and alone writes the run file, so a distributed run starts with
// every body on rank 0 and deals them out, and gathers a copy back to rank 0, in the serial
// row order, for each diagnostics row and snapshot. The serial order is each body's row in the
// serial run (its row in the initial conditions or in the snapshot resumed from): rows on every
// rank stay sorted by it, and what rank 0 gathers has the serial run's rows.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "rubble/core/bodies.hpp"
#include "rubble/core/communicator.hpp"

namespace rubble::domain {

/// Deals rank 0's bodies (every body of the run, rows in serial order; the other ranks hold
/// none) out to the domains of a decomposition into equal shares of `weight` (one per body,
/// travelling with its body; without, equal numbers of bodies), after giving every rank rank
/// 0's catalogue of hull shapes (shapes never change during a run; each is rebuilt from its
/// vertices and triangles, bit for bit the one sent, as a run file reads it back). Returns
/// each of this rank's rows' place in the serial order. Collective: every rank passes a
/// weight or none.
[[nodiscard]] std::vector<std::int64_t>
scatter_from_root(Bodies& b, core::Communicator& world,
                  std::vector<std::int64_t>* weight = nullptr);

/// Decomposes the bodies of all ranks afresh into equal shares of `weight` (without, equal
/// numbers) along the Morton curve of where they are now and moves each, with its place in
/// the serial order and its weight, to its domain's rank (rows stay in serial order).
/// Collective: every rank passes a weight or none.
void redistribute(Bodies& b, std::vector<std::int64_t>& order, core::Communicator& world,
                  std::vector<std::int64_t>* weight = nullptr);

/// A copy of every rank's bodies on rank 0, rows in serial order; empty on the other ranks.
/// Given `weight` (one per body of this rank), it ends holding the weights of the gathered rows
/// (rank 0) or none. Collective: every rank passes a weight or none.
[[nodiscard]] Bodies gather_to_root(const Bodies& b, std::span<const std::int64_t> order,
                                    core::Communicator& world,
                                    std::vector<std::int64_t>* weight = nullptr);

/// Every rank's per-body values (`width` doubles per body, rows as b's) on rank 0 in serial
/// order; empty on the other ranks. Collective. Throws std::invalid_argument on every rank when
/// any rank's values are not `width` per order value.
[[nodiscard]] std::vector<double> gather_values_to_root(std::span<const double> values,
                                                        std::size_t width,
                                                        std::span<const std::int64_t> order,
                                                        core::Communicator& world);

} // namespace rubble::domain
