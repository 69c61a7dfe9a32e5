// SPDX-License-Identifier: MIT
// `rubble campaign` (issue 22, items 2, 3 and 7): a tiny campaign runs end to end; interrupted
// and run again it ends bitwise where an uninterrupted one ends (finished runs kept, the
// interrupted one resumed, the settling stop replayed); files and indexes of another campaign
// are refused; a bad [campaign] table is refused naming the file, line and key. Processes that
// run one campaign at once share its runs through their claims (issue 34, run_claims.hpp).
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child_process.hpp"
#include "cli_runner.hpp"
#include "rubble/campaign/campaign.hpp"
#include "rubble/campaign/run_claims.hpp"
#include "rubble/runfile/run_file.hpp"
#include "run_comparison.hpp"
#include "temp_dir.hpp"
#include "tiny_campaign.hpp"

using rubble::test::run_rubble;

using rubble::test::campaign;
using rubble::test::run_files;
using rubble::test::wait_for_snapshots;

TEST(Campaign, InterruptedAndContinuedEqualsUninterruptedBitwise) {
    rubble::test::TempDir tmp;
    const std::string whole = tmp.file("whole"), parts = tmp.file("parts");
    const auto r = run_rubble({"campaign", tmp.write("a.toml", campaign(whole)), "--quiet"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("all 4 runs finished"), std::string::npos) << r.out;
    for (const char* f : run_files) {
        const std::string path = whole + "/" + f;
        ASSERT_TRUE(rubble::runfile::is_complete(path)) << f;
        // The clouds fall together; the polyhedra come to rest well before t_end, so the
        // settled stop is what ends them. Hard spheres in the event-driven drift keep
        // rattling (its guards against inelastic collapse; with collisions.stepper = "nsc"
        // they settle, the last test), and whether the settled stop catches a quiet window
        // before t_end turns on the last bits of a chaotic run (it did with one libm, not with
        // another): either is a complete run, and the interrupted campaign must end each the
        // same way.
        if (std::string(f).find("polyhedron") != std::string::npos) {
            EXPECT_EQ(rubble::runfile::read_stop_reason(path), "settled") << f;
            EXPECT_LT(rubble::runfile::read_snapshot(path, -1).time, 80000.0) << f;
        }
    }
    EXPECT_TRUE(std::filesystem::exists(whole + "/campaign.json"));

    // The same campaign elsewhere, interrupted in its third run.
    const std::string file = tmp.write("b.toml", campaign(parts));
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        execl(RUBBLE_BINARY, RUBBLE_BINARY, "campaign", file.c_str(), "--quiet",
              static_cast<char*>(nullptr));
        _exit(127);
    }
    const bool started = wait_for_snapshots(parts + "/" + run_files[2], 3);
    kill(child, SIGINT);
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(started);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 130);
    EXPECT_TRUE(rubble::runfile::is_complete(parts + "/" + run_files[0]));
    EXPECT_TRUE(rubble::runfile::is_complete(parts + "/" + run_files[1]));
    EXPECT_FALSE(rubble::runfile::is_complete(parts + "/" + run_files[2]));
    EXPECT_FALSE(std::filesystem::exists(parts + "/" + run_files[3]));

    const auto again = run_rubble({"campaign", file, "--quiet"});
    ASSERT_EQ(again.code, 0) << again.err;
    EXPECT_NE(again.out.find("(2 already before)"), std::string::npos) << again.out;
    EXPECT_NE(again.out.find("(resumed)"), std::string::npos) << again.out;
    for (const char* f : run_files) {
        SCOPED_TRACE(f);
        rubble::test::expect_same_final_state(whole + "/" + f, parts + "/" + f);
        rubble::test::expect_same_diagnostics(whole + "/" + f, parts + "/" + f);
        EXPECT_EQ(rubble::runfile::read_stop_reason(parts + "/" + f),
                  rubble::runfile::read_stop_reason(whole + "/" + f));
    }
    // A third call finds everything done.
    const auto done = run_rubble({"campaign", file, "--quiet"});
    ASSERT_EQ(done.code, 0) << done.err;
    EXPECT_NE(done.out.find("(4 already before)"), std::string::npos) << done.out;
}

