// SPDX-License-Identifier: MIT
// The true shapes of a run for ParaView (issue 36, item 1; runfile/scene_geometry.hpp,
// runfile/shapes_sidecar.hpp): every sphere of every body at its world centre with its radius
// and its body's id, every hull's triangles at its pose, a box's six planes drawn as its six
// faces and a capped cylinder as its tube and discs; through a run, one file per snapshot
// whose counts are the snapshot's, kept in line with the run when files go missing, are
// damaged or belong to a snapshot the run has since dropped. Tolerances: round-off of one
// rotation (a few eps of the size).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "cli_runner.hpp"
#include "rubble/core/polyhedron.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/ic/aggregates.hpp"
#include "rubble/runfile/run_file.hpp"
#include "rubble/runfile/shapes_sidecar.hpp"
#include "rubble/storage/hdf5_util.hpp"
#include "temp_dir.hpp"

using namespace rubble;
using rubble::test::run_rubble;
using rubble::test::TempDir;

namespace {

constexpr double eps = 2.220446049250313e-16;

Bodies three_models() {
    Bodies b;
    b.add_sphere(40, 3.0e3, 0.7, Vec3(1.0, -2.0, 0.1), Vec3::Zero(), Vec3::Zero());
    add_rigid_body(b, 7, {{Vec3(0.0, 0.0, 0.0), 0.5, 1000.0}, {Vec3(1.0, 0.0, 0.0), 0.5, 1000.0}},
                   Vec3(3.0, 3.0, 3.0), Vec3::Zero(), Vec3::Zero(),
                   Quat(Eigen::AngleAxisd(0.5 * pi, Vec3::UnitZ())));
    const std::int64_t s = b.add_hull_shape(shapes::make_polyhedron(ic::tetrahedron_hull(0.8)));
    add_polyhedron(b, -3, s, 2650.0, Vec3(-3.0, 0.0, 2.0), Vec3::Zero(), Vec3::Zero(),
                   Quat(Eigen::AngleAxisd(0.4, Vec3::UnitY())));
    return b;
}

std::string aggregates_in_a_box(const std::string& out, int steps, bool overwrite = false) {
    return "[integrator]\ndt = 2e-3\nn_steps = " + std::to_string(steps) +
           "\n[gravity]\nbackend = \"none\"\nuniform_g = [0.0, 0.0, -9.81]\n"
           "[collisions]\nenabled = true\neps_n = 0.5\n"
           "[output]\nfile = \"" +
           out + "\"\nsnapshot_interval = 0.02\n" + (overwrite ? "overwrite = true\n" : "") +
           "[ic]\ntype = \"cloud\"\ncentre_of_mass_frame = false\n"
           "[ic.cloud]\nn = 8\nshape = \"cube\"\nsize = 0.6\nradius = 0.06\ngrain = \"cube\"\n"
           "spheres_per_grain = 8\ndensity = 2500.0\n"
           "[[walls]]\ntype = \"box\"\nmin = [-0.35, -0.35, -0.35]\nmax = [0.35, 0.35, 0.8]\n";
}

} // namespace

TEST(SceneGeometry, EverySphereAndHullTriangleIsWhereItsBodyPutsIt) {
    const Bodies b = three_models();
    const runfile::SceneGeometry g = runfile::scene_geometry(b, {}, 0.0);
    ASSERT_EQ(g.sphere_radii.size(), 3u); // the free sphere and the aggregate's two
    EXPECT_EQ(g.sphere_ids, (std::vector<std::int64_t>{40, 7, 7}));
    EXPECT_EQ(g.sphere_centres[0], Vec3(1.0, -2.0, 0.1));
    // The aggregate turned by 90 degrees about z: its spheres 1 m apart along y, about (3,3,3).
    EXPECT_NEAR((g.sphere_centres[2] - g.sphere_centres[1] - Vec3::UnitY()).norm(), 0.0, 8 * eps);
    EXPECT_NEAR((0.5 * (g.sphere_centres[1] + g.sphere_centres[2]) - Vec3(3.0, 3.0, 3.0)).norm(),
                0.0, 16 * eps);
    // The tetrahedron: 4 triangles, its vertices at its circumradius from its centre.
    ASSERT_EQ(g.hulls.triangles.size(), 4u);
    EXPECT_EQ(g.hulls.tag, (std::vector<std::int64_t>(4, -3)));
    for (const Vec3& v : g.hulls.vertices)
        EXPECT_NEAR((v - Vec3(-3.0, 0.0, 2.0)).norm(), 0.8, 8 * eps);
    EXPECT_TRUE(g.walls.triangles.empty());
}

