// SPDX-License-Identifier: MIT
#pragma once
// The Barnes-Hut tree of the gravity backends (docs/tree.md).
//
// Design: an octree over bodies sorted by Morton key, so every node is a contiguous range of
// the sorted arrays and a leaf is a "bucket" of at most bucket_size bodies (more only when
// bodies share a key at the deepest level). Built each step in O(N log N): the sort, then a
// serial split of key ranges, then node summaries in parallel. Nodes carry what the walk
// needs: bounding box of centres, size, b_max, mass, centre of mass and multipoles. (Collisions
// find their pairs with neighbour lists instead, collisions/neighbour_lists.hpp.)
#include <cstdint>
#include <span>
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
    [[nodiscard]] bool leaf() const { return child_count == 0; }
    [[nodiscard]] std::int32_t count() const { return end - begin; }
};

struct TreeInputs {
    std::span<const Vec3> pos;    ///< m (required)
    std::span<const double> mass; ///< kg (empty: no multipoles)
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

private:
    void split(std::int32_t node, int level, int bucket_size);
    void summarise(std::int32_t node);

    std::vector<Node> nodes_;
    std::vector<Multipole> multipoles_;
    std::vector<std::int32_t> leaves_;
    std::vector<std::int32_t> order_;
    std::vector<std::uint64_t> keys_;
    std::vector<double> x_, y_, z_, m_;
    bool with_mass_ = false;
    int multipole_order_ = max_multipole_order;
};

} // namespace rubble::tree
