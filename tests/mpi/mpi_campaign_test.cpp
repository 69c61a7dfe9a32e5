// SPDX-License-Identifier: MIT
// Campaigns over MPI ranks (issue 34, items 1, 6 and 7; docs/mpi.md): `mpirun -np P rubble
// campaign` with P = 1 to 4 runs every run once and each run is the serial campaign's run bit
// for bit; interrupted by a signal to mpirun and continued over another number of ranks it
// still ends there; the serial executable refuses to be started as several ranks, and the MPI
// one says what it is. Built only with the MPI executable (RUBBLE_MPI); mpirun is started as
// the suite's child, with --oversubscribe so that four ranks run on a two-core machine.
#include <chrono>
#include <csignal>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "child_process.hpp"
#include "cli_runner.hpp"
#include "mpirun.hpp"
#include "rubble/runfile/run_file.hpp"
#include "run_comparison.hpp"
#include "temp_dir.hpp"
#include "tiny_campaign.hpp"

namespace {

using rubble::test::campaign;
using rubble::test::run_files;

using rubble::test::mpirun;
using rubble::test::start_mpirun;
using rubble::test::text_of;

void expect_same_runs(const std::string& a, const std::string& b) {
    for (const char* f : run_files) {
        SCOPED_TRACE(f);
        ASSERT_TRUE(rubble::runfile::is_complete(b + "/" + f));
        rubble::test::expect_same_final_state(a + "/" + f, b + "/" + f);
        rubble::test::expect_same_diagnostics(a + "/" + f, b + "/" + f);
        rubble::test::expect_same_collision_log(a + "/" + f, b + "/" + f);
    }
}

// The serial campaign, once for the suite: what every rank count must reproduce.
class MpiCampaign : public testing::Test {
protected:
    static void SetUpTestSuite() {
        tmp_ = new rubble::test::TempDir;
        serial_ = tmp_->file("serial");
        const auto r = rubble::test::run_rubble(
            {"campaign", tmp_->write("serial.toml", campaign(serial_)), "--quiet"});
        ASSERT_EQ(r.code, 0) << r.err;
    }
    static void TearDownTestSuite() {
        delete tmp_;
        tmp_ = nullptr;
    }
    static rubble::test::TempDir* tmp_;
    static std::string serial_;
};
rubble::test::TempDir* MpiCampaign::tmp_ = nullptr;
std::string MpiCampaign::serial_;

} // namespace

TEST_F(MpiCampaign, OverOneToFourRanksEveryRunRunsOnceAsTheSerialOne) {
    for (int p = 1; p <= 4; ++p) {
        SCOPED_TRACE("ranks " + std::to_string(p));
        const std::string dir = tmp_->file("np" + std::to_string(p));
        const std::string file = tmp_->write("np" + std::to_string(p) + ".toml", campaign(dir));
        const auto r = mpirun(p, RUBBLE_MPI_BINARY, {"campaign", file, "--quiet"},
                              tmp_->file("np" + std::to_string(p) + ".txt"));
        ASSERT_TRUE(r.exit.exited && r.exit.code == 0) << r.output;
        EXPECT_NE(r.output.find("all 4 runs finished"), std::string::npos) << r.output;
        if (p > 1) {
            EXPECT_NE(r.output.find(", over " + std::to_string(p) + " ranks"), std::string::npos)
                << r.output;
        }
        for (int k = 1; k <= 4; ++k) {
            const std::string run = "run " + std::to_string(k) + "/4 (";
            const auto first = r.output.find(run);
            ASSERT_NE(first, std::string::npos) << r.output;
            EXPECT_EQ(r.output.find(run, first + 1), std::string::npos) << r.output;
        }
        expect_same_runs(serial_, dir);
    }
}

