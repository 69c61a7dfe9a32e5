// SPDX-License-Identifier: MIT
// Domain decomposition and migration (issue 34, item 2) over 1 to 7 thread ranks
// (thread_ranks.hpp): the checks of decomposition_checks.hpp, which the MPI suite runs over
// real ranks; the packing of bodies as bytes; a subset of bodies and its appending; the
// degenerate clouds (all bodies at one point, fewer bodies than ranks, no weights).
#include <cmath>

#include <gtest/gtest.h>

#include "rubble/core/error.hpp"

#include "decomposition_checks.hpp"
#include "thread_ranks.hpp"

using rubble::Bodies;
using rubble::Vec3;

TEST(Decomposition, OverOneToSevenRanksEveryBodyLandsOnceWithEveryFieldAndAnEqualShare) {
    for (const int p : {1, 2, 3, 4, 7}) {
        SCOPED_TRACE("ranks " + std::to_string(p));
        rubble::test::ThreadRanks ranks(p);
        ranks.run([](rubble::core::Communicator& world) {
            rubble::test::check_decomposition_and_migration(world, 600);
        });
    }
}

TEST(Decomposition, DegenerateCloudsStillGiveEachBodyOneRank) {
    // Fewer bodies than ranks, all at one point, weights all zero (counted as one each).
    rubble::test::ThreadRanks ranks(4);
    ranks.run([](rubble::core::Communicator& world) {
        Bodies b;
        std::vector<std::int64_t> order, weight;
        if (world.rank() == 2) {
            for (std::int64_t id = 0; id < 3; ++id) {
                b.add_sphere(id, 1.0, 1.0, Vec3(5.0, 5.0, 5.0), Vec3::Zero(), Vec3::Zero());
                order.push_back(id);
                weight.push_back(0);
            }
        }
        const auto d = rubble::domain::decompose(b.pos, weight, world);
        EXPECT_EQ(d.total_weight, 3);
        std::vector<int> to;
        for (const Vec3& x : b.pos)
            to.push_back(d.owner(x));
        rubble::domain::migrate(b, order, to, world);
        EXPECT_EQ(world.sum(static_cast<std::int64_t>(b.size())), 3);
        // One key: all three bodies on one rank, the others empty.
        EXPECT_EQ(world.max(static_cast<std::int64_t>(b.size())), 3);
        // No bodies at all anywhere.
        Bodies none;
        std::vector<std::int64_t> nothing;
        const auto e = rubble::domain::decompose(none.pos, nothing, world);
        EXPECT_EQ(e.total_weight, 0);
        EXPECT_EQ(e.owner(Vec3(1.0, 2.0, 3.0)), 3); // every key in the last, non-empty range
    });
}

// A bad body on one rank is refused by every rank alike (a rank that threw alone would leave
// the others waiting in the next collective: with thread ranks, a hang, not a failure).
TEST(Decomposition, ABadBodyOnOneRankIsRefusedOnEveryRank) {
    rubble::test::ThreadRanks ranks(3);
    ranks.run([](rubble::core::Communicator& world) {
        std::vector<Vec3> pos{Vec3(1.0, 2.0, 3.0)};
        std::vector<std::int64_t> weight{1};
        if (world.rank() == 1) pos[0].y() = std::nan("");
        EXPECT_THROW((void)rubble::domain::decompose(pos, weight, world), rubble::InputError);
        if (world.rank() == 2) weight[0] = -4;
        pos[0].y() = 2.0;
        EXPECT_THROW((void)rubble::domain::decompose(pos, weight, world), rubble::InputError);
        Bodies b;
        b.add_sphere(world.rank(), 1.0, 1.0, pos[0], Vec3::Zero(), Vec3::Zero());
        std::vector<std::int64_t> order{world.rank()};
        std::vector<int> to{world.rank() == 0 ? 3 : 0}; // rank 0 names a rank that is not there
        EXPECT_THROW(rubble::domain::migrate(b, order, to, world), std::invalid_argument);
        EXPECT_EQ(b.size(), 1u); // nothing moved
    });
}

TEST(BodyPacking, BytesRoundTripBitwiseAndABadMessageIsRefused) {
    const Bodies ref = rubble::test::mixed_cloud(40);
    std::vector<std::size_t> rows{3, 1, 38, 2, 17};
    const Bodies part = ref.select(rows);
    EXPECT_NO_THROW(part.check_consistent());
    const std::vector<std::int64_t> order{30, 10, 380, 20, 170};
    const auto bytes = rubble::domain::pack_bodies(part, order);

    Bodies back = ref.select({});
    std::vector<std::int64_t> back_order{7};
    back.append(ref.select(std::vector<std::size_t>{0}));
    rubble::domain::unpack_bodies(bytes, back, back_order);
    ASSERT_EQ(back.size(), 6u);
    EXPECT_NO_THROW(back.check_consistent());
    EXPECT_EQ(back_order, (std::vector<std::int64_t>{7, 30, 10, 380, 20, 170}));
    rubble::test::expect_same_body(back, 0, ref, 0);
    for (std::size_t i = 0; i < rows.size(); ++i)
        rubble::test::expect_same_body(back, i + 1, ref, rows[i]);

    const std::vector<std::byte> shorter(bytes.begin(), bytes.end() - 1);
    auto longer = bytes;
    longer.push_back(std::byte{0});
    Bodies sink = ref.select({});
    std::vector<std::int64_t> sink_order;
    EXPECT_THROW(rubble::domain::unpack_bodies(shorter, sink, sink_order), std::length_error);
    EXPECT_THROW(rubble::domain::unpack_bodies(longer, sink, sink_order), std::length_error);
    // Hulls of another catalogue cannot be appended: their shape indices would mean other shapes.
    Bodies other = rubble::test::mixed_cloud(4);
    EXPECT_THROW(back.append(other), std::logic_error);
}
