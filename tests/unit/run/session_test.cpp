// SPDX-License-Identifier: MIT
// run::Session: a run in pieces writes what the run at once writes, bit for bit; finish()
// before the end leaves a file that resumes to the whole run; bodies replaced between steps
// are checked, written at once and resumed from; gravity.aggregates = "centres" takes each
// aggregate as one mass point.
#include <algorithm>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gas_run.hpp"
#include "rubble/config/parameters.hpp"
#include "rubble/core/error.hpp"
#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/run/run_driver.hpp"
#include "rubble/run/session.hpp"
#include "rubble/runfile/run_file.hpp"
#include "run_comparison.hpp"
#include "temp_dir.hpp"

namespace {

using rubble::run::RunEnd;
using rubble::run::RunRequest;
using rubble::run::Session;

// The periodic gas of gas_run.hpp: 216 spheres colliding in every step, 60 steps of 0.05 s,
// a snapshot every 10 steps.
RunRequest session_gas(const std::string& out) {
    RunRequest r;
    r.params = rubble::config::parse_parameters(rubble::test::periodic_gas_run(out), "gas.toml");
    r.params_path = "gas.toml";
    return r;
}

// The events a run tells its observer, in order, and its step count.
struct SessionEvents final : rubble::run::RunObserver {
    std::vector<std::string> events;
    int steps = 0;
    void output_begins() override { events.emplace_back("output"); }
    void loop_begins(const rubble::run::StepProgress&) override { events.emplace_back("loop"); }
    void step_done(const rubble::run::StepProgress&) override { ++steps; }
    void loop_done() override { events.emplace_back("done"); }
};

TEST(Session, ARunInPiecesIsTheRunAtOnceBitwise) {
    rubble::test::TempDir dir;
    const std::string whole = dir.file("whole.h5"), pieces = dir.file("pieces.h5");
    SessionEvents a, b;
    ASSERT_EQ(rubble::run::run_simulation(session_gas(whole), a).end, RunEnd::end_time);
    Session s(session_gas(pieces), b);
    EXPECT_EQ(s.end_step(), 60);
    EXPECT_TRUE(s.advance(3));
    EXPECT_EQ(s.step(), 3);
    // t = 0.52 s lies between steps 10 and 11 (dt = 0.05 s): the first step at or after it.
    EXPECT_TRUE(s.advance_to(0.52));
    EXPECT_EQ(s.step(), 11);
    EXPECT_TRUE(s.advance_to(0.1)); // already past: nothing runs
    EXPECT_EQ(s.step(), 11);
    EXPECT_TRUE(s.advance(0));
    while (s.advance(7)) {
    }
    EXPECT_EQ(s.step(), 60);
    EXPECT_FALSE(s.running());
    const auto r = s.finish();
    EXPECT_EQ(r.end, RunEnd::end_time);
    EXPECT_EQ(r.last_step, 60);
    EXPECT_TRUE(rubble::runfile::is_complete(pieces));
    rubble::test::expect_same_run(whole, pieces);
    rubble::test::expect_same_snapshots(whole, pieces);
    EXPECT_EQ(b.events, a.events);
    EXPECT_EQ(b.steps, a.steps);
    EXPECT_THROW((void)s.finish(), std::logic_error);
}

TEST(Session, FinishedBeforeItsEndTheFileResumesToTheWholeRun) {
    rubble::test::TempDir dir;
    const std::string whole = dir.file("whole.h5"), parts = dir.file("parts.h5");
    SessionEvents a, b, c;
    (void)rubble::run::run_simulation(session_gas(whole), a);
    {
        Session s(session_gas(parts), b);
        EXPECT_TRUE(s.advance(23)); // not a snapshot step
        const auto r = s.finish();
        EXPECT_EQ(r.end, RunEnd::stopped);
        EXPECT_EQ(r.last_step, 23);
        EXPECT_FALSE(s.advance(1));
    }
    EXPECT_FALSE(rubble::runfile::is_complete(parts));
    EXPECT_EQ(rubble::runfile::read_snapshot(parts, -1).step, 23);
    RunRequest rest;
    rest.resume_path = parts;
    Session resumed(rest, c);
    EXPECT_EQ(resumed.step(), 23);
    resumed.advance_to_end();
    EXPECT_EQ(resumed.finish().end, RunEnd::end_time);
    rubble::test::expect_same_run(whole, parts);
}

TEST(Session, ReplacedBodiesAreCheckedWrittenAtOnceAndResumedFrom) {
    rubble::test::TempDir dir;
    const std::string live = dir.file("live.h5"), resumed_file = dir.file("resumed.h5");
    const auto reverse_at_step_15 = [](Session& s) {
        ASSERT_TRUE(s.advance(15));
        rubble::Bodies b = s.bodies();
        for (auto& v : b.vel)
            v = -v;
        s.replace_bodies(std::move(b), "test");
    };
    SessionEvents a, b, c;
    Session s(session_gas(live), a);
    // Refused: two spheres at one place. Nothing changed, the session goes on.
    ASSERT_TRUE(s.advance(1));
    rubble::Bodies overlapping = s.bodies();
    overlapping.pos[1] = overlapping.pos[0];
    EXPECT_THROW(s.replace_bodies(overlapping, "test"), rubble::InputError);
    ASSERT_TRUE(s.advance(14));
    const std::int64_t snapshots_before = rubble::runfile::snapshot_count(live);
    rubble::Bodies reversed = s.bodies();
    for (auto& v : reversed.vel)
        v = -v;
    s.replace_bodies(reversed, "test");
    EXPECT_EQ(s.bodies().vel, reversed.vel);
    // Written at once: the file's last snapshot is the new state at step 15.
    EXPECT_EQ(rubble::runfile::snapshot_count(live), snapshots_before + 1);
    const auto written = rubble::runfile::read_snapshot(live, -1);
    EXPECT_EQ(written.step, 15);
    EXPECT_EQ(written.bodies.vel, reversed.vel);
    s.advance_to_end();
    (void)s.finish();
    // The same change, finished there and resumed: the same run.
    {
        Session t(session_gas(resumed_file), b);
        reverse_at_step_15(t);
        EXPECT_EQ(t.finish().end, RunEnd::stopped);
    }
    RunRequest rest;
    rest.resume_path = resumed_file;
    Session u(rest, c);
    EXPECT_EQ(u.step(), 15);
    u.advance_to_end();
    (void)u.finish();
    rubble::test::expect_same_run(live, resumed_file);
    EXPECT_THROW(u.replace_bodies(u.bodies(), "test"), rubble::InputError); // ended
}

} // namespace

