// SPDX-License-Identifier: MIT
#include "rubble/collisions/candidate_search.hpp"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <string>
#include <tuple>

#include "rubble/collisions/periodic.hpp"
#include "rubble/core/error.hpp"

namespace rubble::collisions {
namespace {

// Squared distance from point p to the segment a -> b.
double point_segment_distance2(const Vec3& p, const Vec3& a, const Vec3& b) {
    const Vec3 ab = b - a;
    const double len2 = ab.squaredNorm();
    const double t = len2 > 0.0 ? std::clamp((p - a).dot(ab) / len2, 0.0, 1.0) : 0.0;
    return (a + t * ab - p).squaredNorm();
}

} // namespace

CandidateSearch::Box CandidateSearch::box_of(const Region& r) {
    return Box{r.a.cwiseMin(r.b).array() - r.rad, r.a.cwiseMax(r.b).array() + r.rad};
}

template <class Visit> void CandidateSearch::visit_leaves(const Box& qb, Visit&& visit) const {
    const auto& nodes = tree_.nodes();
    if (nodes.empty() || nodes[0].count() == 0) return;
    for (int image = 0; image < image_count; ++image) {
        if (box_ <= 0.0 && image != self_image) continue;
        const Vec3 s = box_ > 0.0 ? image_shift(image, box_) : Vec3::Zero();
        const Vec3 lo = qb.lo - s, hi = qb.hi - s;
        const auto meets = [&](const Box& b) {
            return (b.lo.array() <= hi.array()).all() && (b.hi.array() >= lo.array()).all();
        };
        if (!meets(node_box_[0])) continue;
        std::int32_t stack[8 * tree::morton_levels + 8];
        int top = 0;
        stack[top++] = 0;
        while (top > 0) {
            const std::int32_t n = stack[--top];
            const tree::Node& node = nodes[static_cast<std::size_t>(n)];
            if (!meets(node_box_[static_cast<std::size_t>(n)])) continue;
            if (!node.leaf()) {
                for (std::int32_t c = node.child_count - 1; c >= 0; --c)
                    stack[top++] = node.first_child + c;
                continue;
            }
            visit(node, s, static_cast<std::int8_t>(image));
        }
    }
}

template <class Visit> void CandidateSearch::query(const Region& q, Visit&& visit) const {
    const auto& nodes = tree_.nodes();
    if (nodes.empty() || nodes[0].count() == 0) return;
    const Box qb = box_of(q);
    const auto& order = tree_.order();
    for (int image = 0; image < image_count; ++image) {
        if (box_ <= 0.0 && image != self_image) continue;
        // Partner regions shifted by s meet q  <=>  the unshifted regions meet q - s.
        const Vec3 s = box_ > 0.0 ? image_shift(image, box_) : Vec3::Zero();
        const Vec3 lo = qb.lo - s, hi = qb.hi - s;
        const auto meets = [&](const Box& b) {
            return (b.lo.array() <= hi.array()).all() && (b.hi.array() >= lo.array()).all();
        };
        if (!meets(node_box_[0])) continue;
        std::int32_t stack[8 * tree::morton_levels + 8];
        int top = 0;
        stack[top++] = 0;
        while (top > 0) {
            const std::int32_t n = stack[--top];
            const tree::Node& node = nodes[static_cast<std::size_t>(n)];
            if (!meets(node_box_[static_cast<std::size_t>(n)])) continue;
            if (!node.leaf()) {
                for (std::int32_t c = node.child_count - 1; c >= 0; --c)
                    stack[top++] = node.first_child + c;
                continue;
            }
            for (std::int32_t k = node.begin; k < node.end; ++k) {
                // The region boxes first (kept current by renew): most bodies of a leaf that
                // the query reaches are far from the capsule itself.
                const Box& kb = sorted_box_[static_cast<std::size_t>(k)];
                if ((kb.lo.array() > hi.array()).any() || (kb.hi.array() < lo.array()).any())
                    continue;
                const Region& r =
                    region_[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])];
                const double reach = q.rad + r.rad;
                if (tree::segment_distance2(q.a, q.b - q.a, r.a + s, r.b - r.a) <= reach * reach)
                    visit(k, static_cast<std::int8_t>(image));
            }
        }
    }
}

