// SPDX-License-Identifier: MIT
// SIGINT stops a run at the end of a step with a snapshot (exit 130), and the file resumes.
#include <chrono>
#include <csignal>
#include <filesystem>
#include <thread>

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_runner.hpp"
#include "rubble/runfile/run_file.hpp"
#include "temp_dir.hpp"

TEST(Interrupt, SigintLeavesAResumableFile) {
    rubble::test::TempDir dir;
    const std::string out = dir.file("long.h5");
    // Long enough (minutes) that the signal always arrives mid-run.
    const std::string params = dir.write(
        "p.toml", "[integrator]\ndt = 10.0\nn_steps = 100000000\n[output]\nfile = \"" + out +
                      "\"\nsnapshot_interval = 1.0e9\n[ic.cloud]\nn = 400\nsize = 800.0\n"
                      "radius = 5.0\n");
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        execl(RUBBLE_BINARY, RUBBLE_BINARY, "run", params.c_str(), "--quiet",
              static_cast<char*>(nullptr));
        _exit(127);
    }
    // Wait until the first snapshot is on disk (the run is in its loop), then interrupt.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    bool started = false;
    while (!started && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        try {
            started = std::filesystem::exists(out) && rubble::runfile::snapshot_count(out) >= 1;
        } catch (const std::exception&) {
            started = false; // the file is being written
        }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    kill(child, SIGINT);
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(started);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 130);
    EXPECT_FALSE(rubble::runfile::is_complete(out));
    const auto last = rubble::runfile::read_snapshot(out, -1);
    EXPECT_GT(last.step, 0);
    // The interrupted file resumes (a few more steps, then stop).
    const auto r =
        rubble::test::run_rubble({"run", "--resume", out, "--quiet", "--stop-after", "3"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(rubble::runfile::read_snapshot(out, -1).step, last.step + 3);
}
