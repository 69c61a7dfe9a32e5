// SPDX-License-Identifier: MIT
// A run stopped and resumed ends bitwise where an uninterrupted run ends.
#include <gtest/gtest.h>

#include "cli_runner.hpp"
#include "rubble/io/run_file.hpp"
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
    const auto sa = rubble::io::read_snapshot(a, -1), sb = rubble::io::read_snapshot(b, -1);
    EXPECT_EQ(sa.step, sb.step);
    EXPECT_EQ(sa.time, sb.time);
    EXPECT_EQ(sa.bodies.pos, sb.bodies.pos);
    EXPECT_EQ(sa.bodies.vel, sb.bodies.vel);
    EXPECT_EQ(sa.bodies.spin, sb.bodies.spin);
    for (std::size_t i = 0; i < sa.bodies.size(); ++i)
        ASSERT_EQ(sa.bodies.orientation[i].coeffs(), sb.bodies.orientation[i].coeffs());
    const auto da = rubble::io::read_diagnostics(a), db = rubble::io::read_diagnostics(b);
    ASSERT_EQ(da.size(), db.size());
    for (std::size_t i = 0; i < da.size(); ++i) {
        EXPECT_EQ(da[i].step, db[i].step);
        EXPECT_EQ(da[i].total_energy, db[i].total_energy);
        EXPECT_EQ(da[i].angular_momentum, db[i].angular_momentum);
    }
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
    EXPECT_FALSE(rubble::io::is_complete(parts));
    r = run_rubble({"run", "--resume", parts, "--quiet", "--stop-after", "25"});
    ASSERT_EQ(r.code, 0) << r.err;
    r = run_rubble({"run", "--resume", parts, "--quiet"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(rubble::io::is_complete(parts));
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
        auto f = rubble::io::RunFile::open_existing(killed);
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
    EXPECT_EQ(rubble::io::read_snapshot(out, -1).step, 70);
    EXPECT_TRUE(rubble::io::is_complete(out));
}

// With collisions the state also holds each body's distance since its last collision (the
// f_crit rule), the collision counters and the collision log: a resumed run must continue all
// of them exactly.
TEST(Resume, CollisionalRunResumesBitwiseWithItsLogAndCounters) {
    const auto gas = [](const std::string& out) {
        return "[integrator]\ndt = 0.05\nn_steps = 60\n[gravity]\nbackend = \"none\"\n"
               "[collisions]\nenabled = true\neps_n = 0.8\neps_t = 0.5\nf_crit = 0.3\n"
               "periodic_box = 6.0\n[output]\nfile = \"" +
               out +
               "\"\nsnapshot_interval = 0.5\ndiagnostics_interval = 0.25\ncollision_log = true\n"
               "[ic]\ntype = \"lattice\"\n[ic.lattice]\nnx = 6\nny = 6\nnz = 6\nspacing = 1.0\n"
               "radius = 0.4\n[ic.motion]\nv0 = 1.0\nw0 = 0.5\n";
    };
    rubble::test::TempDir dir;
    const std::string whole = dir.file("whole.h5"), parts = dir.file("parts.h5");
    auto r = run_rubble({"run", dir.write("a.toml", gas(whole)), "--quiet"});
    ASSERT_EQ(r.code, 0) << r.err;
    r = run_rubble({"run", dir.write("b.toml", gas(parts)), "--quiet", "--stop-after", "23"});
    ASSERT_EQ(r.code, 0) << r.err;
    r = run_rubble({"run", "--resume", parts, "--quiet"});
    ASSERT_EQ(r.code, 0) << r.err;
    expect_same_state(whole, parts);
    const auto sa = rubble::io::read_snapshot(whole, -1), sb = rubble::io::read_snapshot(parts, -1);
    EXPECT_EQ(sa.bodies.free_path, sb.bodies.free_path);
    const auto da = rubble::io::read_diagnostics(whole), db = rubble::io::read_diagnostics(parts);
    ASSERT_GT(da.back().collisions_total, 100.0);
    EXPECT_EQ(da.back().collisions_total, db.back().collisions_total);
    std::vector<std::int64_t> steps_a, steps_b;
    const auto la = rubble::io::read_collision_log(whole, &steps_a);
    const auto lb = rubble::io::read_collision_log(parts, &steps_b);
    ASSERT_EQ(la.size(), lb.size());
    EXPECT_EQ(static_cast<double>(la.size()), da.back().collisions_total);
    EXPECT_EQ(steps_a, steps_b);
    for (std::size_t k = 0; k < la.size(); ++k) {
        ASSERT_EQ(la[k].time, lb[k].time) << k;
        ASSERT_EQ(la[k].id1, lb[k].id1) << k;
        ASSERT_EQ(la[k].id2, lb[k].id2) << k;
    }
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
