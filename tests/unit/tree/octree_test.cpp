// SPDX-License-Identifier: MIT
// Tree structure invariants, and every neighbour query against brute force on awkward sets:
// duplicates, coincident points and extreme size ratios.
#include <algorithm>
#include <cstdio>
#include <set>
#include <vector>

#include <gtest/gtest.h>
#include <omp.h>

#include "rubble/gravity/accuracy.hpp"
#include "rubble/gravity/tree_gravity.hpp"
#include "rubble/ic/random.hpp"
#include "rubble/tree/octree.hpp"

using namespace rubble;
using Pairs = std::vector<std::pair<std::int32_t, std::int32_t>>;

namespace {

struct Set {
    std::vector<Vec3> pos, vel;
    std::vector<double> mass, radius;
};

// Random bodies with exact duplicates, a pile of coincident points and radii spanning six
// orders of magnitude (one body 1e3 times larger than the median).
Set awkward_set(std::uint64_t seed, std::size_t n) {
    ic::Rng rng(seed);
    Set s;
    for (std::size_t i = 0; i < n; ++i) {
        Vec3 p = rng.in_ball(50.0);
        if (i % 17 == 5) p = s.pos[i - 3];        // exact duplicate position
        if (i % 50 == 7) p = Vec3(1.0, 2.0, 3.0); // coincident pile
        s.pos.push_back(p);
        s.vel.push_back(rng.uniform(0.0, 3.0) * rng.unit_vector());
        s.mass.push_back(rng.uniform(0.1, 1.0));
        s.radius.push_back(std::pow(10.0, rng.uniform(-3.0, 0.3)));
    }
    s.radius[n / 2] = 20.0; // a giant among pebbles
    return s;
}

Pairs brute_pairs(const Set& s, bool swept, double h) {
    Pairs out;
    for (std::size_t i = 0; i < s.pos.size(); ++i)
        for (std::size_t j = i + 1; j < s.pos.size(); ++j) {
            const double r = s.radius[i] + s.radius[j];
            const bool hit = swept ? tree::segment_distance2(s.pos[i], h * s.vel[i], s.pos[j],
                                                             h * s.vel[j]) <= r * r
                                   : (s.pos[i] - s.pos[j]).squaredNorm() < r * r;
            if (hit) out.emplace_back(static_cast<std::int32_t>(i), static_cast<std::int32_t>(j));
        }
    return out;
}

tree::Octree build(const Set& s, int bucket) {
    tree::Octree t;
    t.build({s.pos, s.mass, s.radius, s.vel}, bucket);
    return t;
}

} // namespace

TEST(Octree, NodesPartitionTheSortedBodies) {
    const Set s = awkward_set(1, 3000);
    const tree::Octree t = build(s, 8);
    std::vector<std::int32_t> sorted = t.order();
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < sorted.size(); ++i)
        ASSERT_EQ(sorted[i], static_cast<std::int32_t>(i));
    double leaf_bodies = 0;
    for (std::size_t k = 0; k < t.nodes().size(); ++k) {
        const tree::Node& n = t.nodes()[k];
        double m = 0.0;
        for (std::int32_t b = n.begin; b < n.end; ++b) {
            m += t.mass()[static_cast<std::size_t>(b)];
            const double p[3] = {t.x()[static_cast<std::size_t>(b)],
                                 t.y()[static_cast<std::size_t>(b)],
                                 t.z()[static_cast<std::size_t>(b)]};
            for (int d = 0; d < 3; ++d) {
                ASSERT_LE(n.lo[d], p[d]);
                ASSERT_GE(n.hi[d], p[d]);
            }
        }
        EXPECT_NEAR(t.multipoles()[k].mass, m, 1e-12 * m);
        if (n.leaf()) {
            leaf_bodies += n.count();
            continue;
        }
        std::int32_t expected_begin = n.begin;
        for (std::int32_t c = 0; c < n.child_count; ++c) {
            const tree::Node& child = t.nodes()[static_cast<std::size_t>(n.first_child + c)];
            EXPECT_EQ(child.begin, expected_begin);
            expected_begin = child.end;
        }
        EXPECT_EQ(expected_begin, n.end);
    }
    EXPECT_EQ(leaf_bodies, 3000.0);
}

