// SPDX-License-Identifier: MIT
// The tree across ranks (issue 34, item 3; gravity/distributed_tree.hpp) over 1 to 4 thread
// ranks: over one rank the serial tree bit for bit, over several the serial tree's error
// distribution against direct summation at theta 0.5 and 0.7 (gravity_rank_checks.hpp; the
// MPI suite runs the same check over real ranks); an essential tree travels as bytes intact.
#include <cstdio>

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
