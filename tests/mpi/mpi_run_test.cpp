// SPDX-License-Identifier: MIT
// One simulation over MPI ranks (issue 34, items 1, 3, 5 and 7; docs/mpi.md): `mpirun -np P
// rubble run` of a gravity-only cloud writes the serial run's file bit for bit for P = 1 to
// 4; interrupted by SIGTERM to mpirun it resumes over another number of ranks to the serial
// run's end, and so does a run one of whose ranks was killed with SIGKILL; a tree run stopped
// and resumed over three ranks is the uninterrupted one bit for bit; the main job's
// collisions over three ranks are the serial ones, and so is every grain model's run; what
// cannot run over ranks yet (the GPU backends) is refused once, naming the key. The same checks
// over ranks as threads run in the unit suite (tests/unit/run/run_over_ranks_test.cpp).
#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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
        rubble::test::expect_same_snapshots(serial, out);
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
        {"run", tmp.write("serial.toml", cloud(serial, 300, 4e5)), "--quiet"});
    ASSERT_EQ(s.code, 0) << s.err;
    // The signal goes once the file has a few snapshots and mpirun still runs; on a loaded
    // machine the run may end first: then again in a fresh file, at most three times.
    std::string out, output;
    bool interrupted = false;
    for (int attempt = 0; attempt < 3 && !interrupted; ++attempt) {
        out = tmp.file("out" + std::to_string(attempt) + ".h5");
        const std::string log = tmp.file("int" + std::to_string(attempt) + ".txt");
        const pid_t child = rubble::test::start_mpirun(
            2, RUBBLE_MPI_BINARY, {"run", tmp.write("int.toml", cloud(out, 300, 4e5)), "--quiet"},
            log);
        const bool in_time = rubble::test::snapshots_while_running(child, out, 5);
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

// The tree over ranks: stopped after 37 steps over three ranks (--stop-after) and resumed over
// three, the run is the uninterrupted three-rank run bit for bit, through the weights of the
// decomposition its snapshots store (docs/mpi.md, "Weights").
TEST(MpiRun, ATreeRunStoppedAndResumedOverThreeRanksIsTheUninterruptedOneBitwise) {
    rubble::test::TempDir tmp;
    const auto tree = [&](const std::string& out) {
        std::string text = cloud(out, 400, 6000.0);
        text.replace(text.find("backend = \"direct\""), 18,
                     "backend = \"tree\"\ntheta = 0.5\nmultipole_order = 2");
        return text;
    };
    const std::string whole = tmp.file("whole.h5"), parts = tmp.file("parts.h5");
    const auto w =
        mpirun(3, RUBBLE_MPI_BINARY, {"run", tmp.write("whole.toml", tree(whole)), "--quiet"},
               tmp.file("whole.txt"));
    ASSERT_TRUE(w.exit.exited && w.exit.code == 0) << w.output;
    const auto first =
        mpirun(3, RUBBLE_MPI_BINARY,
               {"run", tmp.write("parts.toml", tree(parts)), "--quiet", "--stop-after", "37"},
               tmp.file("first.txt"));
    ASSERT_TRUE(first.exit.exited && first.exit.code == 0) << first.output;
    EXPECT_FALSE(rubble::runfile::read_snapshot(parts, -1).decomposition_weight.empty());
    const auto rest =
        mpirun(3, RUBBLE_MPI_BINARY, {"run", "--resume", parts, "--quiet"}, tmp.file("rest.txt"));
    ASSERT_TRUE(rest.exit.exited && rest.exit.code == 0) << rest.output;
    rubble::test::expect_same_final_state(whole, parts);
    rubble::test::expect_same_diagnostics(whole, parts);
}

// The processes whose parent is `parent` (mpirun's ranks), from /proc.
std::vector<pid_t> children_of(pid_t parent) {
    std::vector<pid_t> out;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream stat(entry.path() / "stat");
        std::string line;
        if (!std::getline(stat, line)) continue;
        // pid (comm) state ppid ...: comm may hold spaces, so read after its closing ')'.
        const auto close = line.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream rest(line.substr(close + 1));
        std::string state;
        long ppid = 0;
        rest >> state >> ppid;
        if (ppid == parent) out.push_back(static_cast<pid_t>(std::stol(name)));
    }
    return out;
}

// kill -9 of one rank in the middle of a run (of rank 0, the writer, perhaps in a write):
// Open MPI ends the job; the file keeps what was durable, its journal rolls back a torn
// write on the next open, and the run resumed over two ranks ends as the serial run.
TEST(MpiRun, KillingOneRankLeavesAFileThatResumesOverOtherRanksToTheSerialRun) {
    rubble::test::TempDir tmp;
    const std::string serial = tmp.file("serial.h5");
    const auto s = rubble::test::run_rubble(
        {"run", tmp.write("serial.toml", cloud(serial, 300, 4e5)), "--quiet"});
    ASSERT_EQ(s.code, 0) << s.err;
    for (const int victim : {0, 2}) {
        SCOPED_TRACE("killed: the rank started " + std::to_string(victim) + "th");
        const std::string out = tmp.file("killed" + std::to_string(victim) + ".h5");
        const std::string log = tmp.file("killed" + std::to_string(victim) + ".txt");
        const pid_t child = rubble::test::start_mpirun(
            3, RUBBLE_MPI_BINARY, {"run", tmp.write("k.toml", cloud(out, 300, 4e5)), "--quiet"},
            log);
        ASSERT_TRUE(rubble::test::snapshots_while_running(child, out, 5))
            << rubble::test::text_of(log);
        std::vector<pid_t> ranks = children_of(child);
        std::sort(ranks.begin(), ranks.end());
        ASSERT_EQ(ranks.size(), 3u) << rubble::test::text_of(log);
        kill(ranks[static_cast<std::size_t>(victim)], SIGKILL);
        const auto e = rubble::test::wait_for_child(child, std::chrono::minutes(2));
        EXPECT_FALSE(e.exited && e.code == 0) << rubble::test::text_of(log);
        const auto again = mpirun(2, RUBBLE_MPI_BINARY, {"run", "--resume", out, "--quiet"},
                                  tmp.file("again" + std::to_string(victim) + ".txt"));
        ASSERT_TRUE(again.exit.exited && again.exit.code == 0) << again.output;
        ASSERT_TRUE(rubble::runfile::is_complete(out));
        rubble::test::expect_same_final_state(serial, out);
        rubble::test::expect_same_diagnostics(serial, out);
    }
}

