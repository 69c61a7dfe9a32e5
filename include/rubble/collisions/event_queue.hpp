// SPDX-License-Identifier: MIT
#pragma once
// The time-ordered queue of predicted collisions, with lazy invalidation: an event remembers
// how many collisions each of its bodies had when it was predicted, and is stale (skipped when
// it comes up) if either has collided since (Lubachevsky 1991, J. Comput. Phys. 94, 255).
// Cheaper than erasing by handle: stale events are dropped at O(log n) each when popped, with
// no bookkeeping on the hot path. The drift queues only each body's earliest event.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <boost/heap/d_ary_heap.hpp>

namespace rubble::collisions {

inline constexpr std::int32_t exit_event = -1;

/// The partner code of wall k (collision_config.hpp's walls[k]): -2 - k, below exit_event.
[[nodiscard]] constexpr std::int32_t wall_event(std::size_t k) {
    return -2 - static_cast<std::int32_t>(k);
}
/// True when partner code j names a wall; wall_index(j) is then its index.
[[nodiscard]] constexpr bool is_wall(std::int32_t j) {
    return j < exit_event;
}
[[nodiscard]] constexpr std::size_t wall_index(std::int32_t j) {
    return static_cast<std::size_t>(-2 - j);
}

/// A predicted collision of i and j, of body i with a wall (j = wall_event(k)), or
/// (j = exit_event) body i leaving its neighbourhood.
struct CollisionEvent {
    double time;       ///< s from the start of the drift
    std::int32_t i, j; ///< body indices, i < j; j = exit_event for an exit, < -1 for a wall
    std::uint32_t ci;  ///< collision count of i when predicted
    std::uint32_t cj;  ///< collision count of j when predicted (exit: i's neighbourhood
                       ///< generation; wall: 0, a wall never changes)
    std::int8_t image; ///< periodic image through which i sees j (boundaries/periodic.hpp)
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
using EventHeap = boost::heap::d_ary_heap<CollisionEvent, boost::heap::arity<4>,
                                          boost::heap::compare<LaterEvent>>;

/// The drift's events in time order: the heap holds only the events of the present stretch of
/// the drift, later ones wait unsorted in one bucket per stretch and enter the heap when their
/// stretch comes (Paul 2007, J. Comput. Phys. 221, 615: a calendar of buckets in front of a
/// small sorted queue). A heap of all N events spans tens of megabytes for a million bodies,
/// and every pop would walk it through cache misses; a heap of a few hundred events stays in
/// the fastest cache. Pops come out in exactly the heap's order (LaterEvent): a stretch is
/// entered only when the heap has run empty, and the stretch of a time never decreases with it.
class EventQueue {
public:
    /// Empties the queue for a drift of h seconds, in about one stretch per `per_stretch`
    /// expected events (at least one stretch).
    void reset(double h, std::size_t expected, std::size_t per_stretch = 256) {
        heap_.clear();
        const std::size_t stretches = std::clamp<std::size_t>(expected / per_stretch, 1, 1 << 16);
        bucket_.resize(stretches);
        for (auto& b : bucket_)
            b.clear();
        scale_ = h > 0.0 ? static_cast<double>(stretches) / h : 0.0;
        current_ = 0;
        waiting_ = 0;
    }

    void push(const CollisionEvent& e) {
        const std::size_t k = stretch_of(e.time);
        if (k <= current_) {
            heap_.push(e);
        } else {
            bucket_[k].push_back(e);
            ++waiting_;
        }
    }

    /// True when no event is left. Not const: when the present stretch has run out, the next
    /// one with events enters the heap here (so top() is only valid after empty() said false).
    [[nodiscard]] bool empty() {
        settle();
        return heap_.empty();
    }
    [[nodiscard]] const CollisionEvent& top() const { return heap_.top(); }
    void pop() { heap_.pop(); }

private:
    [[nodiscard]] std::size_t stretch_of(double t) const {
        // Monotonic in t (a rounded product, then a floor), so a later time never falls in an
        // earlier stretch; times past the drift (or NaN) fall in the last.
        const double x = t * scale_;
        return x < static_cast<double>(bucket_.size()) ? static_cast<std::size_t>(std::max(x, 0.0))
                                                       : bucket_.size() - 1;
    }
    // Moves on to the next stretch that holds events once the heap has run empty.
    void settle() {
        while (heap_.empty() && waiting_ > 0) {
            auto& next = bucket_[++current_];
            for (const CollisionEvent& e : next)
                heap_.push(e);
            waiting_ -= next.size();
            next.clear();
        }
    }

    EventHeap heap_;
    std::vector<std::vector<CollisionEvent>> bucket_;
    double scale_ = 0.0;      // stretches per second of drift
    std::size_t current_ = 0; // the stretch the heap holds
    std::size_t waiting_ = 0; // events in later buckets
};

} // namespace rubble::collisions
