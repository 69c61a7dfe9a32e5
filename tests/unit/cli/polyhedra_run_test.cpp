// SPDX-License-Identifier: MIT
// Polyhedral grains through `rubble run` (docs/polyhedra.md): a cloud of cubes or random hulls
// made from the parameter file, moved by the NSC stepper with walls and uniform gravity, written
// with their shapes, and resumed after an interruption.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <hdf5.h>

#include "cli_runner.hpp"
#include "rubble/polyhedra/nsc_stepper.hpp"
#include "rubble/runfile/run_file.hpp"
#include "run_comparison.hpp"
#include "temp_dir.hpp"

using rubble::test::run_rubble;
using rubble::test::TempDir;

namespace {

constexpr double floor_z = -0.35; // m, the box's floor
constexpr double g = 9.81;        // m/s^2
constexpr double dt = 2e-3;       // s

// 27 cubes of circumradius 5 cm (edge 5.77 cm) placed at random in a 0.6 m cube, dropped into
// a closed box, no restitution, mu = 0.5.
std::string cubes(const std::string& out, const std::string& extra = "",
                  const std::string& collisions = "") {
    return "[integrator]\ndt = 2e-3\nt_end = 1.5\n"
           "[gravity]\nbackend = \"none\"\nuniform_g = [0.0, 0.0, -9.81]\n"
           "[collisions]\nenabled = true\neps_n = 0.0\nmu = 0.5\n" +
           collisions + "[output]\nfile = \"" + out +
           "\"\nsnapshot_interval = 0.5\ndiagnostics_interval = 0.1\n"
           "[ic]\ntype = \"cloud\"\ncentre_of_mass_frame = false\n"
           "[ic.cloud]\nn = 27\nshape = \"cube\"\nsize = 0.6\nradius = 0.05\ngrain = \"cube\"\n"
           "grain_model = \"polyhedron\"\ndensity = 2500.0\n" +
           extra +
           "[[walls]]\ntype = \"box\"\nmin = [-0.35, -0.35, -0.35]\nmax = [0.35, 0.35, 0.8]\n";
}

// The lowest point of body k's hull in the world (m).
double lowest_vertex(const rubble::Bodies& b, std::size_t k) {
    const auto row = static_cast<std::size_t>(
        std::find(b.hulls.body.begin(), b.hulls.body.end(), static_cast<std::int64_t>(k)) -
        b.hulls.body.begin());
    const auto& shape = b.hull_shapes()[static_cast<std::size_t>(b.hulls.shape[row])];
    double z = INFINITY;
    for (const rubble::Vec3& v : shape.hull.vertices)
        z = std::min(z, (b.pos[k] + b.orientation[k] * v).z());
    return z;
}

} // namespace

TEST(PolyhedraRun, CubesDroppedInABoxComeToRestOnTheFloor) {
    TempDir dir;
    const std::string out = dir.file("cubes.h5");
    const auto r = run_rubble({"run", dir.write("p.toml", cubes(out))});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("collisions: polyhedra (non-smooth contact, apgd), mu = 0.5"),
              std::string::npos)
        << r.out;
    const auto first = rubble::runfile::read_snapshot(out, 0),
               last = rubble::runfile::read_snapshot(out, -1);
    const rubble::Bodies& b = last.bodies;
    ASSERT_EQ(b.size(), 27u);
    ASSERT_EQ(b.hulls.size(), 27u);
    ASSERT_EQ(b.hull_shapes().size(), 27u);
    EXPECT_EQ(b.hull_shapes()[0].vertex_count(), 8u); // cubes
    // The automatic margin: 1 % of the cube's inradius, half its edge 2 r / sqrt(3).
    const double margin = rubble::polyhedra::auto_margin_fraction * 0.05 / std::sqrt(3.0);
    for (std::size_t k = 0; k < b.size(); ++k) {
        // Resting at the leapfrog's synchronisation point: the last half-kick of gravity is
        // all the velocity left, g dt / 2 down (to the solver's tolerance of the speeds).
        EXPECT_NEAR(b.vel[k].z(), -0.5 * g * dt, 1e-3 * g * dt) << "body " << k;
        EXPECT_LT(b.vel[k].head<2>().norm(), 1e-3 * g * dt) << "body " << k;
        // On or above the floor: the sharp corners may reach a corner's rounding (sqrt 3
        // margins) below the rounded surface that rests on it, no more.
        EXPECT_GT(lowest_vertex(b, k), floor_z - std::sqrt(3.0) * margin - 1e-9) << "body " << k;
        EXPECT_LT(std::abs(b.pos[k].x()), 0.35);
        EXPECT_LT(std::abs(b.pos[k].y()), 0.35);
        // It fell: from anywhere in the 0.6 m cube to the bottom two layers.
        EXPECT_LT(b.pos[k].z(), floor_z + 0.2);
    }
    EXPECT_GT(first.bodies.pos[0].z(), -0.3);
    // Resting contacts are not overlaps.
    const auto diagnostics = rubble::runfile::read_diagnostics(out);
    EXPECT_EQ(diagnostics.back().overlaps, 0);
}

