// SPDX-License-Identifier: MIT
// Tree structure invariants and tree gravity on awkward sets: duplicates and coincident
// points.
#include <algorithm>
#include <cstdio>
#include <vector>

#include <gtest/gtest.h>
#include <omp.h>

#include "rubble/core/random.hpp"
#include "rubble/gravity/accuracy.hpp"
#include "rubble/gravity/tree_gravity.hpp"
#include "rubble/tree/octree.hpp"

using namespace rubble;

namespace {

struct Set {
    std::vector<Vec3> pos;
    std::vector<double> mass;
};

// Random bodies with exact duplicates and a pile of coincident points.
Set awkward_set(std::uint64_t seed, std::size_t n) {
    Rng rng(seed);
    Set s;
    for (std::size_t i = 0; i < n; ++i) {
        Vec3 p = rng.in_ball(50.0);
        if (i % 17 == 5) p = s.pos[i - 3];        // exact duplicate position
        if (i % 50 == 7) p = Vec3(1.0, 2.0, 3.0); // coincident pile
        s.pos.push_back(p);
        // A speed, a direction and a radius were drawn here for the tree's neighbour queries
        // (removed); still drawn, so that the sets stay those the gravity tests were written
        // with.
        (void)(rng.uniform(0.0, 3.0) * rng.unit_vector()); // (one expression, as it was)
        s.mass.push_back(rng.uniform(0.1, 1.0));
        (void)rng.uniform(-3.0, 0.3);
    }
    return s;
}

tree::Octree build(const Set& s, int bucket) {
    tree::Octree t;
    t.build({s.pos, s.mass}, bucket);
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
