// SPDX-License-Identifier: MIT
#include "rubble/gravity/tree_gravity.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "rubble/core/hostdevice.hpp"
#include "rubble/gravity/pair_kernel.hpp"
#include "rubble/tree/walk_criteria.hpp"

namespace rubble::gravity {
namespace {

// Interaction lists of one group, as columns so the loops over them vectorise: bodies
// (x, y, z, m) and accepted nodes (centre of mass, mass, then weight k at w[k * stride]).
// Measured faster than looping over sources outside and the group inside (docs/tree.md).
struct Lists {
    std::vector<double> x, y, z, m;
    std::vector<std::int32_t> cells;
    std::vector<const tree::Multipole*> imported_cells; ///< of other ranks' trees, after cells
    std::vector<double> cx, cy, cz, cm, w;
    void clear() {
        x.clear();
        y.clear();
        z.clear();
        m.clear();
        cells.clear();
        imported_cells.clear();
    }
    [[nodiscard]] std::size_t cell_count() const { return cells.size() + imported_cells.size(); }
    // Copies the accepted nodes' data into columns of length cell_count(): this tree's
    // nodes, then the imported ones.
    void gather_cells(const std::vector<tree::Multipole>& mp, int order) {
        const std::size_t n = cell_count();
        cx.resize(n);
        cy.resize(n);
        cz.resize(n);
        cm.resize(n);
        // Only the weights the order uses: 6 for quadrupoles, 16 with octupoles, 31 in all.
        const int weights =
            order >= 2 ? tree::weight_offset(order) + tree::monomial_count(order) : 0;
        w.resize(static_cast<std::size_t>(weights) * n);
        for (std::size_t c = 0; c < n; ++c) {
            const tree::Multipole& p = c < cells.size() ? mp[static_cast<std::size_t>(cells[c])]
                                                        : *imported_cells[c - cells.size()];
            cx[c] = p.com[0];
            cy[c] = p.com[1];
            cz[c] = p.com[2];
            cm[c] = p.mass;
            for (int k = 0; k < weights; ++k)
                w[static_cast<std::size_t>(k) * n + c] = p.w[k];
        }
    }
};

void build_lists(const tree::Octree& t, const std::vector<WalkNode>& walk, const tree::Node& group,
                 Lists& lists) {
    std::int32_t stack[8 * tree::morton_levels + 8];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const std::int32_t k = stack[--top];
        const WalkNode& node = walk[static_cast<std::size_t>(k)];
        if (tree::accepts_node(group.lo, group.hi, group.begin, group.end, node.begin, node.end,
                               node.com, node.open2)) {
            lists.cells.push_back(k);
        } else if (node.child_count == 0) {
            // A leaf's bodies are contiguous in the sorted arrays: copy them as ranges.
            const auto b0 = static_cast<std::ptrdiff_t>(node.begin);
            const auto b1 = static_cast<std::ptrdiff_t>(node.end);
            lists.x.insert(lists.x.end(), t.x().begin() + b0, t.x().begin() + b1);
            lists.y.insert(lists.y.end(), t.y().begin() + b0, t.y().begin() + b1);
            lists.z.insert(lists.z.end(), t.z().begin() + b0, t.z().begin() + b1);
            lists.m.insert(lists.m.end(), t.mass().begin() + b0, t.mass().begin() + b1);
        } else {
            for (std::int32_t c = node.child_count - 1; c >= 0; --c)
                stack[top++] = node.first_child + c;
        }
    }
}

// The same walk over another rank's essential tree: its nodes share no bodies with the group,
// and a node the sender accepted for the whole domain (a leaf without bodies) is accepted by
// every group inside it (the group's box lies in the domain's); it is taken whole even if
// rounding said otherwise.
void build_imported_lists(const ImportedTree& t, const tree::Node& group, Lists& lists) {
    if (t.nodes.empty()) return;
    std::int32_t stack[8 * tree::morton_levels + 8];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const std::int32_t k = stack[--top];
        const WalkNode& node = t.nodes[static_cast<std::size_t>(k)];
        const bool pruned = node.child_count == 0 && node.begin == node.end;
        if (pruned || tree::box_distance2(group.lo, group.hi, node.com) > node.open2) {
            lists.imported_cells.push_back(&t.multipoles[static_cast<std::size_t>(k)]);
        } else if (node.child_count == 0) {
            const auto b0 = static_cast<std::ptrdiff_t>(node.begin);
            const auto b1 = static_cast<std::ptrdiff_t>(node.end);
            lists.x.insert(lists.x.end(), t.x.begin() + b0, t.x.begin() + b1);
            lists.y.insert(lists.y.end(), t.y.begin() + b0, t.y.begin() + b1);
            lists.z.insert(lists.z.end(), t.z.begin() + b0, t.z.begin() + b1);
            lists.m.insert(lists.m.end(), t.m.begin() + b0, t.m.begin() + b1);
        } else {
            for (std::int32_t c = node.child_count - 1; c >= 0; --c)
                stack[top++] = node.first_child + c;
        }
    }
}