// A run claimed by another process is left to it: listed as running, skipped, and taken up by
// the next call once the claim is gone (the process ended). Here the claim is held by this
// test itself: a lock of another open file description, as another process's would be.
TEST(Campaign, ARunClaimedElsewhereIsLeftToItsClaimant) {
    rubble::test::TempDir tmp;
    const std::string dir = tmp.file("c");
    const std::string file = tmp.write("c.toml", campaign(dir));
    const auto c = rubble::campaign::load_campaign(file);
    std::filesystem::create_directories(dir);
    {
        const auto claim = rubble::campaign::claim_run(c, 1);
        ASSERT_TRUE(claim.held());
        EXPECT_FALSE(rubble::campaign::claim_run(c, 1).held()); // held means held
        const auto list = run_rubble({"campaign", file, "--list"});
        ASSERT_EQ(list.code, 0) << list.err;
        EXPECT_NE(list.out.find(std::string(run_files[1]) + ": running (claimed by another"),
                  std::string::npos)
            << list.out;
        const auto r = run_rubble({"campaign", file, "--quiet"});
        ASSERT_EQ(r.code, 0) << r.err;
        EXPECT_NE(r.out.find("3 of 4 runs finished; 1 claimed by another process"),
                  std::string::npos)
            << r.out;
        EXPECT_EQ(r.out.find("run 2/4"), std::string::npos) << r.out;
        EXPECT_FALSE(std::filesystem::exists(dir + "/" + run_files[1]));
    }
    const auto rest = run_rubble({"campaign", file, "--quiet"});
    ASSERT_EQ(rest.code, 0) << rest.err;
    EXPECT_NE(rest.out.find("run 2/4"), std::string::npos) << rest.out;
    EXPECT_NE(rest.out.find("all 4 runs finished (3 already before)"), std::string::npos)
        << rest.out;
}

