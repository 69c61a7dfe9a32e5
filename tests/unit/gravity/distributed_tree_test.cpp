// SPDX-License-Identifier: MIT
// The tree across ranks (issue 34, item 3; gravity/distributed_tree.hpp) over 1 to 4 thread
// ranks: over one rank the serial tree bit for bit, over several the serial tree's error
// distribution against direct summation at theta 0.5 and 0.7 (gravity_rank_checks.hpp; the
// MPI suite runs the same check over real ranks); an essential tree travels as bytes intact.
#include <cstdio>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include "gravity_rank_checks.hpp"
#include "thread_ranks.hpp"

TEST(DistributedTree, OverOneToFourRanksTheErrorDistributionIsTheSerialTreesAtTheSameTheta) {
    for (const double theta : {0.5, 0.7}) {
        for (const int order : {2, 4}) {
            for (const int p : {1, 2, 3, 4}) {
                SCOPED_TRACE("theta " + std::to_string(theta) + ", order " + std::to_string(order) +
                             ", ranks " + std::to_string(p));
                rubble::test::ThreadRanks ranks(p);
                ranks.run([&](rubble::core::Communicator& world) {
                    const auto [median, p99] =
                        rubble::test::check_distributed_tree(world, 3000, theta, order);
                    if (world.rank() == 0)
                        std::printf(
                            "[measured] theta %.1f order %d ranks %d: median %.3e p99 %.3e\n",
                            theta, order, p, median, p99);
                });
            }
        }
    }
}

namespace {

using rubble::Vec3;

// n points of a ball cut by a plane through it at x = cut: the part x < cut, then the rest.
void two_domains(std::size_t n, double cut, std::vector<Vec3>& a, std::vector<Vec3>& b) {
    rubble::Rng rng(5);
    while (a.size() + b.size() < n) {
        const Vec3 x(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1));
        if (x.squaredNorm() > 1.0) continue;
        (x.x() < cut ? a : b).push_back(1e3 * x);
    }
}

} // namespace

// A domain described by a few boxes around its bodies (domain_boxes) rather than by the one
// box around them all: every body and every walk group lies in one of the boxes, and the
// essential tree another rank cuts for it is smaller but gives the domain's walk the same
// forces bit for bit (the walk accepts the same nodes: every node the smaller tree no longer
// opens is accepted whole by every group of the domain, the criterion holding against the
// group's box, which lies in a box no nearer).
TEST(DistributedTree, ADomainAsAFewBoxesGetsASmallerEssentialTreeAndTheSameForces) {
    std::vector<Vec3> here, there;
    // An L-shaped domain: the ball's left part and a slab of its right (a domain cut from a
    // Morton curve is seldom one convex piece); its one box overlaps the other domain's.
    two_domains(6000, -0.2, here, there);
    std::vector<Vec3> rest;
    for (const Vec3& x : there)
        (x.z() < -600.0 ? here : rest).push_back(x);
    there = rest;
    const double G = 6.674e-11;
    const auto masses = [](std::size_t n) { return std::vector<double>(n, 1e9); };
    rubble::gravity::TreeGravity mine(G, 0.0, 0.5, 4, 16, 64), theirs(G, 0.0, 0.5, 4, 16, 64);
    mine.build(here, masses(here.size()));
    theirs.build(there, masses(there.size()));

    const auto boxes = rubble::gravity::domain_boxes(mine, 64);
    ASSERT_LE(boxes.size(), 64u);
    ASSERT_GT(boxes.size(), 8u);
    const auto inside = [](const rubble::gravity::DomainBox& b, const double* lo,
                           const double* hi) {
        for (int d = 0; d < 3; ++d)
            if (lo[d] < b.lo[d] || hi[d] > b.hi[d]) return false;
        return true;
    };
    for (const Vec3& x : here) {
        bool found = false;
        for (const auto& b : boxes)
            found = found || inside(b, x.data(), x.data());
        EXPECT_TRUE(found) << x.transpose();
    }
    std::vector<Vec3> acc_one(here.size()), acc_few(here.size());
    std::vector<double> phi(here.size());
    // The groups of mine: after a walk.
    mine.walk({}, acc_one, phi);
    for (const std::int32_t g : mine.groups()) {
        const auto& node = mine.tree().nodes()[static_cast<std::size_t>(g)];
        bool found = false;
        for (const auto& b : boxes)
            found = found || inside(b, node.lo, node.hi);
        EXPECT_TRUE(found) << "group " << g;
    }

    const auto root = mine.tree().nodes()[0];
    rubble::gravity::DomainBox whole{};
    for (int d = 0; d < 3; ++d) {
        whole.lo[d] = root.lo[d];
        whole.hi[d] = root.hi[d];
    }
    const auto one = rubble::gravity::essential_tree(theirs, std::span(&whole, 1));
    const auto few = rubble::gravity::essential_tree(theirs, boxes);
    std::printf("[measured] essential tree for one box: %zu nodes, %zu bodies; for %zu boxes: %zu "
                "nodes, %zu bodies\n",
                one.nodes.size(), one.x.size(), boxes.size(), few.nodes.size(), few.x.size());
    EXPECT_LT(few.nodes.size() + few.x.size(), one.nodes.size() + one.x.size());
    mine.walk(std::span(&one, 1), acc_one, phi);
    mine.walk(std::span(&few, 1), acc_few, phi);
    for (std::size_t k = 0; k < here.size(); ++k)
        ASSERT_EQ(acc_one[k], acc_few[k]) << "point " << k;
}
