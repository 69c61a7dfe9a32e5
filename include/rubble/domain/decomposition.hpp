// SPDX-License-Identifier: MIT
#pragma once
// Domain decomposition by work (issue 34, item 2; docs/plans/mpi-distributed-runs.md,
// section 1). The bodies of all ranks are laid out along the Morton curve (tree/morton.hpp) of
// the cube that holds them all, and the curve is cut into one piece per rank, each holding an
// equal share of the bodies' weight (their measured cost: run/run_ranks.hpp weighs each body
// by its tree interactions). A piece is a contiguous key range, so it is a union of octree
// cells, as in Warren and Salmon's hashed oct-tree (1993), SWIFT and Gadget-4.
//
// The cuts are found by descending the 63 key bits: at each bit every cut tries the key with
// that bit set and keeps it while the bodies before it weigh less than the cut's share, one
// allreduce of integer weights per bit. Integer sums are exact, so the cuts, and hence which
// rank owns which body, are the same whatever the order in which MPI adds, and each rank's
// share differs from the ideal by less than the weight of the bodies of one key.
#include <cstdint>
#include <span>
#include <vector>

#include "rubble/core/communicator.hpp"
#include "rubble/core/types.hpp"

namespace rubble::domain {

struct Decomposition {
    Vec3 origin = Vec3::Zero(); ///< m, the lowest corner of the cube of keys
    double side = 1.0;          ///< m, its edge
    /// Rank r owns the keys first_key[r] <= key < first_key[r + 1]; P + 1 entries, from 0 to
    /// 2^63. Equal neighbours mean an empty rank (fewer bodies than ranks).
    std::vector<std::uint64_t> first_key;
    /// The weight each rank owns (rank order), and their total.
    std::vector<std::int64_t> weight;
    std::int64_t total_weight = 0;

    /// The Morton key of a position (clamped to the cube).
    [[nodiscard]] std::uint64_t key_of(const Vec3& p) const;
    /// The rank that owns a key, or a position.
    [[nodiscard]] int owner_of_key(std::uint64_t key) const;
    [[nodiscard]] int owner(const Vec3& p) const { return owner_of_key(key_of(p)); }
};

/// Decomposes the bodies of all ranks (this rank's positions and weights; weights >= 0, all
/// zero counting every body as 1) into world.size() domains of equal weight. Collective.
/// Throws InputError for a non-finite position or a negative weight, std::invalid_argument for
/// weights that are not one per body: on every rank alike, whichever rank holds the body.
[[nodiscard]] Decomposition decompose(std::span<const Vec3> pos,
                                      std::span<const std::int64_t> weight,
                                      core::Communicator& world);

} // namespace rubble::domain
