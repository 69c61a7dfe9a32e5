// SPDX-License-Identifier: MIT
// core::TimedCommunicator (`rubble run --rank-timings`): every collective forwarded unchanged,
// the time a rank waits for a late one counted as waiting, not as communication, and the bytes
// a rank hands to other ranks counted.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "rubble/core/timed_communicator.hpp"
#include "thread_ranks.hpp"

namespace {

using rubble::core::RankTimes;

TEST(TimedCommunicator, ForwardsEveryCollectiveAndCountsWhatEachRankSends) {
    constexpr int ranks = 3;
    std::vector<RankTimes> times(ranks);
    std::mutex m;
    rubble::test::ThreadRanks(ranks).run([&](rubble::core::Communicator& world) {
        rubble::core::TimedCommunicator timed(world);
        const std::int64_t r = timed.rank();
        EXPECT_EQ(timed.size(), ranks);
        EXPECT_EQ(timed.max(r), ranks - 1);
        EXPECT_EQ(timed.sum(r), 0 + 1 + 2);
        std::vector<std::int64_t> v{r, -r};
        timed.sum_in_place(v);
        EXPECT_EQ(v, (std::vector<std::int64_t>{3, -3}));
        EXPECT_EQ(timed.all_gather(10 * r), (std::vector<std::int64_t>{0, 10, 20}));
        // Rank r sends r + 1 bytes to each other rank and 100 to itself (not counted).
        std::vector<std::vector<std::byte>> to(ranks);
        for (int k = 0; k < ranks; ++k)
            to[static_cast<std::size_t>(k)].assign(k == r ? 100 : static_cast<std::size_t>(r + 1),
                                                   std::byte{1});
        const auto got = timed.exchange(to);
        for (int k = 0; k < ranks; ++k)
            EXPECT_EQ(got[static_cast<std::size_t>(k)].size(),
                      k == r ? 100u : static_cast<std::size_t>(k + 1));
        const std::lock_guard lock(m);
        times[static_cast<std::size_t>(r)] = timed.times();
    });
    for (int r = 0; r < ranks; ++r) {
        const RankTimes& t = times[static_cast<std::size_t>(r)];
        EXPECT_EQ(t.collectives, 5) << "rank " << r;
        // 8 bytes for each of max, sum and all_gather, 16 for the two-value sum, and the
        // exchange's 2 (r + 1) bytes to the other two ranks.
        EXPECT_EQ(t.bytes_sent, 8 + 8 + 16 + 8 + 2 * (r + 1)) << "rank " << r;
    }
}

TEST(TimedCommunicator, ARankThatWaitsForALateOneCountsItAsWaiting) {
    constexpr auto late = std::chrono::milliseconds(50);
    std::vector<RankTimes> times(2);
    std::mutex m;
    rubble::test::ThreadRanks(2).run([&](rubble::core::Communicator& world) {
        world.barrier(); // start together
        rubble::core::TimedCommunicator timed(world);
        if (timed.rank() == 1) std::this_thread::sleep_for(late);
        (void)timed.max(1);
        const std::lock_guard lock(m);
        times[static_cast<std::size_t>(timed.rank())] = timed.times();
    });
    // Rank 0 cannot leave the synchronisation before rank 1 arrives, at least `late` after
    // both left the barrier (less the barrier's own release skew, well under 10 ms).
    EXPECT_GT(times[0].waiting, 0.040);
    EXPECT_LT(times[1].waiting, times[0].waiting);
    EXPECT_LT(times[0].communication, times[0].waiting);
}

} // namespace
