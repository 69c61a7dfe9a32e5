// SPDX-License-Identifier: MIT
#include <cmath>
#include <fstream>
#include <limits>
#include <utility>

#include <gtest/gtest.h>

#include "rubble/core/error.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/ic/aggregates.hpp"
#include "rubble/ic/generators.hpp"
#include "rubble/runfile/run_file.hpp"
#include "temp_dir.hpp"

using namespace rubble;

namespace {

Bodies sample_bodies() {
    ic::CloudConfig c;
    c.n = 50;
    c.size = 30.0;
    c.radii = {ic::RadiusDistribution::uniform, 1.0, 0.5, 1.5, 0.0};
    Rng rng(4);
    Bodies b = ic::make_cloud(c, rng);
    ic::apply_motion(b, {0.3, 0.2, 0.01}, rng);
    b.orientation[3] = Quat(Eigen::AngleAxisd(0.3, Vec3(1, 2, 3).normalized()));
    return b;
}

integrate::Diagnostics row(std::int64_t step) {
    integrate::Diagnostics d;
    d.step = step;
    d.time = 0.5 * static_cast<double>(step);
    d.total_energy = -1.0 - 1e-3 * static_cast<double>(step);
    d.momentum = Vec3(1, 2, 3) * static_cast<double>(step);
    return d;
}

// Every field of the table's field list, bit for bit (a field added to the list is checked
// with no change here).
template <class Table> void expect_same_table(const Table& got, const Table& want) {
    for_each_field<Table>([&](const auto& field) {
        const auto &g = got.*field.member, &w = want.*field.member;
        ASSERT_EQ(g.size(), w.size()) << field.name;
        for (std::size_t i = 0; i < w.size(); ++i) {
            if constexpr (std::is_same_v<std::decay_t<decltype(w[i])>, Quat>)
                EXPECT_EQ(g[i].coeffs(), w[i].coeffs()) << field.name << " row " << i;
            else
                EXPECT_EQ(g[i], w[i]) << field.name << " row " << i;
        }
    });
}

} // namespace

TEST(RunFile, SnapshotRoundTripIsBitwise) {
    test::TempDir dir;
    const std::string path = dir.file("a.h5");
    const Bodies b = sample_bodies();
    runfile::RunFile f = runfile::RunFile::create(path, "[units]\nG = 1.0\n", 2.0, false);
    f.write_snapshot(b, 2.5, 1);
    const runfile::Snapshot s = runfile::read_snapshot(path, -1);
    EXPECT_EQ(s.time, 2.5);
    EXPECT_EQ(s.step, 1);
    expect_same_table(s.bodies, b);
    expect_same_table(s.bodies.spheres, b.spheres);
    EXPECT_EQ(runfile::read_parameters_toml(path), "[units]\nG = 1.0\n");
    EXPECT_EQ(runfile::read_start_time(path), 2.0);
    EXPECT_FALSE(runfile::is_complete(path));
}

TEST(RunFile, PolyhedraAndTheirShapesRoundTripBitwise) {
    test::TempDir dir;
    const std::string path = dir.file("hulls.h5");
    Bodies b;
    Rng rng(5);
    for (int k = 0; k < 4; ++k) {
        const auto shape = b.add_hull_shape(
            shapes::make_polyhedron(ic::random_ellipsoid_hull(Vec3(3, 2, 1), rng)));
        add_polyhedron(b, 10 + k, shape, 3000.0, Vec3(8.0 * k, 0, 0), Vec3(0, 0.1 * k, 0),
                       Vec3(0.01, 0, 0), Quat(Eigen::AngleAxisd(0.3 * k, Vec3::UnitZ())));
    }
    add_polyhedron(b, 20, 1, 1000.0, Vec3(0, 9, 0), Vec3::Zero(), Vec3::Zero());
    runfile::RunFile f = runfile::RunFile::create(path, "", 0.0, false);
    f.write_snapshot(b, 1.0, 1);
    const Bodies first = b;
    b.pos[0].x() += 1.0;
    f.write_snapshot(b, 2.0, 2); // the shapes are written once, with the first snapshot
    for (int i : {0, 1}) {
        const runfile::Snapshot s = runfile::read_snapshot(path, i);
        expect_same_table(s.bodies, i == 0 ? first : b);
        expect_same_table(s.bodies.hulls, b.hulls);
        ASSERT_EQ(s.bodies.hull_shapes().size(), b.hull_shapes().size());
        for (std::size_t k = 0; k < b.hull_shapes().size(); ++k) {
            const shapes::Polyhedron &got = s.bodies.hull_shapes()[k], &want = b.hull_shapes()[k];
            EXPECT_EQ(got.hull.vertices, want.hull.vertices);
            EXPECT_EQ(got.hull.faces, want.hull.faces);
            EXPECT_EQ(got.hull.normals, want.hull.normals);
            EXPECT_EQ(got.face_vertices, want.face_vertices);
            EXPECT_EQ(got.face_offsets, want.face_offsets);
        }
    }
}