// Field of the group's interaction lists at every body of the group. Each body sums its
// sources in list order, whatever thread handles the group: deterministic. Unsoftened
// (eps2 = 0, the usual case with hard-sphere collisions) is compiled separately, so the
// node loop does not evaluate a second, softened inverse square root it would then discard.
template <int Order, bool Softened>
RUBBLE_INLINE void group_field(const tree::Octree& t, const tree::Node& group, const Lists& lists,
                               double eps2_in, double* ax_out, double* ay_out, double* az_out,
                               double* phi_out) {
    const double eps2 = Softened ? eps2_in : 0.0;
    const std::size_t np = lists.x.size(), nc = lists.cx.size();
    const double *xs = lists.x.data(), *ys = lists.y.data(), *zs = lists.z.data(),
                 *ms = lists.m.data();
    const double *cx = lists.cx.data(), *cy = lists.cy.data(), *cz = lists.cz.data(),
                 *cm = lists.cm.data(), *w = lists.w.data();
    // Two targets per pass over the lists: each node's columns are loaded once for both, which
    // halves the traffic from L2 (a 64-body group's list is larger than L1). An odd last body
    // is paired with itself. Each target still sums its sources in list order.
    for (std::int32_t i = group.begin; i < group.end; i += 2) {
        const auto k = static_cast<std::size_t>(i);
        const auto kb = static_cast<std::size_t>(std::min(i + 1, group.end - 1));
        const double xa = t.x()[k], ya = t.y()[k], za = t.z()[k];
        const double xb = t.x()[kb], yb = t.y()[kb], zb = t.z()[kb];
        double axa = 0.0, aya = 0.0, aza = 0.0, pha = 0.0;
        double axb = 0.0, ayb = 0.0, azb = 0.0, phb = 0.0;
        // Body-body part: the same softened kernel as DirectGravity.
#pragma omp simd reduction(+ : axa, aya, aza, pha, axb, ayb, azb, phb)
        for (std::size_t j = 0; j < np; ++j) {
            add_body_field<Softened>(xs[j] - xa, ys[j] - ya, zs[j] - za, ms[j], eps2, axa, aya, aza,
                                     pha);
            add_body_field<Softened>(xs[j] - xb, ys[j] - yb, zs[j] - zb, ms[j], eps2, axb, ayb, azb,
                                     phb);
        }
        // Body-node part: the multipole expansion at offset x_i - com.
#pragma omp simd reduction(+ : axa, aya, aza, pha, axb, ayb, azb, phb)
        for (std::size_t c = 0; c < nc; ++c) {
            tree::multipole_field<Order>(xa - cx[c], ya - cy[c], za - cz[c], cm[c], w + c, nc, pha,
                                         axa, aya, aza, eps2);
            tree::multipole_field<Order>(xb - cx[c], yb - cy[c], zb - cz[c], cm[c], w + c, nc, phb,
                                         axb, ayb, azb, eps2);
        }
        ax_out[k] = axa;
        ay_out[k] = aya;
        az_out[k] = aza;
        phi_out[k] = pha;
        ax_out[kb] = axb;
        ay_out[kb] = ayb;
        az_out[kb] = azb;
        phi_out[kb] = phb;
    }
}

// Compiled once per instruction set (RUBBLE_TARGET_CLONES, core/hostdevice.hpp).
RUBBLE_TARGET_CLONES
void group_field_any(int order, const tree::Octree& t, const tree::Node& group, const Lists& lists,
                     double eps2, double* ax, double* ay, double* az, double* phi) {
    // Direct calls, not a table of pointers: the kernels must be inlined into each clone to
    // be compiled for its instruction set.
    const bool softened = eps2 > 0.0;
    switch (std::clamp(order, 1, 4) * 2 + (softened ? 1 : 0)) {
    case 2:
        return group_field<1, false>(t, group, lists, eps2, ax, ay, az, phi);
    case 3:
        return group_field<1, true>(t, group, lists, eps2, ax, ay, az, phi);
    case 4:
        return group_field<2, false>(t, group, lists, eps2, ax, ay, az, phi);
    case 5:
        return group_field<2, true>(t, group, lists, eps2, ax, ay, az, phi);
    case 6:
        return group_field<3, false>(t, group, lists, eps2, ax, ay, az, phi);
    case 7:
        return group_field<3, true>(t, group, lists, eps2, ax, ay, az, phi);
    case 8:
        return group_field<4, false>(t, group, lists, eps2, ax, ay, az, phi);
    default:
        return group_field<4, true>(t, group, lists, eps2, ax, ay, az, phi);
    }
}

} // namespace

