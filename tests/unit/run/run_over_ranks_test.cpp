// SPDX-License-Identifier: MIT
// One run over several ranks (run/run_driver.hpp with a Communicator; run/run_ranks.hpp), the
// ranks as threads of this process (tests/support/thread_ranks.hpp) so that the unit suite and
// the sanitizers see it at any rank count; tests/mpi/mpi_run_test.cpp runs the same over MPI.
// A gravity-only cloud over 1 to 4 ranks writes the serial run's file bit for bit (direct
// summation in a fixed order, gathered output in serial order); stopped over three ranks it
// resumes over two and then four and still ends there; with the tree, resumed over the same
// ranks it is the uninterrupted run bit for bit; a collisional gas over ranks is the serial
// run collision for collision; what cannot run over ranks yet is refused on every rank alike
// with the key to change; and an error met by one rank ends every rank with it.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "gas_run.hpp"
#include "rubble/config/parameters.hpp"
#include "rubble/core/error.hpp"
#include "rubble/core/rank_errors.hpp"
#include "rubble/run/run_driver.hpp"
#include "rubble/runfile/run_file.hpp"
#include "run_comparison.hpp"
#include "temp_dir.hpp"
#include "thread_ranks.hpp"

namespace {

using rubble::run::RunEnd;
using rubble::run::RunRequest;

// 150 boulders falling together under direct summation, no contacts: a few hundred
// milliseconds, with snapshots and diagnostics rows at other cadences.
std::string cloud(const std::string& out, const std::string& extra = "") {
    return "[integrator]\ndt = 50.0\nt_end = 6000.0\n[gravity]\nbackend = \"direct\"\n"
           "softening = 5.0\n[output]\nfile = \"" +
           out +
           "\"\nsnapshot_interval = 1000.0\ndiagnostics_interval = 300.0\n[ic.motion]\nv0 = 0.02\n"
           "w0 = 1e-3\n[ic.cloud]\nn = 150\n"
           "size = 1000.0\nradius = 5.0\ndensity = 2000.0\n" +
           extra;
}

RunRequest new_ranks_run(const std::string& text) {
    RunRequest r;
    r.params = rubble::config::parse_parameters(text, "cloud.toml");
    r.params_path = "cloud.toml";
    return r;
}

// Each rank's result and its error text ("" when none), in rank order.
struct Outcome {
    std::vector<rubble::run::RunResult> results;
    std::vector<std::string> errors;
    std::vector<std::string> lines; ///< rank 0's report
};

Outcome run_over(int ranks, const RunRequest& request) {
    Outcome o;
    o.results.resize(static_cast<std::size_t>(ranks));
    o.errors.resize(static_cast<std::size_t>(ranks));
    std::mutex m;
    struct Lines final : rubble::run::RunObserver {
        std::vector<std::string>* to = nullptr;
        void report(std::string_view line) override { to->emplace_back(line); }
    };
    std::vector<Lines> observers(static_cast<std::size_t>(ranks));
    std::vector<std::vector<std::string>> lines(static_cast<std::size_t>(ranks));
    for (std::size_t r = 0; r < observers.size(); ++r)
        observers[r].to = &lines[r];
    rubble::test::ThreadRanks(ranks).run([&](rubble::core::Communicator& world) {
        const auto r = static_cast<std::size_t>(world.rank());
        try {
            o.results[r] = rubble::run::run_simulation(request, observers[r], world);
        } catch (const std::exception& e) {
            const std::lock_guard<std::mutex> lock(m);
            o.errors[r] = e.what();
        }
    });
    for (std::size_t r = 1; r < lines.size(); ++r)
        EXPECT_TRUE(lines[r].empty()) << "rank " << r << " reported: " << lines[r].front();
    o.lines = lines[0];
    return o;
}

// The run of `text` (which writes `out`) stopped after `stop_after` steps over `first` ranks
// and resumed to its end over `then` ranks.
void run_in_two_parts(const std::string& text, const std::string& out, std::int64_t stop_after,
                      int first, int then) {
    RunRequest start = new_ranks_run(text);
    start.stop_after = stop_after;
    ASSERT_EQ(run_over(first, start).errors[0], "");
    RunRequest rest;
    rest.resume_path = out;
    ASSERT_EQ(run_over(then, rest).errors[0], "");
}

TEST(RunOverRanks, AGravityRunOverOneToFourRanksWritesTheSerialFileBitwise) {
    rubble::test::TempDir dir;
    const std::string serial = dir.file("serial.h5");
    const auto s = run_over(1, new_ranks_run(cloud(serial)));
    ASSERT_EQ(s.errors[0], "");
    ASSERT_EQ(s.results[0].end, RunEnd::end_time);
    for (int p = 2; p <= 4; ++p) {
        SCOPED_TRACE("ranks " + std::to_string(p));
        const std::string out = dir.file("p" + std::to_string(p) + ".h5");
        const auto o = run_over(p, new_ranks_run(cloud(out)));
        for (int r = 0; r < p; ++r) {
            const auto k = static_cast<std::size_t>(r);
            ASSERT_EQ(o.errors[k], "") << "rank " << r;
            EXPECT_EQ(o.results[k].end, RunEnd::end_time) << "rank " << r;
            EXPECT_EQ(o.results[k].last_step, 120) << "rank " << r;
        }
        EXPECT_EQ(o.results[0].energy_error, s.results[0].energy_error);
        ASSERT_TRUE(rubble::runfile::is_complete(out));
        rubble::test::expect_same_run(serial, out);
        rubble::test::expect_same_snapshots(serial, out);
        // Rank 0 reports what the serial run reports, but for the file's name and the wall time.
        ASSERT_EQ(o.lines.size(), s.lines.size());
        EXPECT_EQ(o.lines.front(), s.lines.front());
    }
}

// --rank-timings (core/timed_communicator.hpp) reports each rank's time per step and changes
// nothing in the file.
TEST(RunOverRanks, RankTimingsAreReportedForEveryRankAndChangeNoResult) {
    rubble::test::TempDir dir;
    const std::string plain = dir.file("plain.h5"), timed = dir.file("timed.h5");
    ASSERT_EQ(run_over(3, new_ranks_run(cloud(plain))).errors[0], "");
    RunRequest request = new_ranks_run(cloud(timed));
    request.rank_timings = true;
    const auto o = run_over(3, request);
    ASSERT_EQ(o.errors[0], "");
    rubble::test::expect_same_run(plain, timed);
    rubble::test::expect_same_snapshots(plain, timed);
    std::size_t at = 0;
    while (at < o.lines.size() && o.lines[at].rfind("rank timings", 0) != 0)
        ++at;
    ASSERT_LT(at + 3, o.lines.size());
    EXPECT_NE(o.lines[at].find("over 120 steps"), std::string::npos) << o.lines[at];
    for (int r = 0; r < 3; ++r) {
        const std::string& line = o.lines[at + 1 + static_cast<std::size_t>(r)];
        EXPECT_EQ(line.rfind("  rank " + std::to_string(r) + ": compute ", 0), 0u) << line;
        EXPECT_NE(line.find("waiting"), std::string::npos) << line;
    }
}

TEST(RunOverRanks, StoppedOverThreeRanksItResumesOverTwoThenFourToTheSerialRun) {
    rubble::test::TempDir dir;
    const std::string serial = dir.file("serial.h5"), out = dir.file("out.h5");
    ASSERT_EQ(run_over(1, new_ranks_run(cloud(serial))).errors[0], "");
    RunRequest first = new_ranks_run(cloud(out));
    first.stop_after = 37; // between two snapshots: the stop writes its own
    const auto a = run_over(3, first);
    ASSERT_EQ(a.errors[0], "");
    EXPECT_EQ(a.results[2].end, RunEnd::stopped);
    EXPECT_EQ(rubble::runfile::read_snapshot(out, -1).step, 37);
    RunRequest again;
    again.resume_path = out;
    again.stop_after = 40;
    const auto b = run_over(2, again);
    ASSERT_EQ(b.errors[0], "");
    EXPECT_EQ(b.results[1].last_step, 77);
    again.stop_after = 0;
    const auto c = run_over(4, again);
    ASSERT_EQ(c.errors[0], "");
    EXPECT_EQ(c.results[3].end, RunEnd::end_time);
    rubble::test::expect_same_final_state(serial, out);
    rubble::test::expect_same_diagnostics(serial, out);
}

// The tree over ranks: each rank's bodies move to their domain's rank after every drift
// (run_ranks.hpp), the forces differ from the serial tree's at the opening criterion's error,
// and the decomposition is a function of the positions and of each body's interactions in the
// last evaluation of the forces, which every snapshot stores, so a run stopped and resumed
// over the same number of ranks is the uninterrupted one bit for bit. (Without the stored
// weights the resumed run's first forces are found in a decomposition by count: measured, the
// comparison then fails.) Serial runs and direct summation store none: their files stay the
// serial layout.
TEST(RunOverRanks, ATreeRunResumedOverTheSameRanksIsTheUninterruptedOneBitwise) {
    rubble::test::TempDir dir;
    const auto tree = [&](const std::string& out) {
        std::string text = cloud(out);
        text.replace(text.find("backend = \"direct\""), 18,
                     "backend = \"tree\"\ntheta = 0.5\nmultipole_order = 2");
        return text;
    };
    const std::string serial = dir.file("serial.h5"), whole = dir.file("whole.h5"),
                      parts = dir.file("parts.h5");
    const auto s = run_over(1, new_ranks_run(tree(serial)));
    ASSERT_EQ(s.errors[0], "");
    const auto w = run_over(3, new_ranks_run(tree(whole)));
    ASSERT_EQ(w.errors[0], "");
    run_in_two_parts(tree(parts), parts, 37, 3, 3);
    rubble::test::expect_same_final_state(whole, parts);
    rubble::test::expect_same_diagnostics(whole, parts);
    const auto stopped = rubble::runfile::read_snapshot(parts, 2); // steps 0, 20, then the stop
    EXPECT_EQ(stopped.step, 37);
    ASSERT_EQ(stopped.decomposition_weight.size(), stopped.bodies.size());
    for (const std::int64_t weight : stopped.decomposition_weight)
        EXPECT_GT(weight, 0); // every body interacts with something
    EXPECT_TRUE(rubble::runfile::read_snapshot(parts, 0).decomposition_weight.empty()); // counts
    EXPECT_TRUE(rubble::runfile::read_snapshot(serial, -1).decomposition_weight.empty());
    std::printf("[measured] tree run |dE/E|: serial %.3e, 3 ranks %.3e\n",
                s.results[0].energy_error, w.results[0].energy_error);
}

// Contacts over ranks: the serial event-driven drift runs on rank 0 over the whole state
// gathered there in serial order (RunRanks::on_root), so with gravity none or direct the
// file, collision log included, is the serial run's bit for bit, and a stopped run resumes
// over another number of ranks to it.
TEST(RunOverRanks, ACollisionalRunOverRanksIsTheSerialRunCollisionForCollision) {
    rubble::test::TempDir dir;
    const std::string serial = dir.file("serial.h5");
    const auto s = run_over(1, new_ranks_run(rubble::test::periodic_gas_run(serial)));
    ASSERT_EQ(s.errors[0], "");
    for (int p = 2; p <= 3; ++p) {
        SCOPED_TRACE("ranks " + std::to_string(p));
        const std::string out = dir.file("p" + std::to_string(p) + ".h5");
        const auto o = run_over(p, new_ranks_run(rubble::test::periodic_gas_run(out)));
        ASSERT_EQ(o.errors[0], "");
        rubble::test::expect_same_run(serial, out);
        EXPECT_GT(rubble::runfile::read_diagnostics(out).back().collisions_total, 1000.0);
    }
    const std::string parts = dir.file("parts.h5");
    run_in_two_parts(rubble::test::periodic_gas_run(parts), parts, 23, 3, 2);
    rubble::test::expect_same_run(serial, parts);
}

// Polyhedra over ranks with a fixed hull among their walls: the contact stepper is made on
// rank 0 alone (the others hold no polyhedra when it is made, and a hull wall without them is
// refused), the hull catalogue reaches every rank, and the file is the serial run's.
TEST(RunOverRanks, PolyhedraOnAFixedHullOverRanksAreTheSerialRun) {
    rubble::test::TempDir dir;
    std::string slab;
    for (int k = 0; k < 8; ++k)
        slab += std::string(k & 1 ? "0.2" : "-0.2") + " " + (k & 2 ? "0.2" : "-0.2") + " " +
                (k & 4 ? "0.015" : "-0.015") + "\n";
    const std::string vertices = dir.write("slab.txt", slab);
    const auto cubes = [&](const std::string& out) {
        return "[integrator]\ndt = 2e-3\nt_end = 0.3\n[gravity]\nbackend = \"none\"\n"
               "uniform_g = [0.0, 0.0, -9.81]\n[collisions]\nenabled = true\neps_n = 0.0\n"
               "mu = 0.5\n[output]\nfile = \"" +
               out +
               "\"\nsnapshot_interval = 0.1\ndiagnostics_interval = 0.05\n[ic]\ntype = "
               "\"cloud\"\ncentre_of_mass_frame = false\n[ic.cloud]\nn = 27\nshape = "
               "\"cube\"\nsize = 0.6\nradius = 0.05\ngrain = \"cube\"\ngrain_model = "
               "\"polyhedron\"\ndensity = 2500.0\n[[walls]]\ntype = \"box\"\nmin = [-0.35, "
               "-0.35, -0.35]\nmax = [0.35, 0.35, 0.8]\n[[walls]]\ntype = \"hull\"\nvertices = "
               "\"" +
               vertices + "\"\npoint = [0.0, 0.0, -0.335]\n";
    };
    const std::string serial = dir.file("serial.h5"), out = dir.file("p3.h5");
    const auto s = run_over(1, new_ranks_run(cubes(serial)));
    ASSERT_EQ(s.errors[0], "");
    const auto o = run_over(3, new_ranks_run(cubes(out)));
    ASSERT_EQ(o.errors[0], "");
    rubble::test::expect_same_run(serial, out);
    rubble::test::expect_same_snapshots(serial, out);
}

// gravity.aggregates = "centres" over ranks: every rank takes the bodies as mass points, as
// the serial run does, whatever bodies it holds (run/run_ranks.hpp), so the direct sum's fixed
// order gives the serial file; with "spheres" the same cloud is another run.
TEST(RunOverRanks, AggregatesAtTheirCentresOverRanksAreTheSerialRun) {
    rubble::test::TempDir dir;
    const auto tetrahedra = [](const std::string& out, const std::string& points) {
        std::string text = cloud(out, "grain = \"tetrahedron\"\nspheres_per_grain = 4\n");
        const std::string softening = "softening = 5.0\n";
        return text.insert(text.find(softening) + softening.size(),
                           "aggregates = \"" + points + "\"\n");
    };
    const std::string serial = dir.file("serial.h5"), out = dir.file("p2.h5"),
                      spheres = dir.file("spheres.h5");
    ASSERT_EQ(run_over(1, new_ranks_run(tetrahedra(serial, "centres"))).errors[0], "");
    ASSERT_EQ(run_over(2, new_ranks_run(tetrahedra(out, "centres"))).errors[0], "");
    rubble::test::expect_same_run(serial, out);
    rubble::test::expect_same_snapshots(serial, out);
    ASSERT_EQ(run_over(1, new_ranks_run(tetrahedra(spheres, "spheres"))).errors[0], "");
    const auto a = rubble::runfile::read_snapshot(serial, -1);
    const auto b = rubble::runfile::read_snapshot(spheres, -1);
    EXPECT_NE(a.bodies.pos, b.bodies.pos);
}

TEST(RunOverRanks, WhatCannotRunOverRanksYetIsRefusedOnEveryRankWithItsKey) {
    rubble::test::TempDir dir;
    const std::string out = dir.file("refused.h5");
    std::string gpu = cloud(out);
    gpu.replace(gpu.find("backend = \"direct\""), 18, "backend = \"gpu-tree\"");
    const std::pair<std::string, std::string> cases[] = {{gpu, "gravity.backend"}};
    for (const auto& [text, key] : cases) {
        SCOPED_TRACE(key);
        const auto o = run_over(3, new_ranks_run(text));
        for (std::size_t r = 0; r < 3; ++r) {
            EXPECT_NE(o.errors[r].find("cloud.toml"), std::string::npos) << o.errors[r];
            EXPECT_NE(o.errors[r].find(key), std::string::npos) << o.errors[r];
            EXPECT_NE(o.errors[r].find("over several MPI ranks is not available yet"),
                      std::string::npos)
                << o.errors[r];
            EXPECT_EQ(o.errors[r], o.errors[0]);
        }
        EXPECT_FALSE(std::filesystem::exists(out)); // refused before the output begins
    }
}

TEST(RankErrors, AnErrorOfOneRankIsThrownOnEveryRankAsTheLowestFailingRanksKindAndText) {
    for (int p = 1; p <= 4; ++p) {
        SCOPED_TRACE("ranks " + std::to_string(p));
        std::vector<std::string> kinds(static_cast<std::size_t>(p));
        rubble::test::ThreadRanks(p).run([&](rubble::core::Communicator& world) {
            auto& kind = kinds[static_cast<std::size_t>(world.rank())];
            // Nothing wrong anywhere: every rank goes on.
            rubble::core::together(world, [] {});
            try {
                rubble::core::together(world, [&] {
                    if (world.rank() == p - 1)
                        throw rubble::PhysicsError("body 7 is not finite on rank " +
                                                   std::to_string(world.rank()));
                    if (p > 2 && world.rank() == p - 2) throw rubble::IoError("disk full");
                });
                kind = "none";
            } catch (const rubble::PhysicsError& e) {
                kind = std::string("physics: ") + e.what();
            } catch (const rubble::IoError& e) {
                kind = std::string("io: ") + e.what();
            }
        });
        const std::string expected =
            p > 2 ? "io: disk full"
                  : "physics: body 7 is not finite on rank " + std::to_string(p - 1);
        for (const auto& k : kinds)
            EXPECT_EQ(k, expected);
    }
}

} // namespace
