// SPDX-License-Identifier: MIT
#pragma once
// Tree gravity over ranks by locally essential trees (issue 34, item 3; docs/plans/
// mpi-distributed-runs.md, section 2): Salmon 1991 and Warren & Salmon 1993, as pkdgrav and
// Gadget-2 do it. Each rank builds the tree of its own points (TreeGravity::build). For every
// other rank's domain (a few boxes around its points, domain_boxes) it cuts from its tree what
// that rank's walk can need: the walk from the root with the same opening criterion, applied
// to the nearest of the domain's boxes instead of a group's box, keeps every node it reaches,
// stops at the nodes the criterion accepts for every box (any group inside a box accepts them
// too: it is no nearer) and sends the bodies of the leaves it opens. Each rank then walks its own
// tree and the imported ones with the same multipoles and criterion (TreeGravity::walk). Forces
// differ from the serial tree's at the level of the opening criterion's error, not beyond: every
// accepted node passes the criterion for its group, as in the serial walk.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "rubble/core/communicator.hpp"
#include "rubble/gravity/gravity_solver.hpp"
#include "rubble/gravity/tree_gravity.hpp"

namespace rubble::gravity {

/// A box of a domain: the bounding box of the bodies of one node of its rank's tree.
struct DomainBox {
    double lo[3], hi[3];
};

/// A domain as at most `most` boxes (of its tree's last build): the nodes of a frontier cut
/// from the root by splitting, largest first, nodes of more than group_size bodies. Every
/// walk group of the domain lies in one of them (a group is a node of at most group_size
/// bodies whose parent has more), and their boxes hug the bodies: a domain cut from a
/// space-filling curve is seldom convex, often in pieces, and the one box around it all would
/// overlap its neighbours and make them send it most of their trees.
[[nodiscard]] std::vector<DomainBox> domain_boxes(const TreeGravity& tree, std::size_t most);

/// The part of `tree`'s last build that a domain made of `boxes` needs (see above): a node is
/// accepted whole when the criterion accepts it against the nearest box.
[[nodiscard]] ImportedTree essential_tree(const TreeGravity& tree,
                                          std::span<const DomainBox> boxes);

/// ImportedTree to bytes and back (trivially copyable arrays; one layout on every rank of a
/// job). from_bytes throws std::length_error for bytes that are not such a packing.
[[nodiscard]] std::vector<std::byte> to_bytes(const ImportedTree& t);
[[nodiscard]] ImportedTree imported_tree_from_bytes(std::span<const std::byte> bytes);

class TreeGravityOverRanks final : public GravitySolver {
public:
    /// Boxes that describe a domain to the other ranks (domain_boxes): more cut the essential
    /// trees closer to what the walk needs, each costing one more distance per node cut.
    static constexpr std::size_t boxes_per_domain = 64;
    TreeGravityOverRanks(double G, double softening, double theta, int order, int bucket_size,
                         int group_size, core::Communicator& world)
        : tree_(G, softening, theta, order, bucket_size, group_size), world_(world) {}
    /// The field at this rank's points from the points of all ranks. Collective.
    void compute(std::span<const Vec3> pos, std::span<const double> mass, std::span<Vec3> acc,
                 std::span<double> potential) override;
    [[nodiscard]] std::string name() const override { return tree_.name(); }
    /// Interactions of the last evaluation on this rank, imported sources included.
    [[nodiscard]] double interactions() const {
        return tree_.particle_interactions() + tree_.node_interactions();
    }
    /// Interactions of each of this rank's points in the last evaluation (TreeGravity's).
    [[nodiscard]] const std::vector<std::int64_t>& point_interactions() const {
        return tree_.point_interactions();
    }
    /// Bytes this rank sent in the last evaluation (its essential trees for the others).
    [[nodiscard]] std::size_t bytes_sent() const { return bytes_sent_; }

private:
    TreeGravity tree_;
    core::Communicator& world_;
    std::vector<ImportedTree> imports_;
    std::size_t bytes_sent_ = 0;
};

} // namespace rubble::gravity