void CandidateSearch::build(const Bodies& b, double h, double skin, double box) {
    const std::size_t n = b.size();
    skin_ = skin;
    box_ = box;
    renewals_ = 0;
    tree_.build(tree::TreeInputs{b.pos, {}, {}, {}}, 8, 2);

    region_.resize(n);
    double largest = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        region_[i] = Region{b.pos[i], b.pos[i] + h * b.vel[i], b.radius[i] * (1.0 + skin)};
        largest = std::max(largest, (region_[i].b - region_[i].a).norm() + 2.0 * region_[i].rad);
    }
    // A body must not meet its own image, and one image per pair must suffice.
    if (box > 0.0 && largest > 0.5 * box)
        throw PhysicsError("collisions.periodic_box = " + std::to_string(box) +
                           " m is smaller than twice the largest distance a body sweeps in "
                           "one drift (" +
                           std::to_string(largest) + " m): enlarge it or reduce integrator.dt");

    const auto& nodes = tree_.nodes();
    const auto& order = tree_.order();
    node_box_.assign(nodes.size(), Box{});
    parent_.assign(nodes.size(), -1);
    leaf_of_.assign(n, -1);
    for (std::size_t k = nodes.size(); k-- > 0;) {
        const tree::Node& node = nodes[k];
        Box bx{Vec3::Constant(std::numeric_limits<double>::infinity()),
               Vec3::Constant(-std::numeric_limits<double>::infinity())};
        if (node.leaf()) {
            for (std::int32_t s = node.begin; s < node.end; ++s) {
                const auto i = static_cast<std::size_t>(order[static_cast<std::size_t>(s)]);
                leaf_of_[i] = static_cast<std::int32_t>(k);
                const Box rb = box_of(region_[i]);
                bx.lo = bx.lo.cwiseMin(rb.lo);
                bx.hi = bx.hi.cwiseMax(rb.hi);
            }
        } else {
            for (std::int32_t c = 0; c < node.child_count; ++c) {
                const auto ci = static_cast<std::size_t>(node.first_child + c);
                parent_[ci] = static_cast<std::int32_t>(k);
                bx.lo = bx.lo.cwiseMin(node_box_[ci].lo);
                bx.hi = bx.hi.cwiseMax(node_box_[ci].hi);
            }
        }
        node_box_[k] = bx;
    }

    // Region boxes in sorted order: the cheap test before the capsule distance, contiguous.
    sorted_box_.resize(n);
    sorted_of_.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
        sorted_box_[k] = box_of(region_[static_cast<std::size_t>(order[k])]);
        sorted_of_[static_cast<std::size_t>(order[k])] = static_cast<std::int32_t>(k);
    }

    // Every pair once, leaf against leaf. One traversal per group of leaves (the largest
    // nodes of at most group_bodies bodies) instead of one per leaf: the traversal, the
    // dominant cost, is shared by the group's leaves, and each leaf it reaches is then tested
    // against the group's leaves one by one. A pair (a, b) is kept from the side with the
    // smaller sorted position.
    pairs_.clear();
    // 32: measured best of 8 (per leaf), 32, 64, 128 on the packing-0.3 gas at 1e4 and 1e5
    // bodies (-10 % time per drift; docs/benchmarks.md).
    constexpr int group_bodies = 32;
    tree_.groups(group_bodies, group_node_);
    const auto group_count = static_cast<std::ptrdiff_t>(group_node_.size());