TreeGravity::TreeGravity(double G, double softening, double theta, int order, int bucket_size,
                         int group_size)
    : G_(G), eps2_(softening * softening), theta_(theta), order_(order), bucket_size_(bucket_size),
      group_size_(group_size) {
    if (bucket_size < 1 || group_size < 1)
        throw std::invalid_argument("TreeGravity: bucket and group sizes must be >= 1");
    if (!(theta > 0.0 && theta < 1.0)) throw std::invalid_argument("TreeGravity: theta in (0, 1)");
    if (order < 1 || order > tree::max_multipole_order)
        throw std::invalid_argument("TreeGravity: multipole order in [1, 4]");
}

void TreeGravity::compute(std::span<const Vec3> pos, std::span<const double> mass,
                          std::span<Vec3> acc, std::span<double> potential) {
    build(pos, mass);
    walk({}, acc, potential);
}

void TreeGravity::build(std::span<const Vec3> pos, std::span<const double> mass) {
    const std::size_t n = pos.size();
    if (n == 0) {
        walk_.clear();
        point_interactions_.clear();
        return;
    }
    tree_.build({pos, mass}, bucket_size_, order_);
    const auto& nodes = tree_.nodes();
    walk_.resize(nodes.size());
    const double inv_theta2 = 1.0 / (theta_ * theta_);
#pragma omp parallel for schedule(static)
    for (std::size_t k = 0; k < nodes.size(); ++k) {
        const tree::Node& nd = nodes[k];
        const tree::Multipole& mp = tree_.multipoles()[k];
        walk_[k] = {{mp.com[0], mp.com[1], mp.com[2]},
                    tree::open_radius2(nd.size, nd.b_max, inv_theta2),
                    nd.begin,
                    nd.end,
                    nd.first_child,
                    nd.child_count};
    }
}

void TreeGravity::walk(std::span<const ImportedTree> imports, std::span<Vec3> acc,
                       std::span<double> potential) {
    const std::size_t n = acc.size();
    if (n == 0) return;
    if (n != tree_.size() || potential.size() != n)
        throw std::invalid_argument("TreeGravity::walk: one acceleration and potential per point "
                                    "of the last build");
    for (auto* v : {&ax_, &ay_, &az_, &phi_})
        v->resize(n);
    point_interactions_.resize(n);
    // Walk groups: the largest nodes of at most group_size bodies, or leaves. One list per
    // group amortises the walk and the gathering of node data over up to group_size bodies;
    // the nearest-point criterion makes the lists longer for the group's inner bodies (more
    // accurate, more interactions), which the kernels absorb better (docs/tree.md).
    tree_.groups(group_size_, groups_);
    const auto group_count = static_cast<std::ptrdiff_t>(groups_.size());
    double pp = 0.0, pc = 0.0;
#pragma omp parallel reduction(+ : pp, pc)
    {
        Lists lists;
#pragma omp for schedule(dynamic, 4)
        for (std::ptrdiff_t l = 0; l < group_count; ++l) {
            const tree::Node& group =
                tree_.nodes()[static_cast<std::size_t>(groups_[static_cast<std::size_t>(l)])];
            lists.clear();
            build_lists(tree_, walk_, group, lists);
            for (const ImportedTree& t : imports)
                build_imported_lists(t, group, lists);
            lists.gather_cells(tree_.multipoles(), order_);
            group_field_any(order_, tree_, group, lists, eps2_, ax_.data(), ay_.data(), az_.data(),
                            phi_.data());
            pp += static_cast<double>(group.count()) * static_cast<double>(lists.x.size());
            pc += static_cast<double>(group.count()) * static_cast<double>(lists.cell_count());
            // Every body of the group walks its list: that many interactions each.
            const auto each = static_cast<std::int64_t>(lists.x.size() + lists.cell_count());
            for (std::int32_t k = group.begin; k < group.end; ++k)
                point_interactions_[static_cast<std::size_t>(
                    tree_.order()[static_cast<std::size_t>(k)])] = each;
        }
    }
    particle_interactions_ = pp;
    node_interactions_ = pc;
    const auto& order = tree_.order();
#pragma omp parallel for schedule(static)
    for (std::size_t k = 0; k < n; ++k) {
        const auto i = static_cast<std::size_t>(order[k]);
        acc[i] = G_ * Vec3(ax_[k], ay_[k], az_[k]);
        potential[i] = G_ * phi_[k];
    }
}

} // namespace rubble::gravity
