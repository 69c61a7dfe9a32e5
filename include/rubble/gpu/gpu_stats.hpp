// SPDX-License-Identifier: MIT
#pragma once
// What a GPU force evaluation reports about itself: stage times and tree counts. Plain structs,
// shared by the CUDA engines (nvcc) and the host-side solvers, tests and benchmarks.
#include <cstddef>

namespace rubble::gpu {

/// Seconds spent by the last evaluation, measured with CUDA events.
struct StageTimes {
    double upload = 0, build = 0, walk = 0, download = 0;
    double host_copy = 0; ///< s, the caller's arrays to and from page-locked staging (steady clock)
    [[nodiscard]] double total() const { return host_copy + upload + build + walk + download; }
    [[nodiscard]] double device() const { return build + walk; }
};

/// Counts of the last tree evaluation: nodes, leaf buckets, levels, and interactions summed
/// over the target bodies (body-body and body-node).
struct TreeCounts {
    std::size_t nodes = 0, leaves = 0, depth = 0;
    double body_interactions = 0, node_interactions = 0;
    double walk_batches = 0; ///< traversal steps of up to 32 nodes, summed over the buckets
};

} // namespace rubble::gpu
