// SPDX-License-Identifier: MIT
#pragma once
// The opening test of the gravity walk, shared by the CPU tree and the CUDA tree (host and
// device code), so both accept the same nodes for the same bucket.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "rubble/core/hostdevice.hpp"

namespace rubble::tree {

/// max(a, b) as std::max on the host (vectorises, as before) and fmax on the device.
RUBBLE_HD RUBBLE_INLINE double max_of(double a, double b) {
#if defined(__CUDA_ARCH__)
    return fmax(a, b);
#else
    return std::max(a, b);
#endif
}

/// Squared distance from p to the box [lo, hi] (0 inside). Branch-free:
/// max(lo - p, 0, p - hi) per axis.
RUBBLE_HD RUBBLE_INLINE double box_distance2(const double* lo, const double* hi, const double* p) {
    const double vx = max_of(max_of(lo[0] - p[0], p[0] - hi[0]), 0.0);
    const double vy = max_of(max_of(lo[1] - p[1], p[1] - hi[1]), 0.0);
    const double vz = max_of(max_of(lo[2] - p[2], p[2] - hi[2]), 0.0);
    return vx * vx + vy * vy + vz * vz;
}

/// Squared opening radius of a node: it is used whole for a bucket beyond this distance from
/// its centre of mass, i.e. when size < theta d (Barnes & Hut 1986; the seeds' theta = size /
/// distance, Ferrari et al. 2020, eq. 3) and d > b_max (no body of the node may lie closer to
/// the target than the centre of mass is far).
RUBBLE_HD RUBBLE_INLINE double open_radius2(double size, double b_max, double inv_theta2) {
    return max_of(size * size * inv_theta2, b_max * b_max);
}

/// Whether a node (body range [node_begin, node_end), centre of mass com, squared opening
/// radius open2) is accepted whole for the bucket [bucket_begin, bucket_end) with bounding box
/// [lo, hi]. Never a node that shares bodies with the bucket: the bucket itself, a node holding
/// it, or a node inside it (a walk group spans several leaves). Such a node's centre of mass
/// lies in the bucket's box up to rounding; a one-body leaf's is m x / m, which can round a
/// few ulps outside the box and, with b_max = 0, pass the distance test: its body would then
/// attract itself from 1e-17 away (the cause of a 2e30 acceleration in a G = 1 collapse).
RUBBLE_HD RUBBLE_INLINE bool accepts_node(const double* lo, const double* hi,
                                          std::int32_t bucket_begin, std::int32_t bucket_end,
                                          std::int32_t node_begin, std::int32_t node_end,
                                          const double* com, double open2) {
    const bool shares_bodies = node_begin < bucket_end && bucket_begin < node_end;
    return !shares_bodies && box_distance2(lo, hi, com) > open2;
}

} // namespace rubble::tree
