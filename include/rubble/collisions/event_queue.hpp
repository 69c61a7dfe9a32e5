// SPDX-License-Identifier: MIT
#pragma once
// The time-ordered queue of predicted collisions, with lazy invalidation: an event remembers
// how many collisions each of its bodies had when it was predicted, and is stale (skipped when
// it comes up) if either has collided since (Lubachevsky 1991, J. Comput. Phys. 94, 255).
// Cheaper than erasing by handle: stale events are dropped at O(log n) each when popped, with
// no bookkeeping on the hot path. The drift queues only each body's earliest event.
#include <cstdint>
#include <tuple>

#include <boost/heap/d_ary_heap.hpp>

namespace rubble::collisions {

inline constexpr std::int32_t exit_event = -1;

/// A predicted collision of i and j, or (j = exit_event) body i leaving its neighbourhood.
struct CollisionEvent {
    double time;       ///< s from the start of the drift
    std::int32_t i, j; ///< body indices, i < j; j = exit_event for an exit
    std::uint32_t ci;  ///< collision count of i when predicted
    std::uint32_t cj;  ///< collision count of j when predicted (exit: i's neighbourhood generation)
    std::int8_t image; ///< periodic image through which i sees j (periodic.hpp)
};

/// Strict total order: by time, then by pair and image, so equal times resolve in the same
/// order on every machine and thread count.
struct LaterEvent {
    bool operator()(const CollisionEvent& a, const CollisionEvent& b) const {
        return std::tie(a.time, a.i, a.j, a.image) > std::tie(b.time, b.i, b.j, b.image);
    }
};

/// 4-ary implicit heap: shallower than binary and cache-friendly for the push-heavy pattern
/// of re-prediction (Boost.Heap; LaMarca & Ladner 1996).
using EventQueue = boost::heap::d_ary_heap<CollisionEvent, boost::heap::arity<4>,
                                           boost::heap::compare<LaterEvent>>;

} // namespace rubble::collisions
