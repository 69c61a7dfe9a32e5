// SPDX-License-Identifier: MIT
// What a run guarantees when it is stopped from outside: a full disk (a file size limit), a
// signal in the middle of a long drift or of the set-up, kill -9 at any moment. In every case
// the output keeps what it had, and resuming it gives bitwise the run that was not stopped.
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "child_process.hpp"
#include "cli_runner.hpp"
#include "rubble/runfile/run_file.hpp"
#include "run_comparison.hpp"
#include "temp_dir.hpp"

using rubble::test::run_rubble;
using namespace std::chrono_literals;

namespace {

// A collisional gas (gravity off, periodic box) with the collision log, snapshots every 10
// steps and diagnostics every 5: every kind of record a run writes, in a second or so.
std::string gas(const std::string& out, int n_steps = 120) {
    return "[integrator]\ndt = 0.05\nn_steps = " + std::to_string(n_steps) +
           "\n[gravity]\nbackend = \"none\"\n"
           "[collisions]\nenabled = true\neps_n = 0.8\neps_t = 0.5\nf_crit = 0.3\n"
           "periodic_box = 8.0\n[output]\nfile = \"" +
           out +
           "\"\noverwrite = true\nsnapshot_interval = 0.5\ndiagnostics_interval = 0.25\n"
           "collision_log = true\n[ic]\ntype = \"lattice\"\n[ic.lattice]\nnx = 8\nny = 8\n"
           "nz = 8\nspacing = 1.0\nradius = 0.4\n[ic.motion]\nv0 = 1.0\nw0 = 0.5\n";
}

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

bool has_snapshot(const std::string& path) {
    try {
        return std::filesystem::exists(path) && rubble::runfile::snapshot_count(path) > 0;
    } catch (const std::exception&) {
        return false;
    }
}

// The step of the last snapshot of a file that another process may be writing (-1: none, or
// the write is in progress: a reader without a lock can see it half done).
std::int64_t last_snapshot_step(const std::string& path) {
    try {
        return has_snapshot(path) ? rubble::runfile::read_snapshot(path, -1).step : -1;
    } catch (const std::exception&) {
        return -1;
    }
}

} // namespace

// A write that cannot get its space fails before it touches the file: the run ends with exit 1
// and a message that says what failed and what was kept, every earlier snapshot stays
// readable, and the file resumes (once there is room) to exactly the uninterrupted run.
TEST(FaultInjection, AFullDiskKeepsEveryEarlierSnapshotAndResumesExactly) {
    rubble::test::TempDir dir;
    const std::string whole = dir.file("whole.h5");
    ASSERT_EQ(run_rubble({"run", dir.write("whole.toml", gas(whole)), "--quiet"}).code, 0);
    const auto full_size = std::filesystem::file_size(whole);
    for (const double fraction : {0.55, 0.7, 0.85}) {
        SCOPED_TRACE(fraction);
        const std::string out = dir.file("capped.h5"), log = dir.file("capped.log");
        const auto limit = static_cast<std::uint64_t>(fraction * static_cast<double>(full_size));
        const pid_t child = rubble::test::spawn_rubble(
            {"run", dir.write("capped.toml", gas(out)), "--quiet"}, {limit, log, {}});
        const auto end = rubble::test::wait_for_child(child, 120s);
        ASSERT_TRUE(end.exited);
        EXPECT_EQ(end.code, 1);
        const std::string message = read_text(log);
        EXPECT_NE(message.find("file too large"), std::string::npos) << message;
        EXPECT_NE(message.find("keeps its snapshots up to step"), std::string::npos) << message;
        // The output named by the key that named it, with where that was set.
        EXPECT_NE(message.find("writing the output output.file = \""), std::string::npos)
            << message;
        EXPECT_NE(message.find("capped.toml:"), std::string::npos) << message;
        EXPECT_FALSE(rubble::runfile::is_complete(out));
        // Every snapshot written is whole and bitwise the uninterrupted run's.
        const auto count = rubble::runfile::snapshot_count(out);
        ASSERT_GT(count, 0);
        for (std::int64_t k = 0; k < count; ++k)
            EXPECT_EQ(rubble::runfile::read_snapshot(out, k).bodies.pos,
                      rubble::runfile::read_snapshot(whole, k).bodies.pos);
        const auto r = run_rubble({"run", "--resume", out, "--quiet"});
        ASSERT_EQ(r.code, 0) << r.err;
        rubble::test::expect_same_run(whole, out);
    }
}

