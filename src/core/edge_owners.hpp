// SPDX-License-Identifier: MIT
#pragma once
// Edge look-ups of closed triangulated surfaces for make_polyhedron and the convex hull: which
// triangle owns each directed edge, and boundary loops chained vertex to vertex. Sorted arrays
// searched by bisection rather than ordered maps, whose tree nodes spent most of a small
// hull's time in memory allocation. Iteration is in (from, to) order, as the maps' was, so
// that every caller visits edges in the same order and builds the same bits.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace rubble::shapes::detail {

class EdgeOwners {
public:
    struct Entry {
        std::uint64_t key; // from in the high half, to in the low half: (from, to) order
        int owner;
        [[nodiscard]] int from() const { return static_cast<int>(key >> 32U); }
        [[nodiscard]] int to() const { return static_cast<int>(key & 0xffffffffU); }
    };

    /// Starts again, keeping the storage.
    void clear() { entries_.clear(); }
    /// Edge (from, to) belongs to `owner`; vertex indices are non-negative.
    void add(int from, int to, int owner) { entries_.push_back({key(from, to), owner}); }
    /// Call once after the adds and before the look-ups.
    void sort() {
        std::sort(entries_.begin(), entries_.end(),
                  [](const Entry& a, const Entry& b) { return a.key < b.key; });
    }
    /// The owner of (from, to), or -1 when the surface has no such edge.
    [[nodiscard]] int at(int from, int to) const {
        const std::uint64_t k = key(from, to);
        const auto it = std::lower_bound(entries_.begin(), entries_.end(), k,
                                         [](const Entry& e, std::uint64_t v) { return e.key < v; });
        return it != entries_.end() && it->key == k ? it->owner : -1;
    }
    /// Whether a directed edge was added twice (a surface that is not a closed 2-manifold).
    [[nodiscard]] bool has_repeat() const {
        return std::adjacent_find(entries_.begin(), entries_.end(),
                                  [](const Entry& a, const Entry& b) { return a.key == b.key; }) !=
               entries_.end();
    }
    [[nodiscard]] auto begin() const { return entries_.begin(); }
    [[nodiscard]] auto end() const { return entries_.end(); }

private:
    static std::uint64_t key(int from, int to) {
        return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(from)) << 32U) |
               static_cast<std::uint32_t>(to);
    }
    std::vector<Entry> entries_;
};

/// A vertex chain given as links (start, end, tag), each start at most once: the link from each
/// start by bisection. For a face's or a horizon's boundary loop; the tag carries what the
/// caller needs of each link (the hull: the face across it).
class VertexChain {
public:
    struct Link {
        int from, to, tag;
    };
    void clear() { links_.clear(); }
    void add(int from, int to, int tag = -1) { links_.push_back({from, to, tag}); }
    /// Sorts the links; false when a start vertex occurs twice (the chain is pinched).
    [[nodiscard]] bool sort() {
        std::sort(links_.begin(), links_.end(),
                  [](const Link& a, const Link& b) { return a.from < b.from; });
        return std::adjacent_find(links_.begin(), links_.end(), [](const Link& a, const Link& b) {
                   return a.from == b.from;
               }) == links_.end();
    }
    [[nodiscard]] bool empty() const { return links_.empty(); }
    [[nodiscard]] std::size_t size() const { return links_.size(); }
    /// The smallest start vertex.
    [[nodiscard]] int first() const { return links_.front().from; }
    /// The link from `from`, or nullptr when none starts there.
    [[nodiscard]] const Link* next(int from) const {
        const auto it = std::lower_bound(links_.begin(), links_.end(), from,
                                         [](const Link& l, int v) { return l.from < v; });
        return it != links_.end() && it->from == from ? &*it : nullptr;
    }

private:
    std::vector<Link> links_;
};

} // namespace rubble::shapes::detail