// A stepper's state is written with the snapshot only when the stepper keeps one (the group
// stepper_state), and read back bit for bit: integers of any 64 bits, reals, any width, and
// no rows at all (a stepper with nothing to carry yet).
TEST(RunFile, StepperStatesRoundTripBitwiseAndAreAbsentWithoutOne) {
    test::TempDir dir;
    const std::string path = dir.file("state.h5");
    const Bodies b = sample_bodies();
    integrate::StepperState full;
    full.stepper = "nsc";
    full.rows = 2;
    full.arrays = {
        {"id", 2, true, {3, -1, 4, 7}, {}, "", "ids"},
        {"feature",
         1,
         true,
         {std::numeric_limits<std::int64_t>::min(), 0x123456789abcdefLL},
         {},
         "",
         "keys"},
        {"impulse", 3, false, {}, {1e-300, -0.0, 0.1, 2.0, -3.5, 6.02e23}, "N s", "impulses"}};
    integrate::StepperState none = full;
    none.rows = 0;
    for (auto& a : none.arrays) {
        a.ints.clear();
        a.reals.clear();
    }
    {
        runfile::RunFile f = runfile::RunFile::create(path, "", 0.0, false);
        f.write_snapshot(b, 0.0, 0);
        f.write_snapshot(b, 1.0, 1, {}, full);
        f.write_snapshot(b, 2.0, 2, {}, none);
    }
    EXPECT_TRUE(runfile::read_snapshot(path, 0).stepper_state.empty());
    for (const auto& [index, want] : {std::pair{1, &full}, std::pair{2, &none}}) {
        const integrate::StepperState got = runfile::read_snapshot(path, index).stepper_state;
        EXPECT_EQ(got.stepper, "nsc");
        EXPECT_EQ(got.rows, want->rows);
        ASSERT_EQ(got.arrays.size(), 3u);
        for (const integrate::StateArray& w : want->arrays) {
            const integrate::StateArray* a = got.find(w.name);
            ASSERT_NE(a, nullptr) << w.name;
            EXPECT_EQ(a->width, w.width) << w.name;
            EXPECT_EQ(a->integer, w.integer) << w.name;
            EXPECT_EQ(a->ints, w.ints) << w.name;
            ASSERT_EQ(a->reals.size(), w.reals.size()) << w.name;
            for (std::size_t k = 0; k < w.reals.size(); ++k)
                EXPECT_EQ(std::signbit(a->reals[k]), std::signbit(w.reals[k])) << k;
            EXPECT_EQ(a->reals, w.reals) << w.name;
        }
    }
}

TEST(RunFile, DiagnosticsAreWrittenWithSnapshotsAndTruncatedOnResume) {
    test::TempDir dir;
    const std::string path = dir.file("b.h5");
    const Bodies b = sample_bodies();
    {
        runfile::RunFile f = runfile::RunFile::create(path, "", 0.0, false);
        for (std::int64_t k = 0; k <= 4; ++k)
            f.append_diagnostics(row(k));
        f.write_snapshot(b, 2.0, 4);
        for (std::int64_t k = 5; k <= 9; ++k)
            f.append_diagnostics(row(k));
        f.write_snapshot(b, 4.5, 9);
        f.append_diagnostics(row(10));
        f.flush(); // a run killed after step 10: the last snapshot is at step 9
        EXPECT_EQ(runfile::read_diagnostics(path).size(), 11u);
        // While the run lives, no second run may write its file.
        EXPECT_THROW((void)runfile::RunFile::open_existing(path), InputError);
    } // the run ends (its lock with it)

    runfile::RunFile g = runfile::RunFile::open_existing(path);
    g.truncate_after(4);
    const auto diag = runfile::read_diagnostics(path);
    ASSERT_EQ(diag.size(), 5u);
    EXPECT_EQ(diag.back().step, 4);
    EXPECT_EQ(diag.back().total_energy, row(4).total_energy);
    EXPECT_EQ(diag.back().momentum, row(4).momentum);
    EXPECT_EQ(runfile::snapshot_count(path), 1);
    g.mark_complete(true, 1e-9, 2e-9);
    EXPECT_TRUE(runfile::is_complete(path));
}

TEST(RunFile, RefusesToOverwriteUnlessAsked) {
    test::TempDir dir;
    const std::string path = dir.write("exists.h5", "data");
    EXPECT_THROW((void)runfile::RunFile::create(path, "", 0.0, false), InputError);
    EXPECT_NO_THROW((void)runfile::RunFile::create(path, "", 0.0, true));
}

TEST(RunFile, ReadersRefuseFilesThatAreNotRubbleOutputs) {
    test::TempDir dir;
    const std::string text = dir.write("text.h5", "not hdf5 at all");
    EXPECT_THROW((void)runfile::read_snapshot(text, -1), InputError);
    EXPECT_THROW((void)runfile::read_snapshot(dir.file("missing.h5"), 0), InputError);
    const std::string empty = dir.file("empty.h5");
    (void)runfile::RunFile::create(empty, "", 0.0, false);
    try {
        (void)runfile::read_snapshot(empty, -1);
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("does not exist (the file has 0)"), std::string::npos);
    }
}