// kill -9 at moments spread over the run (seeded): whatever the moment, the file resumes to
// exactly the uninterrupted run, or holds no snapshot yet (killed while being created).
TEST(FaultInjection, KillNineAtAnyMomentLosesNothing) {
    rubble::test::TempDir dir;
    const std::string whole = dir.file("whole.h5");
    const pid_t first =
        rubble::test::spawn_rubble({"run", dir.write("whole.toml", gas(whole)), "--quiet"});
    const auto uninterrupted = rubble::test::wait_for_child(first, 120s);
    ASSERT_TRUE(uninterrupted.exited);
    ASSERT_EQ(uninterrupted.code, 0);
    std::mt19937 random(18);
    std::uniform_real_distribution<double> moment(0.0, uninterrupted.seconds);
    for (int trial = 0; trial < 6; ++trial) {
        SCOPED_TRACE(trial);
        const std::string out = dir.file("killed.h5");
        std::filesystem::remove(out);
        const pid_t child =
            rubble::test::spawn_rubble({"run", dir.write("killed.toml", gas(out)), "--quiet"});
        std::this_thread::sleep_for(std::chrono::duration<double>(moment(random)));
        kill(child, SIGKILL);
        (void)rubble::test::wait_for_child(child, 60s);
        if (!has_snapshot(out)) continue; // nothing was written yet: there is nothing to lose
        EXPECT_FALSE(rubble::runfile::is_complete(out) &&
                     rubble::runfile::read_snapshot(out, -1).step < 120);
        const auto r = run_rubble({"run", "--resume", out, "--quiet"});
        ASSERT_EQ(r.code, 0) << r.err;
        rubble::test::expect_same_run(whole, out);
    }
}

// SIGTERM in the middle of a long drift: the run ends within about two seconds (the drift is
// abandoned, not finished), its last snapshot is the start of the abandoned step, and the file
// resumes to exactly the uninterrupted run. Each drift of this dense, elastic gas of 64,000
// spheres holds about 420,000 collisions: long enough (about a second on one core) that the
// signal sent a quarter of a drift in finds the run inside it on a fast machine too.
TEST(FaultInjection, SigtermInALongDriftStopsAtOnceAndResumesExactly) {
    const auto dense = [](const std::string& out) {
        return "[integrator]\ndt = 1.8\nn_steps = 2\n[gravity]\nbackend = \"none\"\n"
               "[collisions]\nenabled = true\neps_n = 1.0\neps_t = 1.0\nperiodic_box = 40.0\n"
               "[output]\nfile = \"" +
               out +
               "\"\noverwrite = true\nsnapshot_interval = 1.8\ncollision_log = true\n"
               "[ic]\ntype = \"lattice\"\n[ic.lattice]\nnx = 40\nny = 40\nnz = 40\n"
               "spacing = 1.0\nradius = 0.42\n[ic.motion]\nv0 = 1.0\n";
    };
    rubble::test::TempDir dir;
    const std::string whole = dir.file("whole.h5"), out = dir.file("stopped.h5");
    const pid_t first =
        rubble::test::spawn_rubble({"run", dir.write("whole.toml", dense(whole)), "--quiet"});
    const auto uninterrupted = rubble::test::wait_for_child(first, 300s);
    ASSERT_TRUE(uninterrupted.exited);
    ASSERT_EQ(uninterrupted.code, 0);

    const std::string log = dir.file("stopped.log");
    const pid_t child = rubble::test::spawn_rubble(
        {"run", dir.write("stopped.toml", dense(out)), "--quiet"}, {0, log, {}});
    // The first step's snapshot marks the start of the second drift; a quarter of a drift
    // later the run is inside it.
    const auto deadline = std::chrono::steady_clock::now() + 300s;
    while (std::chrono::steady_clock::now() < deadline && rubble::test::still_running(child)) {
        if (last_snapshot_step(out) == 1) break;
        std::this_thread::sleep_for(10ms);
    }
    std::this_thread::sleep_for(
        std::chrono::duration<double>(std::max(0.2, uninterrupted.seconds / 8.0)));
    kill(child, SIGTERM);
    const auto end = rubble::test::wait_for_child(child, 60s);
    ASSERT_TRUE(end.exited) << read_text(log);
    EXPECT_EQ(end.code, 130);
    EXPECT_LT(end.seconds, 2.0);
    EXPECT_NE(read_text(log).find("interrupted at step 1"), std::string::npos) << read_text(log);
    EXPECT_EQ(rubble::runfile::read_snapshot(out, -1).step, 1);
    const auto r = run_rubble({"run", "--resume", out, "--quiet"});
    ASSERT_EQ(r.code, 0) << r.err;
    rubble::test::expect_same_run(whole, out);
}

// A signal while a large cloud is being placed ends the run at once with a message, and
// leaves no output that could pass for a run.
TEST(FaultInjection, SigtermDuringTheSetUpEndsTheRunWithAMessage) {
    rubble::test::TempDir dir;
    const std::string out = dir.file("never.h5"), log = dir.file("setup.log");
    const pid_t child = rubble::test::spawn_rubble(
        {"run",
         dir.write("big.toml", "[integrator]\ndt = 10.0\nn_steps = 10\n[output]\nfile = \"" + out +
                                   "\"\n[ic.cloud]\nn = 3000000\nsize = 1.0e6\nradius = 5.0\n"),
         "--quiet"},
        {0, log, {}});
    std::this_thread::sleep_for(300ms);
    kill(child, SIGTERM);
    const auto end = rubble::test::wait_for_child(child, 60s);
    ASSERT_TRUE(end.exited);
    EXPECT_EQ(end.code, 130);
    EXPECT_LT(end.seconds, 2.0);
    EXPECT_NE(read_text(log).find("interrupted while setting up"), std::string::npos)
        << read_text(log);
    EXPECT_FALSE(std::filesystem::exists(out));
}
