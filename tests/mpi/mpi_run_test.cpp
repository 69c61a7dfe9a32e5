// SPDX-License-Identifier: MIT
// One simulation over MPI ranks (issue 34, items 1, 3, 5 and 7; docs/mpi.md): `mpirun -np P
// rubble run` of a gravity-only cloud writes the serial run's file bit for bit for P = 1 to
// 4; interrupted by SIGTERM to mpirun it resumes over another number of ranks to the serial
// run's end; what cannot run over ranks yet is refused once, naming the key. The same checks
// over ranks as threads run in the unit suite (tests/unit/run/run_over_ranks_test.cpp).
#include <chrono>
#include <csignal>
#include <filesystem>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "cli_runner.hpp"
#include "mpirun.hpp"
#include "rubble/runfile/run_file.hpp"
#include "run_comparison.hpp"
#include "temp_dir.hpp"

namespace {

using rubble::test::mpirun;

// A cloud of n boulders falling together under direct summation, no contacts, t_end in s.
std::string cloud(const std::string& out, int n, double t_end) {
    return "[integrator]\ndt = 50.0\nt_end = " + std::to_string(t_end) +
           "\n[gravity]\nbackend = \"direct\"\nsoftening = 5.0\n[output]\nfile = \"" + out +
           "\"\nsnapshot_interval = 1000.0\ndiagnostics_interval = 300.0\n[ic.motion]\n"
           "v0 = 0.02\nw0 = 1e-3\n[ic.cloud]\nn = " +
           std::to_string(n) + "\nsize = 1000.0\nradius = 5.0\ndensity = 2000.0\n";
}

void expect_same_snapshots(const std::string& a, const std::string& b) {
    const auto n = rubble::runfile::snapshot_count(a);
    ASSERT_EQ(n, rubble::runfile::snapshot_count(b));
    for (std::int64_t k = 0; k < n; ++k) {
        const auto sa = rubble::runfile::read_snapshot(a, k);
        const auto sb = rubble::runfile::read_snapshot(b, k);
        EXPECT_EQ(sa.step, sb.step) << k;
        EXPECT_EQ(sa.bodies.id, sb.bodies.id) << k;
        EXPECT_EQ(sa.bodies.pos, sb.bodies.pos) << k;
        EXPECT_EQ(sa.bodies.vel, sb.bodies.vel) << k;
    }
}

TEST(MpiRun, AGravityRunOverOneToFourRanksWritesTheSerialFileBitwise) {
    rubble::test::TempDir tmp;
    const std::string serial = tmp.file("serial.h5");
    const auto s = rubble::test::run_rubble(
        {"run", tmp.write("serial.toml", cloud(serial, 300, 6000.0)), "--quiet"});
    ASSERT_EQ(s.code, 0) << s.err;
    for (int p = 1; p <= 4; ++p) {
        SCOPED_TRACE("ranks " + std::to_string(p));
        const std::string name = "np" + std::to_string(p);
        const std::string out = tmp.file(name + ".h5");
        const auto r =
            mpirun(p, RUBBLE_MPI_BINARY,
                   {"run", tmp.write(name + ".toml", cloud(out, 300, 6000.0)), "--quiet"},
                   tmp.file(name + ".txt"));
        ASSERT_TRUE(r.exit.exited && r.exit.code == 0) << r.output;
        // rank 0 alone reports
        const auto at = r.output.find("rubble: 300 bodies, gravity backend direct");
        ASSERT_NE(at, std::string::npos) << r.output;
        EXPECT_EQ(r.output.find("rubble: 300 bodies", at + 1), std::string::npos) << r.output;
        ASSERT_TRUE(rubble::runfile::is_complete(out));
        rubble::test::expect_same_run(serial, out);
        expect_same_snapshots(serial, out);
    }
}

// SIGTERM to mpirun (what a scheduler sends) while two ranks run: every rank stops after the
// same step and rank 0 writes it (or, if Open MPI kills them first, the journal rolls the file
// back to its last snapshot); the run resumed over three ranks ends as the serial run. The run
// takes seconds: mpirun passes the signal on to the ranks most of a second after it gets it.
TEST(MpiRun, InterruptedThroughMpirunItResumesOverThreeRanksToTheSerialRun) {
    rubble::test::TempDir tmp;
    const std::string serial = tmp.file("serial.h5");
    const auto s = rubble::test::run_rubble(
        {"run", tmp.write("serial.toml", cloud(serial, 400, 6e5)), "--quiet"});
    ASSERT_EQ(s.code, 0) << s.err;
    // The signal goes once the file has a few snapshots and mpirun still runs; on a loaded
    // machine the run may end first: then again in a fresh file, at most three times.
    std::string out, output;
    bool interrupted = false;
    for (int attempt = 0; attempt < 3 && !interrupted; ++attempt) {
        out = tmp.file("out" + std::to_string(attempt) + ".h5");
        const std::string log = tmp.file("int" + std::to_string(attempt) + ".txt");
        const pid_t child = rubble::test::start_mpirun(
            2, RUBBLE_MPI_BINARY, {"run", tmp.write("int.toml", cloud(out, 400, 6e5)), "--quiet"},
            log);
        bool started = false;
        while (!started && rubble::test::still_running(child)) {
            try {
                started = std::filesystem::exists(out) && rubble::runfile::snapshot_count(out) >= 5;
            } catch (const std::exception&) {
                // being written
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        const bool in_time = started && rubble::test::still_running(child);
        if (in_time) kill(child, SIGTERM);
        const auto e = rubble::test::wait_for_child(child, std::chrono::minutes(2));
        output = rubble::test::text_of(log);
        if (!in_time) continue;
        EXPECT_FALSE(e.exited && e.code == 0) << output;
        interrupted = true;
    }
    ASSERT_TRUE(interrupted) << "the run ended three times before the signal\n" << output;
    EXPECT_FALSE(rubble::runfile::is_complete(out)) << output;

    const auto again =
        mpirun(3, RUBBLE_MPI_BINARY, {"run", "--resume", out, "--quiet"}, tmp.file("again.txt"));
    ASSERT_TRUE(again.exit.exited && again.exit.code == 0) << output << again.output;
    EXPECT_NE(again.output.find("resuming '" + out + "'"), std::string::npos) << again.output;
    ASSERT_TRUE(rubble::runfile::is_complete(out));
    rubble::test::expect_same_final_state(serial, out);
    rubble::test::expect_same_diagnostics(serial, out);
}

TEST(MpiRun, ContactsOverSeveralRanksAreRefusedOnceNamingTheKey) {
    rubble::test::TempDir tmp;
    const auto run = mpirun(2, RUBBLE_MPI_BINARY,
                            {"run", std::string(RUBBLE_SOURCE_DIR) + "/params/default.toml",
                             "--output.file", tmp.file("default.h5")},
                            tmp.file("run.txt"));
    EXPECT_TRUE(run.exit.exited && run.exit.code == 2) << run.output;
    const auto at = run.output.find("collisions.enabled = true");
    ASSERT_NE(at, std::string::npos) << run.output;
    EXPECT_NE(run.output.find("over several MPI ranks is not available yet"), std::string::npos)
        << run.output;
    EXPECT_EQ(run.output.find("collisions.enabled = true", at + 1), std::string::npos)
        << run.output;
    EXPECT_FALSE(std::filesystem::exists(tmp.file("default.h5")));
}

} // namespace
