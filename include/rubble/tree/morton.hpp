// SPDX-License-Identifier: MIT
#pragma once
// 63-bit Morton (Z-order) keys: 21 bits per axis interleaved, so sorting by key lays the
// bodies out along a space-filling curve and every octree cell is a contiguous range.
#include <cstdint>

#include "rubble/core/hostdevice.hpp"

namespace rubble::tree {

inline constexpr int morton_levels = 21;

/// Spreads the low 21 bits of v so that bit i moves to bit 3i.
RUBBLE_HD constexpr std::uint64_t spread_bits(std::uint64_t v) {
    v &= 0x1fffff;
    v = (v | v << 32) & 0x1f00000000ffffULL;
    v = (v | v << 16) & 0x1f0000ff0000ffULL;
    v = (v | v << 8) & 0x100f00f00f00f00fULL;
    v = (v | v << 4) & 0x10c30c30c30c30c3ULL;
    v = (v | v << 2) & 0x1249249249249249ULL;
    return v;
}

/// Key of integer cell coordinates (each < 2^21): x in the highest bit of every triple.
RUBBLE_HD constexpr std::uint64_t morton_key(std::uint32_t ix, std::uint32_t iy, std::uint32_t iz) {
    return spread_bits(ix) << 2 | spread_bits(iy) << 1 | spread_bits(iz);
}

/// Octant (0..7) of a key at tree level `level` (0 = the root's children).
RUBBLE_HD constexpr int octant(std::uint64_t key, int level) {
    return static_cast<int>((key >> (3 * (morton_levels - 1 - level))) & 7u);
}

/// Splits the sorted key range [begin, end) by octant, descending from `level` until the
/// range falls into at least two octants (a chain of single-child cells is skipped, so every
/// internal node has two children or more). On return bounds[o]..bounds[o + 1] is octant o's
/// range, `level` the level at which the split happened; returns the number of non-empty
/// octants (1 when all keys are equal down to the deepest level: an over-full leaf). Binary
/// searches, host and device code: the CPU tree and the CUDA tree build split alike.
RUBBLE_HD inline int split_octants(const std::uint64_t* keys, std::int32_t begin, std::int32_t end,
                                   int& level, std::int32_t bounds[9]) {
    int nonempty = 0;
    for (; level < morton_levels; ++level) {
        bounds[0] = begin;
        for (int o = 0; o < 8; ++o) {
            // First position in [bounds[o], end) whose octant exceeds o.
            std::int32_t lo = bounds[o], hi = end;
            while (lo < hi) {
                const std::int32_t mid = lo + (hi - lo) / 2;
                if (octant(keys[mid], level) <= o)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            bounds[o + 1] = lo;
        }
        nonempty = 0;
        for (int o = 0; o < 8; ++o)
            nonempty += bounds[o + 1] > bounds[o];
        if (nonempty > 1) return nonempty;
    }
    return nonempty;
}

} // namespace rubble::tree