// One run alone, as one task of a job array per run does it (docs/mpi.md).
TEST(Campaign, RunOnlyRunsTheOneRunItNames) {
    rubble::test::TempDir tmp;
    const std::string dir = tmp.file("c");
    const std::string file = tmp.write("c.toml", campaign(dir));
    const auto r = run_rubble({"campaign", file, "--quiet", "--run", "3"});
    ASSERT_EQ(r.code, 0) << r.err;
    // (settled or at its end time: a sphere run, see the first test)
    EXPECT_NE(r.out.find("run 3/4 (set 1.1@1, seed 3, sphere): "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("campaign tiny: run 3/4 finished"), std::string::npos) << r.out;
    for (int k = 0; k < 4; ++k)
        EXPECT_EQ(std::filesystem::exists(dir + "/" + run_files[k]), k == 2) << run_files[k];
    const auto again = run_rubble({"campaign", file, "--quiet", "--run", "3"});
    EXPECT_NE(again.out.find("run 3/4 was finished already"), std::string::npos) << again.out;
    const auto beyond = run_rubble({"campaign", file, "--run", "5"});
    EXPECT_EQ(beyond.code, 2);
    EXPECT_NE(beyond.err.find("--run 5: '" + file + "' has runs 1 to 4"), std::string::npos)
        << beyond.err;
}

// Two processes started on one campaign at once (two terminals, two tasks of a job array) run
// each run once between them, and the runs are the runs of one process alone, bitwise.
TEST(Campaign, TwoProcessesAtOnceRunEachRunOnce) {
    rubble::test::TempDir tmp;
    const std::string alone = tmp.file("alone"), shared = tmp.file("shared");
    ASSERT_EQ(run_rubble({"campaign", tmp.write("a.toml", campaign(alone)), "--quiet"}).code, 0);
    const std::string file = tmp.write("s.toml", campaign(shared));
    rubble::test::ChildOptions one, two;
    one.output_path = tmp.file("one.txt");
    two.output_path = tmp.file("two.txt");
    const pid_t a = rubble::test::spawn_rubble({"campaign", file, "--quiet"}, one);
    const pid_t b = rubble::test::spawn_rubble({"campaign", file, "--quiet"}, two);
    const auto ea = rubble::test::wait_for_child(a, std::chrono::minutes(10));
    const auto eb = rubble::test::wait_for_child(b, std::chrono::minutes(10));
    const auto text = [](const std::string& path) {
        std::ifstream in(path);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    const std::string out = text(one.output_path) + text(two.output_path);
    ASSERT_TRUE(ea.exited && ea.code == 0) << out;
    ASSERT_TRUE(eb.exited && eb.code == 0) << out;
    for (int k = 1; k <= 4; ++k) {
        const std::string run = "run " + std::to_string(k) + "/4 (";
        const auto first = out.find(run);
        ASSERT_NE(first, std::string::npos) << out;
        EXPECT_EQ(out.find(run, first + 1), std::string::npos) << "run " << k << " twice\n" << out;
    }
    for (const char* f : run_files) {
        SCOPED_TRACE(f);
        rubble::test::expect_same_final_state(alone + "/" + f, shared + "/" + f);
        rubble::test::expect_same_diagnostics(alone + "/" + f, shared + "/" + f);
        rubble::test::expect_same_collision_log(alone + "/" + f, shared + "/" + f);
    }
}

TEST(Campaign, EachRunGetsTheSharedParametersAndItsOwnSetSeedAndModel) {
    rubble::test::TempDir tmp;
    const auto c = rubble::campaign::load_campaign(tmp.write(
        "m.toml", campaign(tmp.file("c"), "", "\"sphere\", \"aggregate\", \"polyhedron\"")));
    ASSERT_EQ(c.runs.size(), 6u);
    ASSERT_EQ(c.sets.size(), 2u);
    EXPECT_EQ(c.sets[1].name, "1.1@1");
    const auto p = rubble::campaign::run_parameters(c, 4); // set 1.1@1, seed 3, aggregate
    EXPECT_EQ(p.string("ic.type"), "scenario");
    EXPECT_EQ(p.string("ic.scenario.model"), "aggregate");
    EXPECT_EQ(p.integer("random.seed"), 3);
    EXPECT_EQ(p.real("ic.motion.v0"), 0.01);
    EXPECT_EQ(p.real("ic.motion.w0"), 0.0);
    EXPECT_EQ(p.string("campaign.id"), c.id);
    EXPECT_EQ(p.string("campaign.set"), "1.1@1");
    EXPECT_EQ(p.real("collisions.mu"), 0.6);
    EXPECT_EQ(p.string("output.file"), tmp.file("c") + "/set1.1@1_seed3_aggregate.h5");
    const auto s = rubble::campaign::run_parameters(c, 3); // the sphere model: no Coulomb law
    EXPECT_EQ(s.string("ic.scenario.model"), "sphere");
    EXPECT_EQ(s.real("collisions.mu"), 0.0);
    EXPECT_EQ(s.real("collisions.eps_t"), 0.8);
}

TEST(Campaign, ItsIdChangesWithAValueAndNotWithAComment) {
    rubble::test::TempDir tmp;
    const std::string dir = tmp.file("c");
    const auto a = rubble::campaign::load_campaign(tmp.write("a.toml", campaign(dir)));
    const auto b =
        rubble::campaign::load_campaign(tmp.write("b.toml", "# a comment\n\n" + campaign(dir)));
    const auto c =
        rubble::campaign::load_campaign(tmp.write("c.toml", campaign(dir, "sphere_eps_t = 0.7\n")));
    EXPECT_EQ(a.id, b.id);
    EXPECT_NE(a.id, c.id);
    EXPECT_EQ(a.id.size(), 16u);
}

TEST(Campaign, FilesAndIndexesOfAnotherCampaignAreRefused) {
    rubble::test::TempDir tmp;
    const std::string dir = tmp.file("c");
    const std::string one = tmp.write("one.toml", campaign(dir, "sphere_eps_t = 0.7\n"));
    // Only the index is written when every run's file is already there; so make one campaign's
    // run file first, then a second campaign in the same directory must refuse its index.
    ASSERT_EQ(run_rubble({"campaign", one, "--quiet"}).code, 0);
    const auto other = run_rubble({"campaign", tmp.write("two.toml", campaign(dir)), "--quiet"});
    EXPECT_EQ(other.code, 2);
    EXPECT_NE(other.err.find("is the index of campaign"), std::string::npos) << other.err;
    EXPECT_NE(other.err.find("another campaign.directory"), std::string::npos) << other.err;

    // A run file that is not this campaign's, where this campaign's would be.
    const std::string dir2 = tmp.file("d");
    std::filesystem::create_directories(dir2);
    std::filesystem::copy_file(dir + "/set0_seed3_sphere.h5", dir2 + "/set0_seed3_sphere.h5");
    const auto mixed = run_rubble({"campaign", tmp.write("three.toml", campaign(dir2)), "--quiet"});
    EXPECT_EQ(mixed.code, 2);
    EXPECT_NE(mixed.err.find("set0_seed3_sphere.h5' belongs to campaign"), std::string::npos)
        << mixed.err;
    EXPECT_FALSE(std::filesystem::exists(dir2 + "/set0_seed3_polyhedron.h5"));
}

TEST(Campaign, ABadCampaignTableIsRefusedNamingTheLineAndKey) {
    rubble::test::TempDir tmp;
    const std::string dir = tmp.file("c");
    const auto expect_refused = [&](const std::string& text, const std::string& what) {
        const auto r = run_rubble({"campaign", tmp.write("bad.toml", text), "--quiet"});
        EXPECT_EQ(r.code, 2) << what;
        EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
        EXPECT_FALSE(std::filesystem::exists(dir)) << what;
    };
    expect_refused(campaign(dir, "seed = [1]\n"), "bad.toml:9: campaign.seed: unknown key");
    expect_refused(campaign(dir, "", "\"sphere\", \"cube\""),
                   "campaign.models: \"cube\" is not a grain model");
    expect_refused(campaign(dir, "", "\"sphere\", \"sphere\""),
                   "campaign.models: lists a value twice");
    expect_refused(
        campaign(dir).replace(campaign(dir).find("levels = [1.0]"), 14, "levels = [1.5]"),
        "campaign.levels: each level must be in (0, 1], a fraction of the maxima; 1.5 is not");
    expect_refused(campaign(dir) + "[random]\nseed = 4\n",
                   "random.seed = 4: is set by the campaign for each run");
    expect_refused(campaign(dir) + "[ic.motion]\nv0 = 0.1\n", "ic.motion.v0 = ");
    expect_refused(campaign(dir).replace(campaign(dir).find("sets = ["), 8, "sets = [\"4\", "),
                   "\"4\" is not one of Ferrari et al. 2017's sets");
    expect_refused(campaign(dir).substr(campaign(dir).find("[integrator]")), "no [campaign] table");
    expect_refused(
        campaign(dir).replace(campaign(dir).find("grain = \"hull\""), 14, "grain = \"sphere\""),
        "ic.cloud.grain");
}

TEST(Campaign, ASettlingWindowShorterThanTheFreeFallTimeIsRefusedBeforeAnyOutput) {
    // The tiny cloud's free-fall time is about 1e4 s: in 6000 s nothing touches yet, and an
    // unchanged cloud would look settled.
    rubble::test::TempDir tmp;
    const std::string dir = tmp.file("c");
    std::string text = campaign(dir);
    text.replace(text.find("settled_window = 12000.0"), 24, "settled_window = 6000.0");
    const auto r = run_rubble({"campaign", tmp.write("short.toml", text), "--quiet"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("stop.settled_window = 6000.0: shorter than the free-fall time"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("run 1/4 (set 0, seed 3, sphere)"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir + "/" + run_files[0]));
}

// With collisions.stepper = "nsc" every grain model takes one contact law (issue 35): the
// sphere runs keep the campaign's mu (no per-model eps_t), and the spheres come to rest as the
// polyhedra do, so the settled stop ends both runs of set 0 before t_end. (One set: the
// sanitizer build runs this test too, at a minute for four runs.)
TEST(Campaign, WithTheNonSmoothStepperEveryModelSettles) {
    rubble::test::TempDir tmp;
    const std::string dir = tmp.file("nsc");
    std::string text = campaign(dir);
    const std::string collisions = "[collisions]\nenabled = true\n";
    text.replace(text.find(collisions), collisions.size(), collisions + "stepper = \"nsc\"\n");
    const std::string sets = "sets = [\"0\", \"1.1\"]";
    text.replace(text.find(sets), sets.size(), "sets = [\"0\"]");
    const std::string file = tmp.write("nsc.toml", text);
    const auto c = rubble::campaign::load_campaign(file);
    EXPECT_TRUE(c.one_contact_law);
    for (std::size_t k = 0; k < c.runs.size(); ++k)
        EXPECT_EQ(rubble::campaign::run_parameters(c, k).real("collisions.mu"), 0.6) << k;
    const auto r = run_rubble({"campaign", file, "--quiet"});
    ASSERT_EQ(r.code, 0) << r.err;
    ASSERT_EQ(c.runs.size(), 2u);
    for (const char* f : {run_files[0], run_files[1]}) {
        const std::string path = dir + "/" + f;
        ASSERT_TRUE(rubble::runfile::is_complete(path)) << f;
        EXPECT_EQ(rubble::runfile::read_stop_reason(path), "settled") << f;
        EXPECT_LT(rubble::runfile::read_snapshot(path, -1).time, 80000.0) << f;
    }
}