// The main job's pile (params/default.toml: 2,500 boulders, direct summation, inelastic
// collisions with the guards) for its first 2,000 s over three ranks: the contacts run on
// rank 0 over the gathered state, so the file, collision log included, is the serial one.
TEST(MpiRun, TheMainJobsCollisionsOverThreeRanksAreTheSerialOnesBitwise) {
    rubble::test::TempDir tmp;
    const std::string params = std::string(RUBBLE_SOURCE_DIR) + "/params/default.toml";
    const std::vector<std::string> common{"--integrator.t_end", "2000", "--output.collision_log",
                                          "true", "--quiet"};
    const std::string serial = tmp.file("serial.h5"), out = tmp.file("np3.h5");
    std::vector<std::string> a{"run", params, "--output.file", serial};
    a.insert(a.end(), common.begin(), common.end());
    const auto s = rubble::test::run_rubble(a);
    ASSERT_EQ(s.code, 0) << s.err;
    std::vector<std::string> b{"run", params, "--output.file", out};
    b.insert(b.end(), common.begin(), common.end());
    const auto r = mpirun(3, RUBBLE_MPI_BINARY, b, tmp.file("np3.txt"));
    ASSERT_TRUE(r.exit.exited && r.exit.code == 0) << r.output;
    rubble::test::expect_same_run(serial, out);
    EXPECT_GT(rubble::runfile::read_diagnostics(out).back().collisions_total, 100.0);
}

// Every grain model over three ranks (aggregates, polyhedra with their NSC contacts and warm
// starts, free spheres that stick into aggregates during the run): the serial file.
TEST(MpiRun, EveryGrainModelOverThreeRanksWritesTheSerialFileBitwise) {
    rubble::test::TempDir tmp;
    const std::string dir = std::string(RUBBLE_SOURCE_DIR) + "/params/";
    const std::vector<std::vector<std::string>> cases{
        {dir + "bouncing_cubes.toml"},
        {dir + "box_settling.toml", "--integrator.t_end", "1.0"}, // the drift spread, walls
        {dir + "granular_gas.toml", "--integrator.t_end", "2.0"}, // and in a periodic box
        {dir + "polyhedra_pile.toml", "--integrator.t_end", "2000"},
        {dir + "tumbling_asteroid.toml"},
        {dir + "default.toml", "--collisions.outcome", "stick", "--integrator.t_end", "2000"}};
    for (std::size_t k = 0; k < cases.size(); ++k) {
        SCOPED_TRACE(cases[k][0]);
        const std::string id = std::to_string(k);
        const std::string serial = tmp.file(id + "_serial.h5");
        const std::string out = tmp.file(id + "_np3.h5");
        std::vector<std::string> a{"run"};
        a.insert(a.end(), cases[k].begin(), cases[k].end());
        a.insert(a.end(), {"--quiet", "--output.file"});
        std::vector<std::string> b = a;
        a.push_back(serial);
        b.push_back(out);
        const auto s = rubble::test::run_rubble(a);
        ASSERT_EQ(s.code, 0) << s.err;
        const auto r = mpirun(3, RUBBLE_MPI_BINARY, b, tmp.file(id + "_np3.txt"));
        ASSERT_TRUE(r.exit.exited && r.exit.code == 0) << r.output;
        rubble::test::expect_same_run(serial, out);
        rubble::test::expect_same_snapshots(serial, out);
    }
}

TEST(MpiRun, TheGpuBackendsOverSeveralRanksAreRefusedOnceNamingTheKey) {
    rubble::test::TempDir tmp;
    const auto run =
        mpirun(2, RUBBLE_MPI_BINARY,
               {"run", std::string(RUBBLE_SOURCE_DIR) + "/params/default.toml", "--gravity.backend",
                "gpu-tree", "--output.file", tmp.file("default.h5")},
               tmp.file("run.txt"));
    EXPECT_TRUE(run.exit.exited && run.exit.code == 2) << run.output;
    const auto at = run.output.find("gravity.backend = \"gpu-tree\"");
    ASSERT_NE(at, std::string::npos) << run.output;
    EXPECT_NE(run.output.find("over several MPI ranks is not available yet"), std::string::npos)
        << run.output;
    EXPECT_EQ(run.output.find("gravity.backend = \"gpu-tree\"", at + 1), std::string::npos)
        << run.output;
    EXPECT_FALSE(std::filesystem::exists(tmp.file("default.h5")));
}

} // namespace
