// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <vector>

#include "rubble/gravity/gravity_solver.hpp"
#include "rubble/tree/octree.hpp"

namespace rubble::gravity {

/// What the walk reads of a tree node, packed (56 bytes) so a traversal touches little memory:
/// the centre of mass and the squared opening radius open2 = max(size^2 / theta^2, b_max^2).
struct WalkNode {
    double com[3];
    double open2; ///< m^2: the node is used whole beyond this squared distance
    std::int32_t begin, end, first_child, child_count;
};

/// Part of another rank's tree: its locally essential tree for this rank's domain (Salmon
/// 1991; gravity/distributed_tree.hpp). Nodes in the walk's layout, children contiguous, root
/// first; every node with its multipole (a node the sender opened may still be accepted whole
/// for a group far from the domain's edge); a leaf's begin..end are its bodies' rows in x, y,
/// z, m (none for a node the sender accepted for the whole domain, which every group of the
/// domain accepts too: a group's box lies in the domain's).
struct ImportedTree {
    std::vector<WalkNode> nodes;
    std::vector<tree::Multipole> multipoles;
    std::vector<double> x, y, z, m;
};

/// Barnes-Hut tree gravity (Barnes & Hut 1986) with multipoles through order 4, walked per
/// group of bodies with interaction lists (Stadel 2001, pkdgrav; groups as in Bedorf et al.
/// 2012, Bonsai). A group is the largest node of at most group_size bodies, or a leaf; a node
/// is accepted for a group when size < theta d and d > b_max, with d the distance from the
/// node's centre of mass to the group's bounding box: the seeds' criterion theta = size /
/// distance (Ferrari et al. 2020, eq. 3) applied to the nearest body of the group, plus the
/// b_max guard against nodes whose mass lies close to the target. Groups are independent, so
/// the forces do not depend on the thread count.
class TreeGravity final : public GravitySolver {
public:
    /// group_size <= bucket_size walks once per leaf (the GPU tree's walk, same acceptances).
    TreeGravity(double G, double softening, double theta, int order, int bucket_size,
                int group_size);
    void compute(std::span<const Vec3> pos, std::span<const double> mass, std::span<Vec3> acc,
                 std::span<double> potential) override;
    /// compute() in two halves, for the tree over ranks: build() the tree of these points, then
    /// walk() it and the imported trees of other ranks' points (sources only) for the field at
    /// these points. compute(pos, ...) is build(pos, mass) then walk({}, acc, potential).
    void build(std::span<const Vec3> pos, std::span<const double> mass);
    void walk(std::span<const ImportedTree> imports, std::span<Vec3> acc,
              std::span<double> potential);
    /// The walk's node data of the last build (what essential trees are cut from).
    [[nodiscard]] const std::vector<WalkNode>& walk_nodes() const { return walk_; }
    [[nodiscard]] double theta() const { return theta_; }
    [[nodiscard]] int order() const { return order_; }
    [[nodiscard]] int group_size() const { return group_size_; }
    [[nodiscard]] std::string name() const override {
        return std::string(enum_name(backend_names, Backend::tree));
    }
    [[nodiscard]] const tree::Octree& tree() const { return tree_; }

    /// Walk groups of the last evaluation (node indices, in key order).
    [[nodiscard]] const std::vector<std::int32_t>& groups() const { return groups_; }
    /// Interactions of the last evaluation (body-body and body-node), for benchmarks.
    [[nodiscard]] double particle_interactions() const { return particle_interactions_; }
    [[nodiscard]] double node_interactions() const { return node_interactions_; }
    /// Interactions (bodies and nodes) of each point of the last evaluation, in the order of
    /// its points: its group's list length, the measured cost by which the bodies of a run
    /// over ranks are weighted in the decomposition (domain/decomposition.hpp).
    [[nodiscard]] const std::vector<std::int64_t>& point_interactions() const {
        return point_interactions_;
    }

private:
    double G_, eps2_, theta_;
    int order_, bucket_size_, group_size_;
    tree::Octree tree_;
    std::vector<double> ax_, ay_, az_, phi_; // in tree order
    std::vector<WalkNode> walk_;             // packed node data for the walk
    std::vector<std::int32_t> groups_;       // walk groups (node indices)
    double particle_interactions_ = 0, node_interactions_ = 0;
    std::vector<std::int64_t> point_interactions_; // per point, in the points' order
};

} // namespace rubble::gravity
