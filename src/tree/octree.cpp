// SPDX-License-Identifier: MIT
#include "rubble/tree/octree.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <parallel/algorithm>

#include "rubble/tree/morton.hpp"
#include "rubble/tree/multipole_finish.hpp"

namespace rubble::tree {
namespace {

constexpr std::uint32_t max_cell = (1u << morton_levels) - 1;

} // namespace

void Octree::build(const TreeInputs& in, int bucket_size, int order) {
    const std::size_t n = in.pos.size();
    with_mass_ = !in.mass.empty();
    multipole_order_ = order;
    Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity());
    Vec3 hi = -lo;
    for (const Vec3& p : in.pos) {
        lo = lo.cwiseMin(p);
        hi = hi.cwiseMax(p);
    }
    const double side = n ? (hi - lo).maxCoeff() : 0.0;
    const double scale = side > 0.0 ? static_cast<double>(max_cell) / side : 0.0;

    std::vector<std::pair<std::uint64_t, std::int32_t>> keyed(n);
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; ++i) {
        const Vec3 c = (in.pos[i] - lo) * scale;
        const auto cell = [](double v) {
            return static_cast<std::uint32_t>(std::min(v, static_cast<double>(max_cell)));
        };
        keyed[i] = {morton_key(cell(c.x()), cell(c.y()), cell(c.z())),
                    static_cast<std::int32_t>(i)};
    }
    // (key, index) pairs are unique, so any correct sort gives the same order.
    __gnu_parallel::sort(keyed.begin(), keyed.end());

    order_.resize(n);
    keys_.resize(n);
    for (auto* v : {&x_, &y_, &z_, &m_})
        v->resize(n);
#pragma omp parallel for schedule(static)
    for (std::size_t k = 0; k < n; ++k) {
        const auto i = static_cast<std::size_t>(keyed[k].second);
        order_[k] = keyed[k].second;
        keys_[k] = keyed[k].first;
        x_[k] = in.pos[i].x();
        y_[k] = in.pos[i].y();
        z_[k] = in.pos[i].z();
        m_[k] = with_mass_ ? in.mass[i] : 0.0;
    }

    nodes_.clear();
    leaves_.clear();
    nodes_.reserve(2 * n / static_cast<std::size_t>(std::max(bucket_size, 1)) + 16);
    Node root;
    root.end = static_cast<std::int32_t>(n);
    nodes_.push_back(root);
    if (n > 0) split(0, 0, std::max(bucket_size, 1));
    for (std::size_t k = 0; k < nodes_.size(); ++k)
        if (nodes_[k].leaf() && nodes_[k].count() > 0)
            leaves_.push_back(static_cast<std::int32_t>(k));

    multipoles_.assign(with_mass_ ? nodes_.size() : 0, Multipole{});
    const auto node_count = static_cast<std::ptrdiff_t>(nodes_.size());
#pragma omp parallel for schedule(dynamic, 16)
    for (std::ptrdiff_t k = 0; k < node_count; ++k)
        summarise(static_cast<std::int32_t>(k));
}

void Octree::split(std::int32_t node, int level, int bucket_size) {
    const std::int32_t begin = nodes_[static_cast<std::size_t>(node)].begin;
    const std::int32_t end = nodes_[static_cast<std::size_t>(node)].end;
    if (end - begin <= bucket_size) return;
    std::int32_t bounds[9];
    const int nonempty = split_octants(keys_.data(), begin, end, level, bounds);
    if (nonempty <= 1) return; // identical keys: one (over-full) leaf
    const auto first_child = static_cast<std::int32_t>(nodes_.size());
    nodes_[static_cast<std::size_t>(node)].first_child = first_child;
    nodes_[static_cast<std::size_t>(node)].child_count = nonempty;
    for (int o = 0; o < 8; ++o) {
        if (bounds[o + 1] == bounds[o]) continue;
        Node child;
        child.begin = bounds[o];
        child.end = bounds[o + 1];
        nodes_.push_back(child);
    }
    for (std::int32_t c = 0; c < nonempty; ++c)
        split(first_child + c, level + 1, bucket_size);
}

void Octree::summarise(std::int32_t index) {
    Node& node = nodes_[static_cast<std::size_t>(index)];
    double mass = 0.0, cx = 0.0, cy = 0.0, cz = 0.0;
    double lo[3] = {std::numeric_limits<double>::infinity(),
                    std::numeric_limits<double>::infinity(),
                    std::numeric_limits<double>::infinity()};
    double hi[3] = {-lo[0], -lo[1], -lo[2]};
    for (std::int32_t k = node.begin; k < node.end; ++k) {
        const double p[3] = {x_[k], y_[k], z_[k]};
        for (int d = 0; d < 3; ++d) {
            lo[d] = std::min(lo[d], p[d]);
            hi[d] = std::max(hi[d], p[d]);
        }
        mass += m_[k];
        cx += m_[k] * p[0];
        cy += m_[k] * p[1];
        cz += m_[k] * p[2];
    }
    for (int d = 0; d < 3; ++d) {
        node.lo[d] = lo[d];
        node.hi[d] = hi[d];
    }
    node.size = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
    if (!with_mass_) return;
    // Centre of mass; the geometric centre for massless sets.
    const double com[3] = {mass > 0 ? cx / mass : 0.5 * (lo[0] + hi[0]),
                           mass > 0 ? cy / mass : 0.5 * (lo[1] + hi[1]),
                           mass > 0 ? cz / mass : 0.5 * (lo[2] + hi[2])};
    RawMoments raw;
    double b2 = 0.0;
    for (std::int32_t k = node.begin; k < node.end; ++k) {
        const double dx = x_[k] - com[0], dy = y_[k] - com[1], dz = z_[k] - com[2];
        b2 = std::max(b2, dx * dx + dy * dy + dz * dz);
        switch (multipole_order_) {
        case 1:
            break;
        case 2:
            raw.add<2>(m_[k], dx, dy, dz);
            break;
        case 3:
            raw.add<3>(m_[k], dx, dy, dz);
            break;
        default:
            raw.add<4>(m_[k], dx, dy, dz);
            break;
        }
    }
    node.b_max = std::sqrt(b2);
    Multipole& mp = multipoles_[static_cast<std::size_t>(index)];
    mp.mass = mass;
    for (int d = 0; d < 3; ++d)
        mp.com[d] = com[d];
    finish_multipole(raw, mp);
}

void Octree::groups(int max_bodies, std::vector<std::int32_t>& out) const {
    out.clear();
    if (nodes_.empty()) return;
    // Depth-first in key order, stopping at the first node small enough (or a leaf).
    std::int32_t stack[8 * morton_levels + 8];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const std::int32_t k = stack[--top];
        const Node& node = nodes_[static_cast<std::size_t>(k)];
        if (node.leaf() || node.count() <= max_bodies) {
            if (node.count() > 0) out.push_back(k);
            continue;
        }
        for (std::int32_t c = node.child_count - 1; c >= 0; --c)
            stack[top++] = node.first_child + c;
    }
}

} // namespace rubble::tree
