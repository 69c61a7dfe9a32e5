// SPDX-License-Identifier: MIT
#pragma once
// The time-ordered queue of predicted collisions, with lazy invalidation: an event remembers
// how many collisions each of its bodies had when it was predicted, and is stale (skipped when
// it comes up) if either has collided since (Lubachevsky 1991, J. Comput. Phys. 94, 255).
// Cheaper than erasing by handle: stale events are dropped at O(log n) each when popped, with
// no bookkeeping on the hot path. The drift queues only each body's earliest event.
#include <algorithm>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <vector>

#include <boost/heap/d_ary_heap.hpp>

namespace rubble::collisions {

inline constexpr std::int32_t exit_event = -1;

/// Whom body i meets in an event: another body, wall k of the drift's walls
/// (collision_config.hpp), or the edge of its own neighbourhood (an exit). The one encoding of
/// a partner in the engine: its code is CollisionEvent::j, j >= 0 for a body, exit_event (-1)
/// for the exit and -2 - k for wall k, so that LaterEvent's tie on j puts, at equal time and
/// i, walls first (highest k first), then the exit, then bodies (docs/collisions.md).
class Partner {
public:
    [[nodiscard]] static constexpr Partner body(std::int32_t j) { return Partner(j); }
    [[nodiscard]] static constexpr Partner wall(std::size_t k) {
        return Partner(-2 - static_cast<std::int32_t>(k));
    }
    [[nodiscard]] static constexpr Partner exit() { return Partner(exit_event); }
    [[nodiscard]] static constexpr Partner of(std::int32_t code) { return Partner(code); }

    [[nodiscard]] constexpr std::int32_t code() const { return code_; }
    [[nodiscard]] constexpr bool is_body() const { return code_ >= 0; }
    [[nodiscard]] constexpr bool is_wall() const { return code_ < exit_event; }
    [[nodiscard]] constexpr bool is_exit() const { return code_ == exit_event; }
    [[nodiscard]] constexpr std::size_t body_index() const {
        return static_cast<std::size_t>(code_);
    }
    [[nodiscard]] constexpr std::size_t wall_index() const {
        return static_cast<std::size_t>(-2 - code_);
    }
    /// The id the collision log and the checks give the partner: the body's id, or -1 - k for
    /// wall k (an output format, docs/output-format.md: a wall's record is (-1 - k, body id)).
    [[nodiscard]] std::int64_t log_id(const std::vector<std::int64_t>& ids) const {
        return is_wall() ? -1 - static_cast<std::int64_t>(wall_index()) : ids[body_index()];
    }
    constexpr auto operator<=>(const Partner&) const = default;

private:
    constexpr explicit Partner(std::int32_t code) : code_(code) {}
    std::int32_t code_;
};

/// A predicted collision of i and j, of body i with a wall, or body i leaving its
/// neighbourhood: j is the partner's code (Partner).
struct CollisionEvent {
    double time;       ///< s from the start of the drift
    std::int32_t i, j; ///< body indices, i < j; j = exit_event for an exit, < -1 for a wall
    std::uint32_t ci;  ///< collision count of i when predicted
    std::uint32_t cj;  ///< collision count of j when predicted (exit: i's neighbourhood
                       ///< generation; wall: 0, a wall never changes)
    std::int8_t image; ///< periodic image through which i sees j (boundaries/periodic.hpp)

    [[nodiscard]] constexpr Partner partner() const { return Partner::of(j); }
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