TEST(Octree, BallQueryMatchesBruteForce) {
    const Set s = awkward_set(2, 2000);
    const tree::Octree t = build(s, 4);
    ic::Rng rng(3);
    for (int q = 0; q < 50; ++q) {
        const Vec3 c = q % 10 == 0 ? Vec3(1.0, 2.0, 3.0) : rng.in_ball(60.0);
        const double r = rng.uniform(0.0, 15.0);
        std::vector<std::int32_t> expected;
        for (std::size_t i = 0; i < s.pos.size(); ++i)
            if ((s.pos[i] - c).squaredNorm() <= r * r)
                expected.push_back(static_cast<std::int32_t>(i));
        EXPECT_EQ(t.bodies_within(c, r), expected) << "query " << q;
    }
}

TEST(Octree, OverlappingPairsMatchBruteForce) {
    for (std::uint64_t seed : {4u, 5u, 6u}) {
        const Set s = awkward_set(seed, 2500);
        EXPECT_EQ(build(s, 8).overlapping_pairs(), brute_pairs(s, false, 0.0)) << seed;
    }
}

TEST(Octree, SweptPairsMatchBruteForce) {
    for (double h : {0.0, 0.5, 4.0}) {
        const Set s = awkward_set(7, 2000);
        const tree::Octree t = build(s, 8);
        const Pairs expected = brute_pairs(s, true, h);
        EXPECT_EQ(t.swept_pairs(h), expected) << "h = " << h;
        // Per body: the neighbours are exactly the partners in the pair list.
        for (std::int32_t i : {0, 7, 1000, 1999}) {
            std::vector<std::int32_t> partners;
            for (const auto& [a, b] : expected) {
                if (a == i) partners.push_back(b);
                if (b == i) partners.push_back(a);
            }
            std::sort(partners.begin(), partners.end());
            EXPECT_EQ(t.swept_neighbours(i, h), partners) << "body " << i << ", h = " << h;
        }
    }
}

TEST(Octree, SegmentDistanceCases) {
    const Vec3 o = Vec3::Zero();
    // Parallel segments one apart; a point against a segment; crossing segments.
    EXPECT_DOUBLE_EQ(tree::segment_distance2(o, Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 0, 0)), 1.0);
    EXPECT_DOUBLE_EQ(tree::segment_distance2(Vec3(2, 0, 0), o, o, Vec3(1, 0, 0)), 1.0);
    EXPECT_DOUBLE_EQ(
        tree::segment_distance2(Vec3(-1, 0, 1), Vec3(2, 0, 0), Vec3(0, -1, 0), Vec3(0, 2, 0)), 1.0);
    EXPECT_DOUBLE_EQ(tree::segment_distance2(o, o, Vec3(0, 3, 4), o), 25.0);
}

TEST(TreeGravity, BitwiseIndependentOfThreadCountAndFiniteForCoincidentPoints) {
    const Set s = awkward_set(8, 5000);
    gravity::TreeGravity g(1.0, 0.0, 0.6, 4, 16, 64);
    std::vector<Vec3> a1(s.pos.size()), a2(s.pos.size());
    std::vector<double> p1(s.pos.size()), p2(s.pos.size());
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    g.compute(s.pos, s.mass, a1, p1);
    omp_set_num_threads(2);
    g.compute(s.pos, s.mass, a2, p2);
    omp_set_num_threads(threads);
    for (std::size_t i = 0; i < a1.size(); ++i) {
        ASSERT_TRUE(a1[i].allFinite()) << i;
        ASSERT_EQ(a1[i], a2[i]) << i;
        ASSERT_EQ(p1[i], p2[i]) << i;
    }
}

TEST(TreeGravity, TinySystems) {
    gravity::TreeGravity g(1.0, 0.0, 0.5, 4, 1, 64);
    for (std::size_t n : {0u, 1u, 2u}) {
        std::vector<Vec3> pos(n), acc(n);
        std::vector<double> mass(n, 1.0), pot(n);
        for (std::size_t i = 0; i < n; ++i)
            pos[i] = Vec3(static_cast<double>(i), 0, 0);
        g.compute(pos, mass, acc, pot);
        if (n == 1) {
            EXPECT_EQ(acc[0], Vec3::Zero());
        }
        if (n == 2) {
            EXPECT_DOUBLE_EQ(acc[0].x(), 1.0);
            EXPECT_DOUBLE_EQ(acc[1].x(), -1.0);
        }
    }
}

