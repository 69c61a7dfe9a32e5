// SPDX-License-Identifier: MIT
// Bodies from a table through the command line (issue 36, item 2): `rubble export` writes a
// snapshot of a run as a table, and a run started from that table (ic.type = "table") holds,
// in its first snapshot, the snapshot's bodies bit for bit, for aggregates and polyhedra that
// have collided and turned; a bad table is refused naming ic.table.path with its line, the
// table's file, line and column, before any output exists.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "cli_runner.hpp"
#include "rubble/runfile/run_file.hpp"
#include "same_bodies.hpp"
#include "temp_dir.hpp"

using rubble::test::run_rubble;
using rubble::test::TempDir;

namespace {

// Twelve grains of a cloud in one grain model, colliding as they fall together for 30 steps.
std::string cloud(const std::string& out, const std::string& model) {
    return "[integrator]\ndt = 20.0\nn_steps = 30\n"
           "[collisions]\nenabled = true\neps_n = 0.5\n"
           "[output]\nfile = \"" +
           out +
           "\"\nsnapshot_interval = 200.0\n"
           "[ic]\ntype = \"scenario\"\n"
           "[ic.scenario]\nmodel = \"" +
           model +
           "\"\n"
           "[ic.cloud]\nn = 12\nshape = \"cube\"\nsize = 120.0\nradius = 10.0\ngrain = "
           "\"hull\"\nspheres_per_grain = 8\ndensity = 2000.0\n"
           "[ic.motion]\nv0 = 0.05\nw0 = 1e-3\n";
}

std::string from_table(const std::string& out, const std::string& table) {
    return "[integrator]\ndt = 20.0\nn_steps = 1\n"
           "[collisions]\nenabled = true\neps_n = 0.5\n"
           "[output]\nfile = \"" +
           out +
           "\"\n"
           "[ic]\ntype = \"table\"\ncentre_of_mass_frame = false\n"
           "[ic.table]\npath = \"" +
           table + "\"\n";
}

} // namespace

TEST(TableRun, AnExportedSnapshotStartsARunWithTheSameBodiesBitForBit) {
    for (const std::string model : {"aggregate", "polyhedron", "sphere"}) {
        SCOPED_TRACE(model);
        TempDir dir;
        const std::string run = dir.file("cloud.h5"), table = dir.file("state.csv");
        auto r = run_rubble({"run", dir.write("cloud.toml", cloud(run, model))});
        ASSERT_EQ(r.code, 0) << r.err;
        r = run_rubble({"export", run, "--snapshot", "-1", "--table", table});
        ASSERT_EQ(r.code, 0) << r.err;
        EXPECT_NE(r.out.find("12 bodies of snapshot"), std::string::npos) << r.out;
        const std::string again = dir.file("again.h5");
        r = run_rubble({"run", dir.write("again.toml", from_table(again, table))});
        ASSERT_EQ(r.code, 0) << r.err;
        const auto exported = rubble::runfile::read_snapshot(run, -1);
        EXPECT_GT(exported.index, 0);
        rubble::test::expect_same_bodies(exported.bodies,
                                         rubble::runfile::read_snapshot(again, 0).bodies);
    }
}

TEST(TableRun, ABadTableIsRefusedByKeyFileLineAndColumnBeforeAnyOutput) {
    TempDir dir;
    const std::string out = dir.file("out.h5");
    const std::string table = dir.write("bodies.csv", "id,x,y,z,radius,density\n"
                                                      "1,0,0,0,1,2000\n"
                                                      "2,5,0,zero,1,2000\n");
    const std::string params = dir.write("p.toml", from_table(out, table));
    const auto r = run_rubble({"run", params});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find(params + ":13: ic.table.path"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(table + ":3: column z = \"zero\": not a finite number"), std::string::npos)
        << r.err;
    EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(TableRun, ExportRefusesASnapshotTheRunDoesNotHave) {
    TempDir dir;
    const std::string run = dir.file("cloud.h5");
    ASSERT_EQ(run_rubble({"run", dir.write("cloud.toml", cloud(run, "sphere"))}).code, 0);
    const auto r = run_rubble({"export", run, "--snapshot", "9", "--table", dir.file("t.csv")});
    EXPECT_EQ(r.code, 2);
    const std::int64_t count = rubble::runfile::snapshot_count(run);
    EXPECT_NE(r.err.find("--snapshot 9: '" + run + "' has " + std::to_string(count) +
                         " snapshot(s), 0 to " + std::to_string(count - 1)),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("t.csv")));
}
