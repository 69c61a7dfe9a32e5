// SPDX-License-Identifier: MIT
// The run driver (run/run_driver.hpp) driven through its API, as the campaign and the MPI
// executable drive it: what the observer sees and when, a stop and a resume that continue
// bitwise, and bad input refused before anything is written (in pieces: session_test.cpp).
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gas_run.hpp"
#include "rubble/config/parameters.hpp"
#include "rubble/core/error.hpp"
#include "rubble/run/run_driver.hpp"
#include "rubble/runfile/run_file.hpp"
#include "run_comparison.hpp"
#include "temp_dir.hpp"

namespace {

using rubble::run::RunEnd;
using rubble::run::RunObserver;
using rubble::run::RunRequest;
using rubble::run::StepProgress;

std::string gas(const std::string& out) {
    return rubble::test::periodic_gas_run(out);
}

RunRequest new_run(const std::string& text) {
    RunRequest r;
    r.params = rubble::config::parse_parameters(text, "gas.toml");
    r.params_path = "gas.toml";
    return r;
}

// Everything a run tells its observer, in order.
struct Recorder final : RunObserver {
    std::vector<std::string> lines, warnings, events;
    std::vector<StepProgress> steps;
    void report(std::string_view line) override { lines.emplace_back(line); }
    void warn(std::string_view line) override { warnings.emplace_back(line); }
    void output_begins() override { events.emplace_back("output"); }
    void loop_begins(const StepProgress& p) override {
        events.emplace_back("loop");
        steps.push_back(p);
    }
    void step_done(const StepProgress& p) override { steps.push_back(p); }
    void loop_done() override { events.emplace_back("done"); }
};

TEST(RunDriver, ANewRunReportsEachStepToItsObserverAndEndsComplete) {
    rubble::test::TempDir dir;
    const std::string out = dir.file("gas.h5");
    Recorder seen;
    const auto r = rubble::run::run_simulation(new_run(gas(out)), seen);
    EXPECT_EQ(r.end, RunEnd::end_time);
    EXPECT_EQ(r.output, out);
    EXPECT_EQ(r.last_step, 60);
    EXPECT_NEAR(r.time, 3.0, 1e-12);
    EXPECT_TRUE(rubble::runfile::is_complete(out));
    EXPECT_EQ(seen.events, (std::vector<std::string>{"output", "loop", "done"}));
    ASSERT_EQ(seen.steps.size(), 61u); // where the loop begins, then every step
    for (std::size_t k = 0; k < seen.steps.size(); ++k) {
        EXPECT_EQ(seen.steps[k].step, static_cast<std::int64_t>(k));
        EXPECT_EQ(seen.steps[k].first_step, 0);
        EXPECT_EQ(seen.steps[k].last_step, 60);
    }
    // The stepper said how it treats contacts; the count it reports is the file's.
    ASSERT_FALSE(seen.lines.empty());
    EXPECT_EQ(seen.lines.front().rfind("rubble: 216 bodies", 0), 0u) << seen.lines.front();
    EXPECT_EQ(seen.lines[1].rfind("collisions: bounce, eps_n = 0.8", 0), 0u) << seen.lines[1];
    const auto diagnostics = rubble::runfile::read_diagnostics(out);
    EXPECT_GT(seen.steps.back().collisions, 1000.0);
    EXPECT_EQ(seen.steps.back().collisions, diagnostics.back().collisions_total);
    EXPECT_TRUE(seen.warnings.empty());
}

TEST(RunDriver, AStoppedRunResumedThroughTheApiEqualsTheWholeRunBitwise) {
    rubble::test::TempDir dir;
    const std::string whole = dir.file("whole.h5"), parts = dir.file("parts.h5");
    Recorder a, b, c;
    ASSERT_EQ(rubble::run::run_simulation(new_run(gas(whole)), a).end, RunEnd::end_time);
    RunRequest first = new_run(gas(parts));
    first.stop_after = 23;
    const auto stopped = rubble::run::run_simulation(first, b);
    EXPECT_EQ(stopped.end, RunEnd::stopped);
    EXPECT_EQ(stopped.last_step, 23);
    EXPECT_FALSE(rubble::runfile::is_complete(parts));
    RunRequest rest;
    rest.resume_path = parts;
    const auto resumed = rubble::run::run_simulation(rest, c);
    EXPECT_EQ(resumed.end, RunEnd::end_time);
    EXPECT_EQ(c.steps.front().first_step, 23);
    rubble::test::expect_same_run(whole, parts);
    // Nothing left to do: said, and the file untouched.
    Recorder d;
    EXPECT_EQ(rubble::run::run_simulation(rest, d).end, RunEnd::already_complete);
    EXPECT_TRUE(d.events.empty());
}

TEST(RunDriver, BadInputIsRefusedBeforeTheOutputBegins) {
    rubble::test::TempDir dir;
    const std::string out = dir.file("gas.h5");
    RunRequest r = new_run(gas(out));
    r.overrides = {{"integrator.dt", "-1.0"}};
    Recorder seen;
    EXPECT_THROW((void)rubble::run::run_simulation(r, seen), rubble::InputError);
    EXPECT_TRUE(seen.events.empty());
    EXPECT_FALSE(std::filesystem::exists(out));
    // A resumed run may change where it ends, nothing else.
    RunRequest resume;
    resume.resume_path = out;
    resume.overrides = {{"collisions.eps_n", "0.5"}};
    EXPECT_THROW((void)rubble::run::run_simulation(resume, seen), rubble::InputError);
}

} // namespace