TEST(TreeGravity, OneBodyBucketsNeverUseThemselvesAsANode) {
    // Regression: a one-body leaf has size 0 and a centre of mass a rounding error from its
    // own box, so without the containment check it accepted itself as a monopole.
    const Set s = awkward_set(9, 3000);
    gravity::TreeGravity g(1.0, 0.0, 0.5, 1, 1, 1); // one list per one-body leaf
    std::vector<Vec3> acc(s.pos.size());
    std::vector<double> pot(s.pos.size());
    g.compute(s.pos, s.mass, acc, pot);
    std::vector<std::size_t> all(s.pos.size());
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = i;
    const auto exact = gravity::direct_accelerations(s.pos, s.mass, 1.0, 0.0, all);
    for (std::size_t i = 0; i < acc.size(); ++i)
        ASSERT_LT((acc[i] - exact[i]).norm(), 0.5 * exact[i].norm() + 1e-300) << i;
}

TEST(TreeGravity, WalkGroupsPartitionTheBodiesAndOnlyAddAccuracy) {
    // Groups are the largest nodes of at most group_size bodies, or leaves: together they hold
    // every body exactly once, in key order. Accepting nodes against a group's box is stricter
    // than against its leaves' boxes, so grouping only opens more nodes: at least as many
    // interactions, and an error against direct summation no larger than the per-leaf walk's
    // (within its spread: the same acceptance rule on a superset of targets).
    const Set s = awkward_set(10, 6000);
    std::vector<std::size_t> all(s.pos.size());
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = i;
    const auto exact = gravity::direct_accelerations(s.pos, s.mass, 1.0, 0.0, all);
    const auto median_error = [&](gravity::TreeGravity& g, double& interactions) {
        std::vector<Vec3> acc(s.pos.size());
        std::vector<double> pot(s.pos.size());
        g.compute(s.pos, s.mass, acc, pot);
        interactions = g.node_interactions() + g.particle_interactions();
        std::vector<double> e;
        for (std::size_t i = 0; i < acc.size(); ++i)
            if (exact[i].norm() > 0) e.push_back((acc[i] - exact[i]).norm() / exact[i].norm());
        std::nth_element(e.begin(), e.begin() + static_cast<std::ptrdiff_t>(e.size() / 2), e.end());
        return e[e.size() / 2];
    };
    gravity::TreeGravity per_leaf(1.0, 0.0, 0.6, 2, 8, 8);
    double n_leaf = 0;
    const double e_leaf = median_error(per_leaf, n_leaf);
    auto leaf_groups = per_leaf.groups(), leaves = per_leaf.tree().leaves();
    std::sort(leaf_groups.begin(), leaf_groups.end());
    std::sort(leaves.begin(), leaves.end());
    EXPECT_EQ(leaf_groups, leaves);
    for (int group_size : {32, 64, 256}) {
        gravity::TreeGravity grouped(1.0, 0.0, 0.6, 2, 8, group_size);
        double n_group = 0;
        const double e_group = median_error(grouped, n_group);
        std::int32_t next = 0;
        for (std::int32_t k : grouped.groups()) {
            const tree::Node& nd = grouped.tree().nodes()[static_cast<std::size_t>(k)];
            EXPECT_EQ(nd.begin, next);
            EXPECT_TRUE(nd.count() <= group_size || nd.leaf());
            next = nd.end;
        }
        EXPECT_EQ(next, static_cast<std::int32_t>(s.pos.size()));
        EXPECT_LT(grouped.groups().size(), per_leaf.groups().size());
        EXPECT_GE(n_group, n_leaf) << group_size;
        std::printf("[measured] group %d: median error %.3e (per leaf %.3e), interactions %.0f "
                    "(%.0f)\n",
                    group_size, e_group, e_leaf, n_group, n_leaf);
        EXPECT_LE(e_group, e_leaf) << group_size;
    }
}