// SIGTERM to mpirun (what a scheduler sends at the end of a job's time) while two ranks are in
// their runs: whatever each rank had written stays, and the campaign continued over three ranks
// ends bitwise where the serial one ended.
TEST_F(MpiCampaign, InterruptedThroughMpirunAndContinuedOverOtherRanksEndsAsTheSerialOne) {
    // The signal goes once a run file has a few snapshots (a run's first tenth) and mpirun is
    // still running. On a loaded machine the whole campaign may end before this test looks
    // (it takes seconds): then it tries again in a fresh directory, at most three times.
    std::string dir, file, output;
    bool interrupted = false;
    for (int attempt = 0; attempt < 3 && !interrupted; ++attempt) {
        dir = tmp_->file("interrupted" + std::to_string(attempt));
        file = tmp_->write("interrupted" + std::to_string(attempt) + ".toml", campaign(dir));
        const std::string log = tmp_->file("int" + std::to_string(attempt) + ".txt");
        const pid_t child = start_mpirun(2, RUBBLE_MPI_BINARY, {"campaign", file, "--quiet"}, log);
        bool started = false;
        while (!started && rubble::test::still_running(child)) {
            for (const char* f : run_files) {
                try {
                    const std::string path = dir + "/" + f;
                    if (std::filesystem::exists(path) && rubble::runfile::snapshot_count(path) >= 3)
                        started = true;
                } catch (const std::exception&) {
                    // being written
                }
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        const bool in_time = started && rubble::test::still_running(child);
        if (in_time) kill(child, SIGTERM);
        const auto e = rubble::test::wait_for_child(child, std::chrono::minutes(2));
        output = text_of(log);
        if (!in_time) continue;
        EXPECT_FALSE(e.exited && e.code == 0) << output;
        interrupted = true;
    }
    ASSERT_TRUE(interrupted) << "the campaign ended three times before the signal\n" << output;
    int unfinished = 0;
    for (const char* f : run_files) {
        const std::string path = dir + "/" + f;
        unfinished += std::filesystem::exists(path) && rubble::runfile::is_complete(path) ? 0 : 1;
    }
    EXPECT_GE(unfinished, 1) << output;

    const auto again =
        mpirun(3, RUBBLE_MPI_BINARY, {"campaign", file, "--quiet"}, tmp_->file("again.txt"));
    ASSERT_TRUE(again.exit.exited && again.exit.code == 0) << output << again.output;
    EXPECT_NE(again.output.find("all 4 runs finished"), std::string::npos) << again.output;
    expect_same_runs(serial_, dir);
}

TEST(MpiLaunch, TheSerialExecutableRefusesToBeStartedAsSeveralRanks) {
    rubble::test::TempDir tmp;
    const auto r =
        mpirun(2, RUBBLE_BINARY, {"campaign", tmp.file("none.toml")}, tmp.file("serial_np2.txt"));
    EXPECT_TRUE(r.exit.exited && r.exit.code != 0) << r.output;
    EXPECT_NE(r.output.find("this rubble was built without MPI, but a launcher started it as "
                            "one of 2 ranks"),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find(RUBBLE_MPI_BINARY), std::string::npos) << r.output;
}

TEST(MpiLaunch, TheMpiExecutableSaysItIsOneAndHowManyRanksItHas) {
    rubble::test::TempDir tmp;
    const auto v = mpirun(2, RUBBLE_MPI_BINARY, {"--version"}, tmp.file("version.txt"));
    ASSERT_TRUE(v.exit.exited && v.exit.code == 0) << v.output;
    EXPECT_NE(v.output.find("MPI: on ("), std::string::npos) << v.output;
    EXPECT_NE(v.output.find("this job: 2 ranks"), std::string::npos) << v.output;
    // rank 0 alone prints
    EXPECT_EQ(v.output.find("MPI: on", v.output.find("MPI: on") + 1), std::string::npos)
        << v.output;
    const auto s = rubble::test::run_rubble({"--version"});
    EXPECT_NE(s.out.find("MPI: off in this executable; the MPI one of this build is " +
                         std::string(RUBBLE_MPI_BINARY)),
              std::string::npos)
        << s.out;
}