#pragma omp parallel
    {
        std::vector<CandidatePair> local;
        std::vector<std::int32_t> group_leaves;
#pragma omp for schedule(dynamic, 4) nowait
        for (std::ptrdiff_t g = 0; g < group_count; ++g) {
            const std::int32_t gnode = group_node_[static_cast<std::size_t>(g)];
            const tree::Node& group = nodes[static_cast<std::size_t>(gnode)];
            group_leaves.clear();
            tree_.leaves_under(gnode, group_leaves);
            visit_leaves(node_box_[static_cast<std::size_t>(gnode)], [&](const tree::Node& other,
                                                                         const Vec3& s,
                                                                         std::int8_t image) {
                if (other.end <= group.begin) return; // every partner earlier in the order
                const Vec3 olo = node_box_[static_cast<std::size_t>(&other - nodes.data())].lo + s;
                const Vec3 ohi = node_box_[static_cast<std::size_t>(&other - nodes.data())].hi + s;
                for (const std::int32_t lk : group_leaves) {
                    const tree::Node& leaf = nodes[static_cast<std::size_t>(lk)];
                    if (other.begin < leaf.begin) continue;
                    const Box& lb = node_box_[static_cast<std::size_t>(lk)];
                    if ((lb.lo.array() > ohi.array()).any() || (lb.hi.array() < olo.array()).any())
                        continue;
                    for (std::int32_t a = leaf.begin; a < leaf.end; ++a) {
                        const Box& ab = sorted_box_[static_cast<std::size_t>(a)];
                        const Vec3 lo = ab.lo - s, hi = ab.hi - s;
                        const std::int32_t i = order[static_cast<std::size_t>(a)];
                        const Region& ri = region_[static_cast<std::size_t>(i)];
                        for (std::int32_t c = std::max(other.begin, a + 1); c < other.end; ++c) {
                            const Box& bb = sorted_box_[static_cast<std::size_t>(c)];
                            if ((bb.lo.array() > hi.array()).any() ||
                                (bb.hi.array() < lo.array()).any())
                                continue;
                            const std::int32_t j = order[static_cast<std::size_t>(c)];
                            const Region& rj = region_[static_cast<std::size_t>(j)];
                            const double reach = ri.rad + rj.rad;
                            if (tree::segment_distance2(ri.a, ri.b - ri.a, rj.a + s, rj.b - rj.a) >
                                reach * reach)
                                continue;
                            // Store with i < j; j sees i through the opposite image.
                            if (i < j)
                                local.push_back(CandidatePair{i, j, image});
                            else
                                local.push_back(CandidatePair{j, i, opposite_image(image)});
                        }
                    }
                }
            });
        }
#pragma omp critical
        pairs_.insert(pairs_.end(), local.begin(), local.end());
    }
    // Thread scheduling varies; the sorted list (hence everything after) does not.
    std::sort(pairs_.begin(), pairs_.end(), [](const CandidatePair& x, const CandidatePair& y) {
        return std::tie(x.i, x.j, x.image) < std::tie(y.i, y.j, y.image);
    });

    offsets_.assign(n + 1, 0);
    for (const CandidatePair& p : pairs_) {
        ++offsets_[static_cast<std::size_t>(p.i) + 1];
        ++offsets_[static_cast<std::size_t>(p.j) + 1];
    }
    for (std::size_t i = 0; i < n; ++i)
        offsets_[i + 1] += offsets_[i];
    entries_.resize(offsets_[n]);
    std::vector<std::size_t> fill(offsets_.begin(), offsets_.end() - 1);
    for (const CandidatePair& p : pairs_) {
        entries_[fill[static_cast<std::size_t>(p.i)]++] = Neighbour{p.j, p.image};
        entries_[fill[static_cast<std::size_t>(p.j)]++] = Neighbour{p.i, opposite_image(p.image)};
    }

    for (std::int32_t i : touched_)
        if (static_cast<std::size_t>(i) < extra_.size())
            extra_[static_cast<std::size_t>(i)].clear();
    touched_.clear();
    extra_.resize(n);
}

bool CandidateSearch::inside(std::int32_t i, const Vec3& from, const Vec3& to, double r) const {
    const Region& g = region_[static_cast<std::size_t>(i)];
    const double room = g.rad - r;
    if (room < 0.0) return false;
    return point_segment_distance2(from, g.a, g.b) <= room * room &&
           point_segment_distance2(to, g.a, g.b) <= room * room;
}

void CandidateSearch::renew(std::int32_t i, const Vec3& from, const Vec3& to, double r) {
    ++renewals_;
    const auto ui = static_cast<std::size_t>(i);
    region_[ui] = Region{from, to, r * (1.0 + skin_)};
    // Ancestors' boxes grow to cover the new region, so later queries by others find it.
    const Box rb = box_of(region_[ui]);
    sorted_box_[static_cast<std::size_t>(sorted_of_[ui])] = rb;
    for (std::int32_t nd = leaf_of_[ui]; nd >= 0; nd = parent_[static_cast<std::size_t>(nd)]) {
        Box& bx = node_box_[static_cast<std::size_t>(nd)];
        if ((bx.lo.array() <= rb.lo.array()).all() && (bx.hi.array() >= rb.hi.array()).all())
            break; // this box, hence every box above it, already covers the region
        bx.lo = bx.lo.cwiseMin(rb.lo);
        bx.hi = bx.hi.cwiseMax(rb.hi);
    }
    const auto& order = tree_.order();
    query(region_[ui], [&](std::int32_t k, std::int8_t image) {
        const std::int32_t j = order[static_cast<std::size_t>(k)];
        if (j == i) return;
        const auto uj = static_cast<std::size_t>(j);
        if (extra_[ui].empty()) touched_.push_back(i);
        extra_[ui].push_back(Neighbour{j, image});
        if (extra_[uj].empty()) touched_.push_back(j);
        extra_[uj].push_back(Neighbour{i, opposite_image(image)});
    });
}

} // namespace rubble::collisions