// A slab held in place on the box's floor ([[walls]] type = "hull": a 0.4 x 0.4 x 0.03 m box
// from a vertex file, turned a quarter turn about z, which leaves it the same), below where
// the cloud starts: the cubes that land on it rest on its top face, the others on the floor.
TEST(PolyhedraRun, CubesComeToRestOnAFixedHull) {
    TempDir dir;
    const std::string out = dir.file("slab.h5");
    std::string vertices = "# a 0.4 x 0.4 x 0.03 m slab about its centre\n";
    for (int k = 0; k < 8; ++k)
        vertices += std::string(k & 1 ? "0.2" : "-0.2") + " " + (k & 2 ? "0.2" : "-0.2") + " " +
                    (k & 4 ? "0.015" : "-0.015") + "\n";
    const std::string slab = "[[walls]]\ntype = \"hull\"\nvertices = \"" +
                             dir.write("slab.txt", vertices) +
                             "\"\npoint = [0.0, 0.0, -0.335]\naxis = [0.0, 0.0, 1.0]\n"
                             "angle = 1.5707963267948966\n";
    const auto r = run_rubble({"run", dir.write("p.toml", cubes(out) + slab)});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("1 fixed hull(s)"), std::string::npos) << r.out;
    const rubble::Bodies& b = rubble::runfile::read_snapshot(out, -1).bodies;
    const double margin = rubble::polyhedra::auto_margin_fraction * 0.05 / std::sqrt(3.0);
    const double top = -0.32, corner = std::sqrt(3.0) * margin + 1e-9;
    int on_slab = 0;
    for (std::size_t k = 0; k < b.size(); ++k) {
        EXPECT_NEAR(b.vel[k].z(), -0.5 * g * dt, 1e-3 * g * dt) << "body " << k;
        // Over the slab (its centre within the top face, its circumradius in): on top of it.
        if (std::max(std::abs(b.pos[k].x()), std::abs(b.pos[k].y())) < 0.2 - 0.05) {
            ++on_slab;
            EXPECT_GT(lowest_vertex(b, k), top - corner) << "body " << k;
            EXPECT_LT(lowest_vertex(b, k), top + 0.01) << "body " << k;
        }
    }
    EXPECT_GT(on_slab, 0); // the slab was in the way of some
}

TEST(PolyhedraRun, HullWallsAreRefusedWithTheirTableNamed) {
    TempDir dir;
    const std::string out = dir.file("x.h5");
    const std::string file = dir.write("tetra.txt", "0 0 0\n1 0 0\n0 1 0\n0 0 1\n");
    const auto refused = [&](const std::string& p, const std::string& what) {
        const auto r = run_rubble({"run", dir.write("p.toml", p), "--quiet"});
        EXPECT_NE(r.code, 0) << p;
        EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("walls[1]"), std::string::npos) << r.err;
    };
    const std::string hull =
        "[[walls]]\ntype = \"hull\"\nvertices = \"" + file + "\"\npoint = [0.0, 0.0, -0.3]\n";
    refused(cubes(out) + hull + "angle = 0.5\n", "axis, which is missing");
    refused(cubes(out) + "[[walls]]\ntype = \"hull\"\nvertices = \"" + dir.file("none.txt") +
                "\"\npoint = [0.0, 0.0, 0.0]\n",
            "none.txt");
    refused(cubes(out) + hull + "velocity = [1.0, 0.0, 0.0]\n", "has no key 'velocity'");
    refused(cubes(out) + hull, "starts"); // the tetrahedron, 1 m across, holds some cubes
    std::string spheres = cubes(out) + hull;
    for (const std::string line : {"grain_model = \"polyhedron\"\n", "grain = \"cube\"\n"})
        spheres.erase(spheres.find(line), line.size());
    refused(spheres, "partner of polyhedral grains only");
}