namespace {

// Eight tetrahedral aggregates (lattice fills) at rest in a 60 m cube, gravity only (direct
// summation), one step of 1 s, their mass points chosen by gravity.aggregates.
RunRequest tetrahedra_at_rest(const std::string& out, const std::string& points) {
    RunRequest r;
    r.params = rubble::config::parse_parameters(
        "random.seed = 3\n[integrator]\ndt = 1.0\nn_steps = 1\n[gravity]\nbackend = "
        "\"direct\"\naggregates = \"" +
            points + "\"\n[output]\nfile = \"" + out +
            "\"\n[ic]\ntype = \"cloud\"\n[ic.cloud]\nn = 8\nshape = \"cube\"\nsize = 60.0\n"
            "radius_distribution = \"fixed\"\nradius = 3.0\ndensity = 2000.0\ngrain = "
            "\"tetrahedron\"\n",
        "tetrahedra.toml");
    r.params_path = "tetrahedra.toml";
    return r;
}

} // namespace

TEST(Session, AggregatesAtTheirCentresFallAsPointMassesWithoutTorque) {
    // gravity.aggregates = "centres": each aggregate is one mass point at its centre of mass,
    // so one KDK step from rest moves it by a dt^2 / 2 with a the point masses' direct sum
    // (the same sum, so to the round-off of the two steps' products), and no torque turns it.
    // With "spheres" (the default) the field's gradient across each body turns it and moves
    // its centre otherwise, by the quadrupole terms, of relative order (R / d)^2.
    // (docs/aggregates.md, "Gravity")
    rubble::test::TempDir dir;
    SessionEvents quiet_centres, quiet_spheres;
    Session centres(tetrahedra_at_rest(dir.file("centres.h5"), "centres"), quiet_centres);
    Session spheres(tetrahedra_at_rest(dir.file("spheres.h5"), "spheres"), quiet_spheres);
    const rubble::Bodies start = centres.bodies();
    ASSERT_EQ(start.size(), 8U);
    ASSERT_GT(start.spheres.size(), start.size()); // aggregates, not free spheres
    std::vector<rubble::Vec3> a(start.size());
    std::vector<double> potential(start.size());
    rubble::gravity::DirectGravity(rubble::G_SI, 0.0).compute(start.pos, start.mass, a, potential);
    ASSERT_FALSE(centres.advance(1));
    ASSERT_FALSE(spheres.advance(1));
    const rubble::Bodies& c = centres.bodies();
    const rubble::Bodies& s = spheres.bodies();
    double largest_spin = 0.0, largest_difference = 0.0;
    for (std::size_t i = 0; i < start.size(); ++i) {
        const rubble::Vec3 expected = 0.5 * a[i]; // dt = 1 s
        EXPECT_LE((c.pos[i] - start.pos[i] - expected).norm(),
                  8 * std::numeric_limits<double>::epsilon() * start.pos[i].norm())
            << "body " << i;
        EXPECT_EQ(c.spin[i], rubble::Vec3::Zero()) << "body " << i;
        largest_spin = std::max(largest_spin, s.spin[i].norm());
        largest_difference = std::max(
            largest_difference, (s.pos[i] - start.pos[i] - expected).norm() / expected.norm());
    }
    // The default turns the bodies and moves them otherwise than point masses would.
    EXPECT_GT(largest_spin, 0.0);
    EXPECT_GT(largest_difference, 1e3 * std::numeric_limits<double>::epsilon());
    EXPECT_NO_THROW((void)centres.finish());
    EXPECT_NO_THROW((void)spheres.finish());
}
