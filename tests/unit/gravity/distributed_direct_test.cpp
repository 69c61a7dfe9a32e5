// SPDX-License-Identifier: MIT
// Direct gravity across ranks (issue 34, item 3) over 1 to 5 thread ranks: the serial forces
// bit for bit (gravity_rank_checks.hpp; the MPI suite runs the same check over real ranks);
// DirectGravity's rows of some targets are its full computation's rows; a point held twice is
// refused.
#include <gtest/gtest.h>

#include "gravity_rank_checks.hpp"
#include "thread_ranks.hpp"

TEST(DistributedDirect, OverOneToFiveRanksTheForcesAreTheSerialOnesBitForBit) {
    for (const int p : {1, 2, 3, 5}) {
        SCOPED_TRACE("ranks " + std::to_string(p));
        rubble::test::ThreadRanks ranks(p);
        ranks.run([](rubble::core::Communicator& world) {
            rubble::test::check_distributed_direct(world, 700);
        });
    }
}

TEST(DistributedDirect, SomeRowsAreTheRowsOfTheWholeAndAPointHeldTwiceIsRefused) {
    std::vector<rubble::Vec3> pos{{0, 0, 0}, {1, 0, 0}, {0, 2, 0}, {0, 0, 3}};
    std::vector<double> mass{1.0, 2.0, 3.0, 4.0};
    rubble::gravity::DirectGravity direct(1.0, 0.1);
    std::vector<rubble::Vec3> acc(4);
    std::vector<double> phi(4);
    direct.compute(pos, mass, acc, phi);
    std::vector<std::size_t> rows{3, 1};
    std::vector<rubble::Vec3> some(2);
    std::vector<double> some_phi(2);
    direct.compute_rows(pos, mass, rows, some, some_phi);
    EXPECT_EQ(some[0], acc[3]);
    EXPECT_EQ(some[1], acc[1]);
    EXPECT_EQ(some_phi[0], phi[3]);
    EXPECT_EQ(some_phi[1], phi[1]);

    rubble::test::ThreadRanks ranks(2);
    ranks.run([&](rubble::core::Communicator& world) {
        rubble::gravity::DistributedDirectGravity d(1.0, 0.1, world);
        std::vector<std::int64_t> order{7}; // both ranks say they hold point 7
        std::vector<rubble::Vec3> a(1);
        std::vector<double> f(1);
        EXPECT_THROW(d.compute(order, std::vector<rubble::Vec3>{pos[world.rank()]},
                               std::vector<double>{1.0}, a, f),
                     std::invalid_argument);
    });
}
