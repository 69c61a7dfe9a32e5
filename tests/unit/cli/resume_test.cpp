// SPDX-License-Identifier: MIT
// A run stopped and resumed ends bitwise where an uninterrupted run ends.
#include <fstream>
#include <iterator>
#include <limits>

#include <gtest/gtest.h>

#include "cli_runner.hpp"
#include "gas_run.hpp"
#include "rubble/runfile/run_file.hpp"
#include "run_comparison.hpp"
#include "temp_dir.hpp"

using rubble::test::run_rubble;

namespace {

std::string params(const std::string& out) {
    return "[integrator]\ndt = 200.0\nn_steps = 60\n[output]\nfile = \"" + out +
           "\"\nsnapshot_interval = 2000.0\ndiagnostics_interval = 600.0\n"
           "[ic.cloud]\nn = 300\nsize = 500.0\nradius = 5.0\n"
           "[ic.motion]\nv0 = 0.01\nw0 = 1e-3\nomega = 1e-6\n";
}

void expect_same_state(const std::string& a, const std::string& b) {
    rubble::test::expect_same_final_state(a, b);
    rubble::test::expect_same_diagnostics(a, b);
}

} // namespace

TEST(Resume, StoppedAndResumedRunEqualsUninterruptedRunBitwise) {
    rubble::test::TempDir dir;
    const std::string whole = dir.file("whole.h5"), parts = dir.file("parts.h5");
    ASSERT_EQ(run_rubble({"run", dir.write("a.toml", params(whole)), "--quiet"}).code, 0);

    auto r =
        run_rubble({"run", dir.write("b.toml", params(parts)), "--quiet", "--stop-after", "17"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("rubble run --resume"), std::string::npos);
    EXPECT_FALSE(rubble::runfile::is_complete(parts));
    r = run_rubble({"run", "--resume", parts, "--quiet", "--stop-after", "25"});
    ASSERT_EQ(r.code, 0) << r.err;
    r = run_rubble({"run", "--resume", parts, "--quiet"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(rubble::runfile::is_complete(parts));
    expect_same_state(whole, parts);
}

TEST(Resume, AKilledRunLosesNothingBeforeItsLastSnapshot) {
    rubble::test::TempDir dir;
    const std::string whole = dir.file("whole.h5"), killed = dir.file("killed.h5");
    ASSERT_EQ(run_rubble({"run", dir.write("a.toml", params(whole)), "--quiet"}).code, 0);
    ASSERT_EQ(
        run_rubble({"run", dir.write("b.toml", params(killed)), "--quiet", "--stop-after", "30"})
            .code,
        0);
    // Diagnostics written past the last snapshot by a run that then died (step 30 was the
    // last snapshot; rows for later steps exist but no state to resume them from).
    {
        auto f = rubble::runfile::RunFile::open_existing(killed);
        rubble::integrate::Diagnostics junk;
        junk.step = 33;
        junk.total_energy = 123.0;
        f.append_diagnostics(junk);
        f.flush();
    }
    ASSERT_EQ(run_rubble({"run", "--resume", killed, "--quiet"}).code, 0);
    expect_same_state(whole, killed);
}

TEST(Resume, OnlyTheEndOfARunMayChange) {
    rubble::test::TempDir dir;
    const std::string out = dir.file("r.h5");
    ASSERT_EQ(run_rubble({"run", dir.write("a.toml", params(out)), "--quiet"}).code, 0);
    auto r = run_rubble({"run", "--resume", out, "--integrator.dt", "5"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("only integrator.t_end and integrator.n_steps may change"),
              std::string::npos);
    r = run_rubble({"run", "--resume", out, "--quiet", "--integrator.n_steps", "70"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(rubble::runfile::read_snapshot(out, -1).step, 70);
    EXPECT_TRUE(rubble::runfile::is_complete(out));
}

// With collisions the state also holds each body's distance since its last collision (the
// f_crit rule), the collision counters and the collision log: a resumed run must continue all
// of them exactly.
TEST(Resume, CollisionalRunResumesBitwiseWithItsLogAndCounters) {
    const auto gas = rubble::test::periodic_gas_run;
    rubble::test::TempDir dir;
    const std::string whole = dir.file("whole.h5"), parts = dir.file("parts.h5");
    auto r = run_rubble({"run", dir.write("a.toml", gas(whole)), "--quiet"});
    ASSERT_EQ(r.code, 0) << r.err;
    r = run_rubble({"run", dir.write("b.toml", gas(parts)), "--quiet", "--stop-after", "23"});
    ASSERT_EQ(r.code, 0) << r.err;
    r = run_rubble({"run", "--resume", parts, "--quiet"});
    ASSERT_EQ(r.code, 0) << r.err;
    rubble::test::expect_same_run(whole, parts);
    const auto da = rubble::runfile::read_diagnostics(whole);
    ASSERT_GT(da.back().collisions_total, 100.0);
    EXPECT_EQ(static_cast<double>(rubble::runfile::read_collision_log(whole).size()),
              da.back().collisions_total);
}

TEST(CollisionParameters, APeriodicBoxNeedsGravityOff) {
    rubble::test::TempDir dir;
    const auto r = run_rubble({"run",
                               dir.write("p.toml", "[integrator]\ndt = 1.0\nn_steps = 1\n"
                                                   "[collisions]\nenabled = true\n"
                                                   "periodic_box = 10.0\n"),
                               "--quiet"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("collisions.periodic_box"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("gravity.backend"), std::string::npos) << r.err;
}

namespace {

std::string file_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

TEST(Resume, AFinishedRunIsLeftUntouched) {
    rubble::test::TempDir dir;
    const std::string out = dir.file("r.h5");
    ASSERT_EQ(run_rubble({"run", dir.write("a.toml", params(out)), "--quiet"}).code, 0);
    const std::string before = file_bytes(out);
    auto r = run_rubble({"run", "--resume", out, "--quiet"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("already complete at step 60"), std::string::npos) << r.out;
    EXPECT_TRUE(file_bytes(out) == before) << "the file was changed";
    // An end before the last snapshot cannot be honoured: refused, the file unchanged.
    r = run_rubble({"run", "--resume", out, "--quiet", "--integrator.n_steps", "40"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("before that"), std::string::npos) << r.err;
    EXPECT_TRUE(file_bytes(out) == before) << "the file was changed";
}

TEST(Resume, ASnapshotWithNonFiniteValuesIsRefused) {
    rubble::test::TempDir dir;
    const std::string out = dir.file("r.h5");
    ASSERT_EQ(
        run_rubble({"run", dir.write("a.toml", params(out)), "--quiet", "--stop-after", "5"}).code,
        0);
    // A last snapshot in which one body's velocity is NaN (a damaged file, or a run written by
    // a version that did not stop on a non-finite state).
    auto snap = rubble::runfile::read_snapshot(out, -1);
    snap.bodies.vel[7].y() = std::numeric_limits<double>::quiet_NaN();
    {
        auto f = rubble::runfile::RunFile::open_existing(out);
        f.write_snapshot(snap.bodies, snap.time + 200.0, snap.step + 1);
    }
    const auto r = run_rubble({"run", "--resume", out, "--quiet"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(
        r.err.find("body id " + std::to_string(snap.bodies.id[7]) + " has a non-finite velocity"),
        std::string::npos)
        << r.err;
}

// Rigid aggregates (ic.cloud.grain) under the plain drift: the spheres table is written with
// every snapshot and read back on resume, so the bodies turn and attract exactly as in one run.
TEST(Resume, ACloudOfAggregatesResumesBitwise) {
    rubble::test::TempDir dir;
    const auto aggregates = [](const std::string& out) {
        return "[integrator]\ndt = 200.0\nn_steps = 30\n[output]\nfile = \"" + out +
               "\"\nsnapshot_interval = 2000.0\n"
               "[ic.cloud]\nn = 40\nsize = 500.0\nradius = 20.0\ngrain = \"hull\"\n"
               "spheres_per_grain = 10\n[ic.motion]\nv0 = 0.01\nw0 = 1e-3\nomega = 1e-6\n";
    };
    const std::string whole = dir.file("whole.h5"), parts = dir.file("parts.h5");
    auto r = run_rubble({"run", dir.write("a.toml", aggregates(whole)), "--quiet"});
    ASSERT_EQ(r.code, 0) << r.err;
    r = run_rubble(
        {"run", dir.write("b.toml", aggregates(parts)), "--quiet", "--stop-after", "13"});
    ASSERT_EQ(r.code, 0) << r.err;
    r = run_rubble({"run", "--resume", parts, "--quiet"});
    ASSERT_EQ(r.code, 0) << r.err;
    expect_same_state(whole, parts);
    const auto a = rubble::runfile::read_snapshot(whole, -1),
               b = rubble::runfile::read_snapshot(parts, -1);
    EXPECT_GT(a.bodies.spheres.size(), 5 * a.bodies.size());
    EXPECT_EQ(a.bodies.spheres.body, b.bodies.spheres.body);
    EXPECT_EQ(a.bodies.spheres.offset, b.bodies.spheres.offset);
    EXPECT_EQ(a.bodies.spheres.radius, b.bodies.spheres.radius);
    EXPECT_EQ(a.bodies.inertia, b.bodies.inertia);
    // The aggregates turned: spin w0 over 30 steps of 200 s is 6 rad.
    const auto first = rubble::runfile::read_snapshot(whole, 0);
    EXPECT_GT(first.bodies.orientation[0].angularDistance(a.bodies.orientation[0]), 0.1);
}
