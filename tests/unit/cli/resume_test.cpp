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
