// SPDX-License-Identifier: MIT
// Bodies from a table and back (issue 36, item 2; ic/body_table.hpp): a table written from
// bodies of every grain model reads back bit for bit (each value at %.17g is the same double,
// and nothing the export wrote is recomputed); a table as a user writes it (densities, a
// rotation about an axis, built-in and OBJ shapes, a parts file) gives the bodies the
// textbook formulas give (to round-off); every malformed table is refused naming its file,
// line and column.
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "rubble/core/error.hpp"
#include "rubble/core/polyhedron_mass.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/ic/aggregates.hpp"
#include "rubble/ic/body_table.hpp"
#include "rubble/ic/generators.hpp"
#include "rubble/ic/scenario.hpp"
#include "same_bodies.hpp"
#include "temp_dir.hpp"

using namespace rubble;
using rubble::test::TempDir;

namespace {

constexpr double table_eps = 2.220446049250313e-16;

// Five random hulls in the three grain models, moving and spinning, turned by products of
// rotations (unit only to round-off, as a run leaves them) and some with a finite free path.
Bodies moving_grains(ic::Representation model) {
    ic::CloudConfig c;
    c.n = 5;
    c.region = ic::Region::cube;
    c.size = 200.0;
    c.radii.distribution = ic::RadiusDistribution::uniform;
    c.radii.radius_min = 4.0;
    c.radii.radius_max = 13.0;
    c.density = 2500.0;
    c.grain.kind = ic::GrainKind::hull;
    c.grain.aspect = Vec3(1.0, 0.7, 0.5);
    c.grain.spheres_per_grain = 12;
    Rng rng(7);
    Bodies b = ic::represent(ic::make_scenario(c, rng), model);
    ic::apply_motion(b, ic::MotionConfig{0.3, 1e-2, 1e-3}, rng);
    for (std::size_t k = 0; k < b.size(); ++k) {
        for (int turn = 0; turn < 7; ++turn)
            b.orientation[k] =
                b.orientation[k] *
                Quat(Eigen::AngleAxisd(0.37 * (turn + 1),
                                       Vec3(1.0, 2.0, 3.0 + static_cast<double>(k)).normalized()));
        if (k % 2 == 1) b.free_path[k] = 0.1 * static_cast<double>(k) / 3.0;
    }
    return b;
}

// A sphere, an aggregate and a polyhedron in one set, as a run might hold them.
Bodies mixed_grains() {
    Bodies b;
    b.add_sphere(40, 3.0e3, 0.7, Vec3(1.0 / 3.0, -2.0, 0.1), Vec3(0.1, 0.2, -0.3),
                 Vec3(0.0, 1e-3, 0.0));
    const std::vector<SpherePart> parts{{Vec3(0.1, 0.0, 0.0), 0.5, 1000.0},
                                        {Vec3(1.0, 0.2, 0.0), 0.45, 800.0},
                                        {Vec3(0.5, 0.9, 0.3), 0.4, 700.0}};
    add_rigid_body(b, 7, parts, Vec3(5.0, 5.0, 5.0), Vec3(-0.1, 0.0, 0.0), Vec3(0.01, 0.02, 0.03),
                   Quat(0.3, 0.2, 0.1, 0.9).normalized());
    const std::int64_t s =
        b.add_hull_shape(shapes::make_polyhedron(ic::box_hull(Vec3(1.0, 0.6, 0.3))));
    add_polyhedron(b, -3, s, 2650.0, Vec3(-4.0, 0.0, 2.0), Vec3::Zero(), Vec3(0.0, 0.0, 0.5),
                   Quat(Eigen::AngleAxisd(0.4, Vec3::UnitY())));
    b.free_path[1] = 0.25;
    return b;
}

std::string text_of(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Everything after the first line (the comment naming where the bodies came from).
std::string body_of(const std::string& text) {
    return text.substr(text.find('\n') + 1);
}

// The message of the InputError read_body_table throws for `path` ("" if none).
std::string refusal(const std::string& path) {
    try {
        (void)ic::read_body_table(path);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST(BodyTable, EveryGrainModelReadsBackBitForBit) {
    TempDir dir;
    for (const auto model : {ic::Representation::sphere, ic::Representation::aggregate,
                             ic::Representation::polyhedron}) {
        SCOPED_TRACE(std::string(enum_name(ic::representation_names, model)));
        const Bodies b = moving_grains(model);
        const std::string path =
            dir.file(std::string(enum_name(ic::representation_names, model)) + ".csv");
        const auto written = ic::write_body_table(b, path, "test");
        EXPECT_EQ(written.back(), path);
        EXPECT_EQ(written.size(), model == ic::Representation::sphere ? 1u : 2u);
        test::expect_same_bodies(b, ic::read_body_table(path));
    }
}

TEST(BodyTable, MixedModelsReadBackBitForBitAndWriteTheSameTableAgain) {
    TempDir dir;
    const Bodies b = mixed_grains();
    const std::string first = dir.file("mixed.csv"), second = dir.file("again.txt");
    ic::write_body_table(b, first, "first");
    const Bodies read = ic::read_body_table(first);
    test::expect_same_bodies(b, read);
    ic::write_body_table(read, second, "second");
    // The same table, companions named after the second stem.
    std::string expected = body_of(text_of(first));
    for (std::size_t at; (at = expected.find("mixed.")) != std::string::npos;)
        expected.replace(at, 6, "again.");
    EXPECT_EQ(body_of(text_of(second)), expected);
    EXPECT_EQ(body_of(text_of(dir.file("again.parts.csv"))),
              body_of(text_of(dir.file("mixed.parts.csv"))));
    EXPECT_EQ(body_of(text_of(dir.file("again.shapes.obj"))),
              body_of(text_of(dir.file("mixed.shapes.obj"))));
}

TEST(BodyTable, AUsersTableGivesTheTextbookBodies) {
    TempDir dir;
    // A cube of edge 2 m written with its origin at a corner and square faces.
    dir.write("block.obj",
              "# a unit block\no block\n"
              "v 0 0 0\nv 2 0 0\nv 2 2 0\nv 0 2 0\nv 0 0 2\nv 2 0 2\nv 2 2 2\nv 0 2 2\n"
              "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 3 4 8 7\nf 2 3 7 6\nf 1 5 8 4\n");
    // Two touching spheres of radius 1 m, in a frame whose origin is the first one's centre.
    dir.write("pair.csv", "x,y,z,radius\n0,0,0,1\n2,0,0,1\n");
    const std::string table =
        dir.write("bodies.csv", "# bodies placed by hand\n"
                                "id, x, y, z, vx, vy, vz, qw, qx, qy, qz, axis_x, axis_y, axis_z, "
                                "angle_deg, density, mass, radius, shape, size, parts\n"
                                "1, 0, 0, 0, 1, 0, 0, , , , , , , , , 3000, , 0.5, , ,\n"
                                "2, 10, 0, 0, , , , 0.7071, 0, 0, 0.7071, , , , , 2000, , , cube, "
                                "0.8660254037844386,\n"
                                "3, 20, 0, 0, , , , , , , , 0, 0, 1, 90, , 16000, , block.obj, ,\n"
                                "4, 30, 0, 0, , , , , , , , , , , , 1000, , , , , pair.csv\n");
    const Bodies b = ic::read_body_table(table);
    ASSERT_EQ(b.size(), 4u);
    // A spreadsheet's UTF-8 byte-order mark before the header is no part of its first name.
    EXPECT_EQ(ic::read_body_table(dir.write("bom.csv", "\xEF\xBB\xBFid,x,y,z,radius,mass\n"
                                                       "9,0,0,0,1,1\n"))
                  .id,
              (std::vector<std::int64_t>{9}));
    EXPECT_EQ(b.id, (std::vector<std::int64_t>{1, 2, 3, 4}));

    // The sphere: m = rho 4/3 pi r^3, I = 2/5 m r^2.
    const double m1 = 3000.0 * 4.0 / 3.0 * pi * 0.125;
    EXPECT_NEAR(b.mass[0], m1, 4 * table_eps * m1);
    EXPECT_NEAR(b.inertia[0].x(), 0.4 * m1 * 0.25, 8 * table_eps * m1);
    EXPECT_EQ(b.vel[0], Vec3(1.0, 0.0, 0.0));

    // The cube of circumradius sqrt(3)/2 m: edge 1 m, m = 2000 kg, I = m a^2 / 6; the rounded
    // quaternion normalised.
    EXPECT_NEAR(b.mass[1], 2000.0, 1e-12 * 2000.0);
    for (int i = 0; i < 3; ++i)
        EXPECT_NEAR(b.inertia[1][i], 2000.0 / 6.0, 1e-12 * 2000.0);
    EXPECT_NEAR(b.orientation[1].norm(), 1.0, 2 * table_eps);
    EXPECT_NEAR(b.orientation[1].z(), std::sqrt(0.5), 2 * table_eps);

    // The OBJ block: its centroid moved to the body's origin (vertices at +-1 m), the given
    // mass kept, I = m (2^2 + 2^2) / 12, turned by 90 degrees about z.
    const auto& block = b.hull_shapes()[static_cast<std::size_t>(b.hulls.shape[1])];
    for (const Vec3& v : block.hull.vertices)
        EXPECT_NEAR(v.cwiseAbs().maxCoeff(), 1.0, 4 * table_eps) << v.transpose();
    EXPECT_EQ(b.mass[2], 16000.0);
    for (int i = 0; i < 3; ++i)
        EXPECT_NEAR(b.inertia[2][i], 16000.0 * 8.0 / 12.0, 1e-12 * 16000.0);
    EXPECT_NEAR((b.orientation[2] * Vec3::UnitX() - Vec3::UnitY()).norm(), 0.0, 4 * table_eps);
    EXPECT_NEAR(b.radius[2], std::sqrt(3.0), 8 * table_eps);

    // The pair: offsets about its centre of mass, I_x = 2 (2/5 m r^2), I_y = I_z = that plus
    // 2 m (1 m)^2, radius 2 m.
    const double m = 1000.0 * 4.0 / 3.0 * pi;
    EXPECT_NEAR(b.mass[3], 2.0 * m, 4 * table_eps * m);
    EXPECT_EQ(b.radius[3], 2.0);
    const Mat3 inertia = inertia_tensor(b, 3);
    EXPECT_NEAR(inertia(0, 0), 0.8 * m, 1e-13 * m);
    EXPECT_NEAR(inertia(1, 1), 0.8 * m + 2.0 * m, 1e-13 * m);
    EXPECT_NEAR(inertia(2, 2), 0.8 * m + 2.0 * m, 1e-13 * m);
    b.check_consistent();
}

TEST(BodyTable, WhitespaceSeparatedTablesAndVertexFilesAreRead) {
    TempDir dir;
    dir.write("tetra.txt", "# x y z\n1 1 1\n1 -1 -1\n-1 1 -1\n-1 -1 1\n0 0 0\n");
    // Whitespace-separated cells cannot be empty: a size for every row, or no size column.
    const Bodies scaled = ic::read_body_table(dir.write("t.txt", "id x y z density shape size\n"
                                                                 "5 0 0 0 2000 tetra.txt 0.5\n"
                                                                 "6 3 0 0 2000 tetra.txt 0.25\n"));
    ASSERT_EQ(scaled.size(), 2u);
    EXPECT_EQ(scaled.hull_shapes().size(), 2u); // one per size
    EXPECT_NEAR(scaled.radius[0], 0.5, 4 * table_eps);
    EXPECT_NEAR(scaled.radius[1], 0.25, 4 * table_eps);
    const Bodies b = ic::read_body_table(dir.write("u.txt", "id x y z density shape\n"
                                                            "6 3 0 0 2000 tetra.txt\n"));
    EXPECT_NEAR(b.radius[0], std::sqrt(3.0), 4 * table_eps);
    // A regular tetrahedron of edge a = 2 sqrt(2) m: V = a^3 / (6 sqrt(2)) = 8/3 m^3.
    EXPECT_NEAR(b.mass[0], 2000.0 * 8.0 / 3.0, 1e-12 * 2000.0 * 8.0 / 3.0);
}

TEST(BodyTable, EveryMalformedTableIsRefusedNamingFileLineAndColumn) {
    TempDir dir;
    dir.write("two.obj", "o a\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\n"
                         "f 2 3 4\no b\nv 5 5 5\nv 6 5 5\nv 5 6 5\nv 5 5 6\n");
    dir.write("open.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\n");
    dir.write("badface.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n");
    dir.write("grouped.csv", "body,x,y,z,radius\n1,0,0,0,1\n1,2,0,0,1\n");
    struct Case {
        const char* name;
        std::string table;
        std::vector<std::string> expected;
    };
    const std::vector<Case> cases{
        {"unknown column",
         "# made by hand\nid,x,y,z,vel_x\n1,0,0,0,1\n",
         {":2: unknown column vel_x"}},
        {"no position",
         "id,x,y,z,radius,density\n1,,,,1,1\n",
         {":2: column x = \"\": every row needs a value here"}},
        {"huge cube",
         "id,x,y,z,density,shape,size\n1,0,0,0,1,cube,1e300\n",
         {"column size = \"1e300\": too large"}},
        {"no z", "id,x,y\n1,0,0\n", {"has no column z"}},
        {"half a group",
         "id,x,y,z,radius,density,vx,vy\n1,0,0,0,1,1,0,0\n",
         {"columns vx, vy, vz come together"}},
        {"not a number",
         "id,x,y,z,radius,density\n1,0,abc,0,1,1\n",
         {":2: column y = \"abc\": not a finite number"}},
        {"not finite",
         "id,x,y,z,radius,density\n1,0,0,nan,1,1\n",
         {":2: column z = \"nan\": not a finite number"}},
        {"cell count",
         "id,x,y,z,radius,density\n1,0,0,0,1\n",
         {":2: 5 cells, but the header (comma-separated) names 6 columns"}},
        {"no radius",
         "id,x,y,z,density\n# a comment\n1,0,0,0,1\n",
         {":3: column radius: a sphere needs its radius"}},
        {"mass and density",
         "id,x,y,z,radius,mass,density\n1,0,0,0,1,1,1\n",
         {":2: columns mass, density: give exactly one"}},
        {"negative radius",
         "id,x,y,z,radius,density\n1,0,0,0,-1,1\n",
         {"column radius = \"-1\": must be > 0"}},
        {"not an integer id",
         "id,x,y,z,radius,density\n1.5,0,0,0,1,1\n",
         {"column id = \"1.5\": every body needs an integer id"}},
        {"row half given",
         "id,x,y,z,radius,density,vx,vy,vz\n1,0,0,0,1,1,0,,0\n",
         {":2: columns vx, vy, vz are given together: vy is empty"}},
        {"model without shape",
         "id,x,y,z,radius,density,model\n1,0,0,0,1,1,polyhedron\n",
         {"column model = \"polyhedron\": a polyhedron needs its shape"}},
        {"unknown model",
         "id,x,y,z,radius,density,model\n1,0,0,0,1,1,blob\n",
         {"column model = \"blob\": must be sphere, aggregate or polyhedron"}},
        {"missing shape file",
         "id,x,y,z,density,shape\n1,0,0,0,1,nope.obj\n",
         {"column shape = \"nope.obj\"", "nope.obj: cannot read the OBJ shape file"}},
        {"two objects unnamed",
         "id,x,y,z,density,shape\n1,0,0,0,1,two.obj\n",
         {"the file holds 2 objects: name one as FILE.obj#OBJECT"}},
        {"object not there",
         "id,x,y,z,density,shape\n1,0,0,0,1,two.obj#c\n",
         {"has no object named \"c\""}},
        {"open surface",
         "id,x,y,z,density,shape\n1,0,0,0,1,open.obj\n",
         {"column shape = \"open.obj\"", "open.obj: object \"\""}},
        {"bad face index",
         "id,x,y,z,density,shape\n1,0,0,0,1,badface.obj\n",
         {"badface.obj:4: face corner \"9\" names vertex 9 of the 3 read so far"}},
        {"cube without size",
         "id,x,y,z,density,shape\n1,0,0,0,1,cube\n",
         {"column size: ", "must be > 0"}},
        {"size on a sphere",
         "id,x,y,z,radius,density,size\n1,0,0,0,1,1,2\n",
         {"column size = \"2\": scales a polyhedron's shape"}},
        {"parts and shape",
         "id,x,y,z,density,shape,parts\n1,0,0,0,1,cube,grouped.csv#1\n",
         {"has parts (an aggregate) or a shape (a polyhedron), not both"}},
        {"parts unnamed",
         "id,x,y,z,density,parts\n1,0,0,0,1,grouped.csv\n",
         {"column parts = \"grouped.csv\": the file has a body column: name one as FILE.csv#ID"}},
        {"parts group missing",
         "id,x,y,z,density,parts\n1,0,0,0,1,grouped.csv#2\n",
         {"no row of", "grouped.csv has body 2"}},
        {"zero quaternion",
         "id,x,y,z,radius,density,qw,qx,qy,qz\n1,0,0,0,1,1,0,0,0,0\n",
         {"column qw = \"0\": the quaternion (qw, qx, qy, qz) is 0"}},
        {"two orientations",
         "id,x,y,z,radius,density,qw,qx,qy,qz,axis_x,axis_y,axis_z,angle_deg\n"
         "1,0,0,0,1,1,1,0,0,0,0,0,1,5\n",
         {"give the orientation once"}},
        {"wrong inertia",
         "id,x,y,z,radius,density,inertia_1,inertia_2,inertia_3,axes_w,axes_x,axes_y,axes_z\n"
         "1,0,0,0,1,1000,1,1,1,1,0,0,0\n",
         {":2: the principal moments and axes given", "are not the shape's"}},
        {"negative free path",
         "id,x,y,z,radius,density,free_path\n1,0,0,0,1,1,-1\n",
         {"column free_path = \"-1\": must be >= 0"}},
        {"no rows", "id,x,y,z,radius,density\n", {"the body table has no rows"}},
        {"no header", "# nothing\n\n", {"has no header line naming its columns"}},
        {"header twice", "id,x,y,z,x\n", {"the header names column x twice"}},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        const std::string path = dir.write("bad.csv", c.table);
        const std::string message = refusal(path);
        EXPECT_EQ(message.rfind(path, 0), 0u) << message; // the file first
        for (const std::string& e : c.expected)
            EXPECT_NE(message.find(e), std::string::npos) << message;
    }
}
