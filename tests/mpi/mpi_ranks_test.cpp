// SPDX-License-Identifier: MIT
// Code written against core::Communicator, over MPI ranks (issue 34, items 2 and 7): the
// communicator's collectives against what they must give, the domain decomposition and
// migration checks of decomposition_checks.hpp and the direct and tree gravity across ranks of
// gravity_rank_checks.hpp (the unit suite runs them over thread ranks).
// ctest starts this program under mpirun with 1, 2, 3 and 4 ranks (tests/CMakeLists.txt).
#include <cstdio>
#include <cstdlib>

#include <gtest/gtest.h>

#include "decomposition_checks.hpp"
#include "gravity_rank_checks.hpp"
#include "rubble/mpi/mpi_session.hpp"

namespace {

rubble::core::Communicator* world = nullptr;

// Ranks other than 0 print only their failures, each led by the rank.
class FailuresOnly final : public testing::EmptyTestEventListener {
public:
    explicit FailuresOnly(int rank) : rank_(rank) {}
    void OnTestPartResult(const testing::TestPartResult& r) override {
        if (r.failed())
            std::printf("rank %d: %s:%d: failure\n%s\n", rank_, r.file_name() ? r.file_name() : "",
                        r.line_number(), r.summary());
    }

private:
    int rank_;
};

} // namespace

TEST(MpiRanks, CollectivesGiveEveryRankTheSameExactResult) {
    auto& w = *world;
    const std::int64_t r = w.rank(), p = w.size();
    EXPECT_EQ(w.sum(r + 1), p * (p + 1) / 2);
    EXPECT_EQ(w.max(r), p - 1);
    std::vector<std::int64_t> v{r, 10 - r};
    w.max_in_place(v);
    EXPECT_EQ(v, (std::vector<std::int64_t>{p - 1, 10}));
    std::vector<std::int64_t> s{1, r};
    w.sum_in_place(s);
    EXPECT_EQ(s, (std::vector<std::int64_t>{p, p * (p - 1) / 2}));
    std::vector<double> lo{0.5 * static_cast<double>(r), -1.0}, hi = lo;
    w.min_in_place(lo);
    w.max_in_place(hi);
    EXPECT_EQ(lo, (std::vector<double>{0.0, -1.0}));
    EXPECT_EQ(hi, (std::vector<double>{0.5 * static_cast<double>(p - 1), -1.0}));
    // EXPECTs only: a rank leaving the test early would leave the others in a collective.
    std::vector<std::int64_t> expected_all;
    for (std::int64_t q = 0; q < p; ++q)
        expected_all.push_back(100 + q);
    EXPECT_EQ(w.all_gather(100 + r), expected_all);
    // Rank r sends r + 1 bytes of value r + 16 q to rank q.
    std::vector<std::vector<std::byte>> out(static_cast<std::size_t>(p));
    for (std::int64_t q = 0; q < p; ++q)
        out[static_cast<std::size_t>(q)].assign(static_cast<std::size_t>(r + 1),
                                                std::byte(static_cast<unsigned char>(r + 16 * q)));
    std::vector<std::vector<std::byte>> expected_in;
    for (std::int64_t q = 0; q < p; ++q)
        expected_in.emplace_back(static_cast<std::size_t>(q + 1),
                                 std::byte(static_cast<unsigned char>(q + 16 * r)));
    EXPECT_EQ(w.exchange(out), expected_in);
    w.barrier();
}

TEST(MpiRanks, DecompositionAndMigrationOfAMixedCloud) {
    rubble::test::check_decomposition_and_migration(*world, 600);
}

TEST(MpiRanks, DirectGravityAcrossRanksIsTheSerialOneBitForBit) {
    rubble::test::check_distributed_direct(*world, 700);
}

TEST(MpiRanks, TreeGravityAcrossRanksHasTheSerialTreesErrorDistribution) {
    for (const double theta : {0.5, 0.7})
        (void)rubble::test::check_distributed_tree(*world, 3000, theta, 4);
}

int main(int argc, char** argv) {
    rubble::mpi::MpiSession session(argc, argv);
    world = &session.world();
    testing::InitGoogleTest(&argc, argv);
    // Rank 0 reports as usual, the others only their failures; every rank's failures fail
    // the run (the exit status is the largest over the ranks).
    if (world->rank() != 0) {
        auto& listeners = testing::UnitTest::GetInstance()->listeners();
        delete listeners.Release(listeners.default_result_printer());
        listeners.Append(new FailuresOnly(world->rank()));
    }
    const int failed = RUN_ALL_TESTS();
    return static_cast<int>(world->max(failed));
}
