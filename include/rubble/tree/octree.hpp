// SPDX-License-Identifier: MIT
#pragma once
// The spatial tree of gravity, with neighbour queries for analysis and tests (the collision
// engine keeps its own neighbour lists, docs/collisions.md; docs/tree.md).
//
// Design: an octree over bodies sorted by Morton key, so every node is a contiguous range of
// the sorted arrays and a leaf is a "bucket" of at most bucket_size bodies (more only when
// bodies share a key at the deepest level). Built each step in O(N log N): the sort, then a
// serial split of key ranges, then node summaries in parallel. Nodes carry the gravity data
// (mass, centre of mass, multipoles, size, b_max) and the bounds for neighbour queries
// (bounding box of centres, largest radius and speed). Queries answer with original body
// indices, never sorted positions, and in a deterministic order.
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "rubble/core/types.hpp"
#include "rubble/tree/morton.hpp"
#include "rubble/tree/multipole.hpp"

namespace rubble::tree {

struct Node {
    std::int32_t begin = 0, end = 0; ///< range in the sorted arrays
    std::int32_t first_child = -1;   ///< index of the first child; children are contiguous
    std::int32_t child_count = 0;    ///< 0 for a leaf
    double lo[3] = {}, hi[3] = {};   ///< m, bounding box of the body centres
    double size = 0.0;               ///< m, largest side of the bounding box
    double b_max = 0.0;              ///< m, largest distance from the centre of mass to a body
    double r_max = 0.0;              ///< m, largest body radius
    double v_max = 0.0;              ///< m/s, largest body speed
    [[nodiscard]] bool leaf() const { return child_count == 0; }
    [[nodiscard]] std::int32_t count() const { return end - begin; }
};

struct TreeInputs {
    std::span<const Vec3> pos;      ///< m (required)
    std::span<const double> mass;   ///< kg (empty: no multipoles)
    std::span<const double> radius; ///< m (empty: radii 0)
    std::span<const Vec3> vel;      ///< m/s (empty: at rest)
};

class Octree {
public:
    /// Rebuilds the tree. bucket_size >= 1; with masses, computes multipoles about each node's
    /// centre of mass through `order` (2..4; higher-order weights are left 0).
    void build(const TreeInputs& in, int bucket_size, int order = max_multipole_order);

    [[nodiscard]] const std::vector<Node>& nodes() const { return nodes_; }
    [[nodiscard]] const std::vector<Multipole>& multipoles() const { return multipoles_; }
    [[nodiscard]] const std::vector<std::int32_t>& leaves() const { return leaves_; }
    /// order()[k] is the original index of the body at sorted position k.
    [[nodiscard]] const std::vector<std::int32_t>& order() const { return order_; }
    /// Sorted copies (structure of arrays) for the walks.
    [[nodiscard]] const std::vector<double>& x() const { return x_; }
    [[nodiscard]] const std::vector<double>& y() const { return y_; }
    [[nodiscard]] const std::vector<double>& z() const { return z_; }
    [[nodiscard]] const std::vector<double>& mass() const { return m_; }
    [[nodiscard]] std::size_t size() const { return order_.size(); }

    /// Walk groups, in key order: the largest nodes holding at most max_bodies bodies, or
    /// leaves (over-full ones included). Together they hold every body once.
    void groups(int max_bodies, std::vector<std::int32_t>& out) const;

    /// Original indices of the bodies whose centres are within `r` of `c`, ascending.
    [[nodiscard]] std::vector<std::int32_t> bodies_within(const Vec3& c, double r) const;
    /// Pairs (i < j, original indices) of spheres that overlap: |x_i - x_j| < R_i + R_j.
    /// Sorted ascending.
    [[nodiscard]] std::vector<std::pair<std::int32_t, std::int32_t>> overlapping_pairs() const;
    /// Pairs (i < j) whose spheres swept over [0, h] along their velocities (capsules from x to
    /// x + v h, radius R) intersect: a superset of the pairs that can touch during a drift of
    /// length h. Sorted ascending.
    [[nodiscard]] std::vector<std::pair<std::int32_t, std::int32_t>> swept_pairs(double h) const;
    /// Original indices j != i whose swept spheres can meet body i's over [0, h], ascending.
    [[nodiscard]] std::vector<std::int32_t> swept_neighbours(std::int32_t i, double h) const;

private:
    void split(std::int32_t node, int level, int bucket_size);
    void summarise(std::int32_t node);
    template <class Accept, class Visit> void traverse(Accept&& accept, Visit&& visit) const;
    template <class Pred>
    std::vector<std::pair<std::int32_t, std::int32_t>> all_pairs(double reach, Pred&& pred) const;

    std::vector<Node> nodes_;
    std::vector<Multipole> multipoles_;
    std::vector<std::int32_t> leaves_;
    std::vector<std::int32_t> order_;
    std::vector<std::uint64_t> keys_;
    std::vector<double> x_, y_, z_, m_, r_, vx_, vy_, vz_;
    bool with_mass_ = false;
    int multipole_order_ = max_multipole_order;
};

/// Squared distance between segments p0 + s u and q0 + t w, s, t in [0, 1] (Ericson 2005,
/// Real-Time Collision Detection, sec. 5.1.9).
[[nodiscard]] double segment_distance2(const Vec3& p0, const Vec3& u, const Vec3& q0,
                                       const Vec3& w);

} // namespace rubble::tree