TEST(PolyhedraRun, RandomHullsAreBuiltAndWrittenWithTheirShapes) {
    TempDir dir;
    const std::string out = dir.file("hulls.h5");
    const std::string p = cubes(out, "") + "";
    std::string hulls = p;
    hulls.replace(hulls.find("grain = \"cube\""), 14, "grain = \"hull\"");
    hulls.replace(hulls.find("t_end = 1.5"), 11, "t_end = 0.2");
    const auto r = run_rubble({"run", dir.write("p.toml", hulls), "--quiet"});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto last = rubble::runfile::read_snapshot(out, -1);
    ASSERT_EQ(last.bodies.hull_shapes().size(), 27u);
    for (const auto& shape : last.bodies.hull_shapes()) {
        EXPECT_GE(shape.vertex_count(), 8u); // 16 points on a jittered ellipsoid
        EXPECT_LE(shape.vertex_count(), 16u);
    }
}

TEST(PolyhedraRun, AnInterruptedRunResumesBitwise) {
    // The solver's warm starts (the last step's impulses) are stored with each snapshot
    // (stepper_state) and restored on resume, so the resumed run's solves start where the
    // uninterrupted run's do: with the default caps of `rubble run`, which stop the solver
    // short of its tolerance in a pile, the runs end bitwise the same (docs/polyhedra.md).
    TempDir dir;
    const std::string whole = dir.file("whole.h5"), parts = dir.file("parts.h5");
    ASSERT_EQ(run_rubble({"run", dir.write("a.toml", cubes(whole)), "--quiet"}).code, 0);
    auto r =
        run_rubble({"run", dir.write("b.toml", cubes(parts)), "--quiet", "--stop-after", "300"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_FALSE(rubble::runfile::is_complete(parts));
    // Stopped while the cubes land: the snapshot holds their contacts' warm starts.
    EXPECT_GT(rubble::runfile::read_snapshot(parts, -1).stepper_state.rows, 27u);
    r = run_rubble({"run", "--resume", parts, "--quiet", "--stop-after", "150"});
    ASSERT_EQ(r.code, 0) << r.err;
    r = run_rubble({"run", "--resume", parts, "--quiet"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    EXPECT_TRUE(rubble::runfile::is_complete(parts));
    rubble::test::expect_same_run(whole, parts);
    const auto a = rubble::runfile::read_snapshot(whole, -1),
               b = rubble::runfile::read_snapshot(parts, -1);
    EXPECT_EQ(a.stepper_state.arrays[0].ints, b.stepper_state.arrays[0].ints);
    EXPECT_EQ(a.stepper_state.arrays[2].reals, b.stepper_state.arrays[2].reals);
}

namespace {

// Replaces dataset `name` of the last snapshot's stepper_state in `path` with its first `rows`
// rows (a truncated write), or removes the group when `name` is empty (a file of an older
// rubble).
void damage_state(const std::string& path, const std::string& name, hsize_t rows) {
    const auto count = rubble::runfile::snapshot_count(path);
    char group[64];
    std::snprintf(group, sizeof group, "/snapshots/%06lld/stepper_state",
                  static_cast<long long>(count - 1));
    const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    if (name.empty()) {
        EXPECT_GE(H5Ldelete(f, group, H5P_DEFAULT), 0);
    } else {
        const hid_t state = H5Gopen2(f, group, H5P_DEFAULT);
        ASSERT_GE(state, 0);
        const hid_t set = H5Dopen2(state, name.c_str(), H5P_DEFAULT);
        const hid_t space = H5Dget_space(set);
        hsize_t dims[2] = {0, 1};
        const int rank = H5Sget_simple_extent_dims(space, dims, nullptr);
        std::vector<double> values(dims[0] * dims[1]);
        EXPECT_GE(H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
        H5Sclose(space);
        H5Dclose(set);
        EXPECT_GE(H5Ldelete(state, name.c_str(), H5P_DEFAULT), 0);
        dims[0] = rows;
        const hid_t shorter = H5Screate_simple(rank, dims, nullptr);
        const hid_t again = H5Dcreate2(state, name.c_str(), H5T_IEEE_F64LE, shorter, H5P_DEFAULT,
                                       H5P_DEFAULT, H5P_DEFAULT);
        EXPECT_GE(H5Dwrite(again, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
                  0);
        H5Dclose(again);
        H5Sclose(shorter);
        H5Gclose(state);
    }
    H5Fclose(f);
}

} // namespace

// A stepper state that is not whole (a dataset shorter than the group's rows, an impulse that
// is not finite) refuses the resume with the file and the group named, the file unchanged; a
// snapshot without one (written before states were stored) resumes with a warning that it will
// not be bitwise.
TEST(PolyhedraRun, AResumeChecksTheStepperStateOfItsSnapshot) {
    TempDir dir;
    // One run stopped at step 300 (snapshots at steps 0, 250, 300), copied for each damage.
    const std::string stopped = dir.file("stopped.h5");
    std::string p = cubes(stopped);
    p.replace(p.find("t_end = 1.5"), 11, "t_end = 0.7");
    const auto r0 = run_rubble({"run", dir.write("p.toml", p), "--quiet", "--stop-after", "300"});
    ASSERT_EQ(r0.code, 0) << r0.err;
    const auto copy = [&](const std::string& name) {
        const std::string out = dir.file(name);
        std::filesystem::copy_file(stopped, out);
        return out;
    };
    const std::string group = "':/snapshots/000002/stepper_state";

    const std::string truncated = copy("truncated.h5");
    const auto rows = rubble::runfile::read_snapshot(truncated, -1).stepper_state.rows;
    ASSERT_GT(rows, 2u);
    damage_state(truncated, "impulse", rows - 2);
    auto r = run_rubble({"run", "--resume", truncated, "--quiet"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(
        r.err.find(truncated + group + ": 'impulse' has " + std::to_string(rows - 2) + " rows"),
        std::string::npos)
        << r.err;

    const std::string nan = copy("nan.h5");
    {
        auto snap = rubble::runfile::read_snapshot(nan, -1);
        snap.stepper_state.arrays[2].reals[1] = std::nan("");
        auto f = rubble::runfile::RunFile::open_existing(nan);
        f.write_snapshot(snap.bodies, snap.time + dt, snap.step + 1, snap.totals,
                         snap.stepper_state);
    }
    r = run_rubble({"run", "--resume", nan, "--quiet"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find(nan + "':/snapshots/000003/stepper_state: impulse row 0 is not finite"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(rubble::runfile::snapshot_count(nan), 4); // refused before the file was opened

    const std::string old = copy("old.h5");
    damage_state(old, "", 0);
    EXPECT_TRUE(rubble::runfile::read_snapshot(old, -1).stepper_state.empty());
    r = run_rubble({"run", "--resume", old, "--quiet"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("has no stepper state in its last snapshot"), std::string::npos) << r.err;
    EXPECT_TRUE(rubble::runfile::is_complete(old));
}

namespace {

// The cubes' cloud as spheres of the same circumradius (ic.cloud's default grain model).
std::string sphere_cloud(const std::string& out, const std::string& collisions) {
    std::string p = cubes(out, "", collisions);
    for (const std::string line : {"grain_model = \"polyhedron\"\n", "grain = \"cube\"\n"})
        p.erase(p.find(line), line.size());
    return p;
}

// The run of parameters p (which write dir's c.h5) refused with exit status 2, its error
// naming key and saying what, and nothing written.
void expect_refused(TempDir& dir, const std::string& p, const std::string& key,
                    const std::string& what) {
    const auto bad = run_rubble({"run", dir.write("c.toml", p), "--quiet"});
    EXPECT_EQ(bad.code, 2) << p;
    EXPECT_NE(bad.err.find(key), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find(what), std::string::npos) << bad.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("c.h5")));
}

} // namespace

// collisions.stepper = "nsc" moves spheres with the polyhedra's stepper (issue 35): the spheres
// land in the box without going through its floor, an interrupted run resumes bitwise (the
// warm starts of sphere contacts are stored as the polyhedra's are), and what the stepper
// cannot do is refused before any output, naming the key.
TEST(PolyhedraRun, SpheresTakeTheNonSmoothContactStepperWhenAskedAndResumeBitwise) {
    TempDir dir;
    const std::string whole = dir.file("whole.h5"), parts = dir.file("parts.h5");
    const std::string nsc = "stepper = \"nsc\"\n";
    auto r = run_rubble({"run", dir.write("a.toml", sphere_cloud(whole, nsc))});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("collisions: spheres (non-smooth contact"), std::string::npos) << r.out;
    const auto end = rubble::runfile::read_snapshot(whole, -1);
    ASSERT_EQ(end.bodies.size(), 27u);
    ASSERT_TRUE(end.bodies.all_free_spheres());
    // Above the floor to the solve's error: its residual (solver_tolerance, 1e-6, of the
    // fastest contact speed, at most the fall's 5 m/s) over a step, with a factor 10 for the
    // iteration cap.
    const double depth = 10.0 * 1e-6 * 5.0 * dt;
    for (std::size_t k = 0; k < end.bodies.size(); ++k)
        EXPECT_GT(end.bodies.pos[k].z() - end.bodies.radius[k] - floor_z, -depth)
            << "sphere " << end.bodies.id[k] << " is in the floor";
    r = run_rubble(
        {"run", dir.write("b.toml", sphere_cloud(parts, nsc)), "--quiet", "--stop-after", "300"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_GT(rubble::runfile::read_snapshot(parts, -1).stepper_state.rows, 0u);
    r = run_rubble({"run", "--resume", parts, "--quiet"});
    ASSERT_EQ(r.code, 0) << r.err;
    rubble::test::expect_same_run(whole, parts);

    const std::string out = dir.file("c.h5");
    expect_refused(dir, sphere_cloud(out, nsc + "outcome = \"merge\"\n"), "collisions.outcome",
                   "neither merges nor sticks");
    expect_refused(dir, cubes(out, "", "stepper = \"event_driven\"\n"), "collisions.stepper",
                   "polyhedra take \"nsc\"");
    expect_refused(dir, sphere_cloud(out, "stepper = \"events\"\n"), "collisions.stepper",
                   "events");
}

// Rolling and twisting resistance (collisions.mu_roll, mu_twist) with the NSC stepper's PGS
// solve: a run with them resumes bitwise (their angular impulses start from zero at every
// step, so no state is stored for them), and they are refused, naming the key, before any
// output where they cannot act: with the event-driven drift, with APGD, with polyhedra.
TEST(PolyhedraRun, RollingResistanceResumesBitwiseAndIsRefusedWhereItCannotAct) {
    TempDir dir;
    const std::string whole = dir.file("whole.h5"), parts = dir.file("parts.h5");
    const std::string rolling =
        "stepper = \"nsc\"\nsolver = \"pgs\"\nsolver_iterations = 60\nsolver_passes = 1\n"
        "mu_roll = 0.1\nmu_twist = 0.05\n";
    // 0.6 s: the spheres land on the floor (0.3 s) and push each other while they settle.
    auto r = run_rubble({"run", dir.write("a.toml", sphere_cloud(whole, rolling)), "--quiet",
                         "--integrator.t_end", "0.6"});
    ASSERT_EQ(r.code, 0) << r.err;
    r = run_rubble({"run", dir.write("b.toml", sphere_cloud(parts, rolling)), "--quiet",
                    "--integrator.t_end", "0.6", "--stop-after", "200"});
    ASSERT_EQ(r.code, 0) << r.err;
    r = run_rubble({"run", "--resume", parts, "--quiet"});
    ASSERT_EQ(r.code, 0) << r.err;
    rubble::test::expect_same_run(whole, parts);

    const std::string out = dir.file("c.h5");
    expect_refused(dir, sphere_cloud(out, "solver = \"pgs\"\nmu_roll = 0.1\n"),
                   "collisions.mu_roll", "event-driven");
    expect_refused(dir, sphere_cloud(out, "stepper = \"nsc\"\nmu_twist = 0.1\n"),
                   "collisions.mu_twist", "solver = \"pgs\"");
    expect_refused(dir, cubes(out, "", "solver = \"pgs\"\nmu_roll = 0.1\n"), "collisions.mu_roll",
                   "polyhedra resist rolling");
    expect_refused(dir, sphere_cloud(out, "stepper = \"nsc\"\nsolver = \"pgs\"\nmu_roll = -0.1\n"),
                   "collisions.mu_roll", "-0.1");
}