TEST(SceneGeometry, ABoxIsDrawnAsItsSixFacesAndACapsuleOfACylinderAsTubeAndDiscs) {
    const Bodies b = three_models();
    runfile::Scene scene;
    const Vec3 lo(-5.0, -4.0, -1.0), hi(6.0, 5.0, 7.0);
    scene.walls = boundaries::box_walls(lo, hi, Vec3::Zero(), "walls[0]");
    runfile::SceneGeometry g = runfile::scene_geometry(b, scene, 0.0);
    ASSERT_EQ(g.walls.triangles.size(), 12u); // each face a rectangle, two triangles
    for (const Vec3& v : g.walls.vertices)
        for (int i = 0; i < 3; ++i) {
            EXPECT_GE(v[i], lo[i] - 16 * eps * 10.0) << v.transpose();
            EXPECT_LE(v[i], hi[i] + 16 * eps * 10.0) << v.transpose();
        }
    for (std::size_t t = 0; t < g.walls.triangles.size(); ++t) {
        const boundaries::Wall& w = scene.walls[static_cast<std::size_t>(g.walls.tag[t])];
        for (const std::int64_t v : g.walls.triangles[t])
            EXPECT_NEAR(w.normal.dot(g.walls.vertices[static_cast<std::size_t>(v)] - w.point), 0.0,
                        64 * eps * 10.0);
    }
    // Face areas: the box's, 2 (11 x 9 + 11 x 8 + 9 x 8).
    double area = 0.0;
    for (const auto& t : g.walls.triangles) {
        const Vec3& a = g.walls.vertices[static_cast<std::size_t>(t[0])];
        area += 0.5 * (g.walls.vertices[static_cast<std::size_t>(t[1])] - a)
                          .cross(g.walls.vertices[static_cast<std::size_t>(t[2])] - a)
                          .norm();
    }
    EXPECT_NEAR(area, 2.0 * (99.0 + 88.0 + 72.0), 1e-12 * 518.0);

    boundaries::Wall can;
    can.shape = boundaries::WallShape::cylinder;
    can.point = Vec3(0.0, 0.0, -2.0);
    can.normal = Vec3::UnitZ();
    can.radius = 10.0;
    can.length = 12.0;
    can.caps = true;
    scene.walls = {can};
    g = runfile::scene_geometry(b, scene, 0.0);
    const auto n = static_cast<std::size_t>(runfile::cylinder_segments);
    EXPECT_EQ(g.walls.triangles.size(), 2 * n + 2 * (n - 2));
    for (const Vec3& v : g.walls.vertices) {
        EXPECT_TRUE(std::abs(v.z() + 2.0) < 1e-12 || std::abs(v.z() - 10.0) < 1e-12) << v.z();
        EXPECT_NEAR(std::hypot(v.x(), v.y()), 10.0, 1e-12);
    }
}

TEST(ShapesSidecar, ARunKeepsOneFilePerSnapshotWithItsCountsAndRemakesWhatIsLost) {
    TempDir dir;
    const std::string run = dir.file("box.h5");
    ASSERT_EQ(run_rubble({"run", dir.write("box.toml", aggregates_in_a_box(run, 30))}).code, 0);
    const std::string folder = runfile::shapes_directory(run);
    ASSERT_TRUE(
        std::filesystem::exists(runfile::shapes_sidecar_path(run, runfile::ShapeKind::spheres)));
    const std::int64_t count = runfile::snapshot_count(run);
    ASSERT_EQ(count, 4); // t = 0, 0.02, 0.04, 0.06 s
    const auto dataset_rows = [](const std::string& file, const std::string& name) {
        const auto f = storage::h5::open_file(file, storage::h5::Mode::read);
        return storage::h5::dataset_shape(f.get(), name).first;
    };
    const auto file_of = [&](int k) { return folder + "/00000" + std::to_string(k) + ".h5"; };
    for (int k = 0; k < count; ++k) {
        const runfile::Snapshot snap = runfile::read_snapshot(run, k);
        EXPECT_EQ(dataset_rows(file_of(k), "spheres/radius"), snap.bodies.spheres.size());
        EXPECT_EQ(dataset_rows(file_of(k), "walls/triangles"), 12u);
    }
    const std::string xdmf = [&] {
        std::ifstream in(runfile::shapes_sidecar_path(run, runfile::ShapeKind::spheres));
        return std::string(std::istreambuf_iterator<char>(in), {});
    }();
    EXPECT_NE(xdmf.find("box.shapes/000003.h5:/spheres/centre"), std::string::npos);
    // One file lost, one damaged, one left from a snapshot no longer in the run.
    std::filesystem::remove(file_of(1));
    std::ofstream(file_of(2)) << "not HDF5";
    std::filesystem::copy_file(file_of(3), folder + "/000009.h5");
    const auto r = run_rubble({"xdmf", run});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("(4 snapshots, true shapes)"), std::string::npos) << r.out;
    EXPECT_FALSE(std::filesystem::exists(folder + "/000009.h5"));
    for (int k = 1; k <= 2; ++k)
        EXPECT_EQ(dataset_rows(file_of(k), "spheres/radius"),
                  runfile::read_snapshot(run, k).bodies.spheres.size());
    // A new, shorter run in its place leaves none of the earlier run's files.
    ASSERT_EQ(run_rubble({"run", dir.write("short.toml", aggregates_in_a_box(run, 10, true))}).code,
              0);
    ASSERT_EQ(runfile::snapshot_count(run), 2);
    EXPECT_TRUE(std::filesystem::exists(file_of(1)));
    EXPECT_FALSE(std::filesystem::exists(file_of(2)));
    EXPECT_FALSE(std::filesystem::exists(file_of(3)));
}

TEST(ShapesSidecar, OutputShapesFalseKeepsNone) {
    TempDir dir;
    const std::string run = dir.file("box.h5");
    ASSERT_EQ(run_rubble({"run", dir.write("box.toml", aggregates_in_a_box(run, 10)),
                          "--output.shapes", "false"})
                  .code,
              0);
    EXPECT_FALSE(std::filesystem::exists(runfile::shapes_directory(run)));
    for (const auto kind :
         {runfile::ShapeKind::spheres, runfile::ShapeKind::hulls, runfile::ShapeKind::walls})
        EXPECT_FALSE(std::filesystem::exists(runfile::shapes_sidecar_path(run, kind)));
}
