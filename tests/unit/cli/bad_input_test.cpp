// SPDX-License-Identifier: MIT
// Every kind of bad input, one table row each: the run is refused before any work starts with
// exit code 2 (input) and one line naming the parameter file (and line), the key and the
// value, or for a file the parameter that named it; no output file is left behind. Each row
// runs the whole command line in-process, so a refusal that came late (after generating
// bodies or starting to integrate) would show as a slow test.
#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <hdf5.h>

#include "cli_runner.hpp"
#include "rubble/runfile/run_file.hpp"
#include "temp_dir.hpp"

using rubble::test::run_rubble;
using rubble::test::TempDir;

namespace {

struct BadInput {
    std::string name;
    std::string toml;                ///< written to {dir}/p.toml unless `params` says otherwise
    std::vector<std::string> args;   ///< after `run PARAMS --quiet`
    std::vector<std::string> expect; ///< substrings of stderr
    int code = 2;
    std::string params = "{dir}/p.toml"; ///< "": no parameter file (--resume cases)
    bool one_line = true;                ///< CLI11's usage errors are longer
};

// A run that would take a fraction of a second; each row spoils it in one way.
// `cloud` holds the [ic.cloud] lines, from line 7.
std::string base(const std::string& cloud = "n = 20\n",
                 const std::string& integrator = "n_steps = 2\n") {
    return "[integrator]\ndt = 10.0\n" + integrator +
           "[output]\nfile = \"{dir}/out.h5\"\n[ic.cloud]\n" + cloud;
}
std::string section(const std::string& name, const std::string& body) {
    return base() + "[" + name + "]\n" + body;
}
// [collisions] enabled on lines 8-9, then one [[walls]] table from line 10 with `body`.
std::string wall(const std::string& body) {
    return section("collisions", "enabled = true\n") + "[[walls]]\n" + body;
}
const std::string far_plane = "type = \"plane\"\npoint = [0, 0, -1e4]\nnormal = [0, 0, 1]\n";
// A closed can around the cloud, 5 km long: its length on the table's fifth line.
const std::string finite_can = "type = \"cylinder\"\npoint = [0, 0, -2.5e3]\naxis = [0, 0, 1]\n"
                               "radius = 2e3\nlength = 5e3\ncaps = true\n";

std::string nested_header(int depth) {
    std::string h = "[";
    for (int i = 0; i < depth; ++i)
        h += "a.";
    return h + "b]\n";
}
std::string repeated(const std::string& s, int n) {
    std::string r;
    for (int i = 0; i < n; ++i)
        r += s;
    return r;
}
const std::string name300 = std::string(300, 'x') + ".h5";
const std::string path5000 = repeated("d/", 2500) + "out.h5";

const std::vector<BadInput>& cases() {
    static const std::vector<BadInput> table = {
        // The parameter file itself.
        {"NestedHeader50000Deep", nested_header(50000), {}, {"p.toml:1", "dotted parts"}},
        {"NestedHeaderOnLine8", base() + nested_header(40), {}, {"p.toml:8", "dotted parts"}},
        {"DottedKey100Deep", repeated("a.", 100) + "b = 1\n", {}, {"p.toml:1", "dotted parts"}},
        {"NestedArrays",
         "x = " + repeated("[", 100) + repeated("]", 100) + "\n",
         {},
         {"p.toml:1", "nested more than 32"}},
        {"NestedInlineTables",
         "x = " + repeated("{a = ", 100) + "1" + repeated("}", 100) + "\n",
         {},
         {"p.toml:1", "nested more than 32"}},
        {"DevZero", "", {}, {"/dev/zero", "not a regular file"}, 2, "/dev/zero"},
        {"Directory", "", {}, {"cannot read parameter file", "directory"}, 2, "{dir}"},
        {"MissingFile", "", {}, {"absent.toml", "No such file"}, 2, "{dir}/absent.toml"},
        {"NulByte", base() + std::string("x = 1\0\n", 7), {}, {"p.toml:8", "NUL byte"}},
        {"TooLarge",
         base() + repeated("# " + std::string(1000, 'c') + "\n", 1100),
         {},
         {"p.toml", "too large"}},
        {"EmptyFile", "", {}, {"p.toml (default)", "integrator.n_steps = 0", "exactly one"}},
        {"OnlyComments", "# nothing here\n", {}, {"p.toml (default)", "integrator.n_steps = 0"}},
        {"SyntaxError", base("n = = 3\n"), {}, {"p.toml:7", "malformed TOML"}},
        {"UnterminatedString", base("shape = \"cube\n"), {}, {"p.toml:7", "malformed TOML"}},
        {"DuplicateKey", base("n = 30\nn = 40\n"), {}, {"p.toml:8", "malformed TOML", "n"}},
        {"DuplicateTable", base() + "[integrator]\ndt = 1.0\n", {}, {"p.toml", "malformed TOML"}},
        {"IntegerTooLargeForToml",
         section("gravity", "check_samples = 99999999999999999999\n"),
         {},
         {"p.toml:9", "malformed TOML"}},
        {"UnknownKey",
         section("gravity", "thetaa = 0.5\n"),
         {},
         {"p.toml:9", "unknown parameter 'gravity.thetaa' (did you mean 'gravity.theta'?)"}},
        {"UnknownSection",
         section("typo", "key = 1\n"),
         {},
         {"p.toml:9", "unknown parameter 'typo.key'"}},
        {"StringForAReal",
         section("units", "G = \"big\"\n"),
         {},
         {"p.toml:9", "units.G = \"big\"", "expected a real number"}},
        {"RealForAnInteger", base("n = 2.5\n"), {}, {"p.toml:7", "ic.cloud.n = 2.5", "integer"}},
        {"BooleanForAnInteger", base("n = true\n"), {}, {"p.toml:7", "ic.cloud.n = true"}},
        {"IntegerForABoolean",
         section("collisions", "enabled = 1\n"),
         {},
         {"p.toml:9", "collisions.enabled = 1", "boolean"}},
        {"ArrayValue", section("units", "G = [1.0]\n"), {}, {"p.toml:9", "units.G", "arrays"}},
        {"DateValue", section("units", "G = 1979-05-27\n"), {}, {"p.toml:9", "units.G"}},
        {"NegativeTimeStep",
         "[integrator]\ndt = -1.0\nn_steps = 2\n",
         {},
         {"p.toml:2", "integrator.dt = -1.0", "must be > 0"}},
        {"NotANumber", section("units", "G = nan\n"), {}, {"p.toml:9", "units.G = nan", "finite"}},
        {"Infinity", section("units", "G = inf\n"), {}, {"p.toml:9", "units.G = inf", "finite"}},
        {"ThetaOutOfRange",
         section("gravity", "theta = 1.0\n"),
         {},
         {"p.toml:9", "gravity.theta = 1.0", "in (0, 1)"}},
        {"MultipoleOrder",
         section("gravity", "multipole_order = 5\n"),
         {},
         {"p.toml:9", "gravity.multipole_order = 5", "in [1, 4]"}},
        {"NegativeMargin",
         section("collisions", "margin = -0.1\n"),
         {},
         {"p.toml:9", "collisions.margin = -0.1"}},
        {"MarginLargerThanTheGrains",
         base("grain = \"cube\"\ngrain_model = \"polyhedron\"\n") +
             "[collisions]\nenabled = true\nmargin = 1e9\n",
         {},
         {"p.toml:11: collisions.margin = 1000000000.0",
          "hull shape 0 is too small for the collision margin", "collisions.margin = 1e+09 m"}},
        {"BadContactSolver",
         section("collisions", "solver = \"cg\"\n"),
         {},
         {"p.toml:9", "collisions.solver = \"cg\"", "must be one of apgd, pgs"}},
        {"RestitutionAboveOne",
         section("collisions", "eps_n = 1.5\n"),
         {},
         {"p.toml:9", "collisions.eps_n = 1.5"}},
        // Every string option: an unknown value is refused with the allowed ones (one table
        // of names per option, core/enum_names.hpp), never mapped to a default.
        {"BadBackend",
         section("gravity", "backend = \"fast\"\n"),
         {},
         {"p.toml:9", "gravity.backend = \"fast\"",
          "must be one of auto, direct, tree, none, gpu-direct, gpu-tree"}},
        {"BadGpuPrecision",
         section("gravity", "gpu_precision = \"half\"\n"),
         {},
         {"p.toml:9", "gravity.gpu_precision = \"half\"", "must be one of double, mixed"}},
        {"BadOutcome",
         section("collisions", "outcome = \"glue\"\n"),
         {},
         {"p.toml:9", "collisions.outcome = \"glue\"", "must be one of bounce, merge, stick"}},
        {"BadRestitutionLaw",
         section("collisions", "eps_n_law = \"linear\"\n"),
         {},
         {"p.toml:9", "collisions.eps_n_law = \"linear\"", "must be one of constant, power_law"}},
        {"BadOverlapStrategy",
         section("collisions", "overlaps = \"ignore\"\n"),
         {},
         {"p.toml:9", "collisions.overlaps = \"ignore\"",
          "must be one of auto, abort, trace_back, push_apart, merge, repulse"}},
        {"BadIcType",
         section("ic", "type = \"sphere\"\n"),
         {},
         {"p.toml:9", "ic.type = \"sphere\"", "must be one of cloud, lattice, two_body, file"}},
        {"BadCloudShape",
         base("n = 20\nshape = \"ball\"\n"),
         {},
         {"p.toml:8", "ic.cloud.shape = \"ball\"", "must be one of sphere, cube"}},
        {"BadRadiusDistribution",
         base("n = 20\nradius_distribution = \"normal\"\n"),
         {},
         {"p.toml:8", "ic.cloud.radius_distribution = \"normal\"",
          "must be one of fixed, uniform, power_law"}},
        {"BadBackendOnTheCommandLine",
         base(),
         {"--gravity.backend", "fmm"},
         {"command line (--gravity.backend)", "gravity.backend = \"fmm\"",
          "must be one of auto, direct"}},
        {"BothEndConditions",
         base("", "n_steps = 2\nt_end = 100.0\n"),
         {},
         {"p.toml:3", "integrator.n_steps = 2", "exactly one"}},
        // Aggregate grains ([ic.cloud] from line 7).
        {"BadGrain",
         base("grain = \"cylinder\"\n"),
         {},
         {"p.toml:7", "ic.cloud.grain = \"cylinder\"",
          "must be one of sphere, cube, box, tetrahedron, hull, file, vertices"}},
        {"OneSpherePerGrain",
         base("grain = \"cube\"\nspheres_per_grain = 1\n"),
         {},
         {"p.toml:8", "ic.cloud.spheres_per_grain = 1", "in [2, 10000]"}},
        {"NegativeGrainAspect",
         base("grain = \"box\"\ngrain_aspect = [1.0, -1.0, 1.0]\n"),
         {},
         {"p.toml:8", "ic.cloud.grain_aspect = [1.0, -1.0, 1.0]", "> 0"}},
        {"GrainFileMissing",
         base("grain = \"file\"\n"),
         {},
         {"ic.cloud.grain_file = \"\"", "must name a layout file"}},
        {"GrainFileUnreadable",
         base("grain = \"file\"\ngrain_file = \"{dir}/absent.txt\"\n"),
         {},
         {"p.toml:8", "ic.cloud.grain_file", "absent.txt: cannot read"}},
        {"GrainFileBadLine",
         base("grain = \"file\"\ngrain_file = \"{dir}/layout.txt\"\n"),
         {},
         {"p.toml:8", "ic.cloud.grain_file", "layout.txt:3: \"x\" is not a finite number"}},
        {"GrainFileForSpheres",
         base("grain_file = \"{dir}/layout.txt\"\n"),
         {},
         {"p.toml:7", "ic.cloud.grain_file", "only when ic.cloud.grain = \"file\""}},
        {"MatchHullForFileGrains",
         base("grain = \"file\"\nmatch_hull = true\n"),
         {},
         {"p.toml:8", "ic.cloud.match_hull = true", "cube, box, tetrahedron, hull or vertices"}},
        // Polyhedral grains.
        {"PolyhedraOfSpheres",
         base("grain_model = \"polyhedron\"\n"),
         {},
         {"p.toml:7", "ic.cloud.grain_model = \"polyhedron\"", "needs ic.cloud.grain = cube"}},
        {"BadGrainModel",
         base("grain = \"hull\"\ngrain_model = \"spheres\"\n"),
         {},
         {"p.toml:8", "ic.cloud.grain_model = \"spheres\"",
          "must be one of aggregate, polyhedron"}},
        {"MatchHullOfPolyhedra",
         base("grain = \"hull\"\ngrain_model = \"polyhedron\"\nmatch_hull = true\n"),
         {},
         {"p.toml:9", "ic.cloud.match_hull = true", "polyhedra are their hulls"}},
        {"VertexFileMissing",
         base("grain = \"vertices\"\n"),
         {},
         {"ic.cloud.grain_file = \"\"", "must name a vertex file"}},
        {"VertexFileUnreadable",
         base("grain = \"vertices\"\ngrain_file = \"{dir}/absent.txt\"\n"),
         {},
         {"p.toml:8", "ic.cloud.grain_file", "absent.txt: cannot read"}},
        {"SphereRadiusForSpheres",
         base("sphere_radius = 1.0\n"),
         {},
         {"p.toml:7", "ic.cloud.sphere_radius = 1.0", "ic.cloud.radius"}},
        {"SphereRadiusFarTooSmall",
         base("grain = \"hull\"\nsphere_radius = 0.01\n"),
         {},
         {"p.toml:8", "ic.cloud.sphere_radius = 0.01", "more than 10000"}},
        {"SphereRadiusLargerThanTheGrain",
         base("grain = \"cube\"\nsphere_radius = 50.0\n"),
         {},
         {"ic.cloud.sphere_radius = 50", "at least 2"}},
        {"RadiusMinAboveMax",
         base("radius_distribution = \"uniform\"\nradius_min = 30.0\n"),
         {},
         {"p.toml:8", "ic.cloud.radius_min = 30.0", "ic.cloud.radius_max"}},
        {"LatticeOverlaps",
         section("ic", "type = \"lattice\"\n[ic.lattice]\nspacing = 1.0\n"),
         {},
         {"p.toml:11", "ic.lattice.spacing = 1.0", "overlap"}},
        {"PeriodicBoxWithGravity",
         section("collisions", "enabled = true\nperiodic_box = 1e4\n"),
         {},
         {"p.toml:10", "collisions.periodic_box", "gravity.backend"}},
        // Walls and the uniform field.
        {"WallUnknownKey",
         wall(far_plane + "normall = 1.0\n"),
         {},
         {"p.toml:14", "unknown key 'normall' in walls[0] (did you mean 'normal'?)"}},
        {"WallKeyOfAnotherType",
         wall(far_plane + "radius = 1.0\n"),
         {},
         {"p.toml:14", "walls[0].radius = 1.0", "a plane wall has no key 'radius'"}},
        {"WallMissingKey",
         wall("type = \"plane\"\npoint = [0, 0, -1e4]\n"),
         {},
         {"p.toml:10", "walls[0]", "needs key 'normal'"}},
        {"WallMissingType", wall("point = [0, 0, 0]\n"), {}, {"p.toml:10", "missing key 'type'"}},
        {"WallBadType",
         wall("type = \"sphere\"\n"),
         {},
         {"p.toml:11", "walls[0].type = \"sphere\"", "one of plane, box, cylinder"}},
        {"WallZeroNormal",
         wall("type = \"plane\"\npoint = [0, 0, -1e4]\nnormal = [0, 0, 0]\n"),
         {},
         {"p.toml:13", "walls[0].normal = [0.0, 0.0, 0.0]", "non-zero"}},
        {"WallVectorOfTwo",
         wall("type = \"plane\"\npoint = [0, 0]\n"),
         {},
         {"p.toml:12", "walls[0].point", "3 real numbers"}},
        {"WallStringForAVector",
         wall("type = \"plane\"\nnormal = \"up\"\n"),
         {},
         {"p.toml:12", "walls[0].normal = \"up\"", "expected an array of 3 real numbers"}},
        {"WallNegativeRadius",
         wall("type = \"cylinder\"\npoint = [0, 0, 0]\naxis = [0, 0, 1]\nradius = -1.0\n"),
         {},
         {"p.toml:14", "walls[0].radius = -1.0", "must be > 0 (m)"}},
        {"WallBadSide",
         wall("type = \"cylinder\"\nside = \"between\"\n"),
         {},
         {"p.toml:12", "walls[0].side = \"between\"", "one of inside, outside"}},
        {"AnnulusWithoutHeight",
         base("n = 20\nshape = \"annulus\"\n"),
         {},
         {"ic.cloud.height", "an annulus needs a height > 0"}},
        {"AnnulusInnerBeyondOuter",
         base("n = 20\nshape = \"annulus\"\nsize = 1e3\ninner_radius = 2e3\nheight = 1e3\n"),
         {},
         {"p.toml:10", "ic.cloud.inner_radius", "must be < the annulus' outer radius"}},
        {"AnnulusNegativeHeight",
         base("n = 20\nshape = \"annulus\"\nheight = -1.0\n"),
         {},
         {"p.toml:9", "ic.cloud.height = -1.0", "must be >= 0"}},
        {"WallNegativeLength",
         wall("type = \"cylinder\"\npoint = [0, 0, 0]\naxis = [0, 0, 1]\nradius = 2e3\n"
              "length = -5.0\n"),
         {},
         {"p.toml:15", "walls[0].length = -5.0", "must be >= 0 (m)"}},
        {"WallCapsNotABoolean",
         wall("type = \"cylinder\"\npoint = [0, 0, 0]\naxis = [0, 0, 1]\nradius = 2e3\n"
              "length = 5.0\ncaps = \"yes\"\n"),
         {},
         {"p.toml:16", "walls[0].caps = \"yes\"", "a boolean (true or false)"}},
        {"WallCapsOnAnInfiniteCylinder",
         wall("type = \"cylinder\"\npoint = [0, 0, 0]\naxis = [0, 0, 1]\nradius = 2e3\n"
              "caps = true\n"),
         {},
         {"p.toml:15", "walls[0].caps = true", "need a finite cylinder", "walls[0].length > 0"}},
        {"WallOpenTubeOutside",
         wall("type = \"cylinder\"\npoint = [0, 0, 0]\naxis = [0, 0, 1]\nradius = 2e3\n"
              "length = 5.0\nside = \"outside\"\n"),
         {},
         {"p.toml:16", "walls[0].side = \"outside\"", "open finite tube", "caps = true"}},
        {"WallPlaneWithCaps",
         wall(far_plane + "caps = true\n"),
         {},
         {"p.toml:14", "walls[0].caps = true", "a plane wall has no key 'caps'"}},
        {"WallBoxMinAboveMax",
         wall("type = \"box\"\nmin = [-2e3, -2e3, -2e3]\nmax = [2e3, -3e3, 2e3]\n"),
         {},
         {"p.toml:13", "walls[0].max", "must exceed walls[0].min"}},
        {"WallsNeedCollisions",
         base() + "[[walls]]\n" + far_plane,
         {},
         {"p.toml:8", "walls[0]", "collisions.enabled = false", "true"}},
        {"WallsNotAnArrayOfTables",
         "walls = 1\n" + base(),
         {},
         {"p.toml:1", "walls", "array of tables"}},
        {"WallsInAPeriodicBox",
         section("collisions", "enabled = true\nperiodic_box = 1e4\n") +
             "[gravity]\nbackend = \"none\"\n[[walls]]\n" + far_plane,
         {},
         {"p.toml:10", "collisions.periodic_box", "walls"}},
        // What the event-driven drift cannot do with aggregates (bodies of several spheres,
        // or any bodies once sticking joins them), refused at start-up, not at the first drift.
        {"StickInAPeriodicBox",
         section("collisions", "enabled = true\nperiodic_box = 1e4\noutcome = \"stick\"\n") +
             "[gravity]\nbackend = \"none\"\n",
         {},
         {"p.toml:11", "collisions.outcome = \"stick\"", "periodic box",
          "collisions.periodic_box = 10000.0 (", "p.toml:10)"}},
        {"FiniteCylinderWithAggregates",
         base("n = 20\ngrain = \"cube\"\n") + "[collisions]\nenabled = true\n[[walls]]\n" +
             finite_can,
         {},
         {"p.toml:16", "walls[0].length = 5000.0", "finite cylinders",
          "20 of the 20 bodies are aggregates"}},
        {"FiniteCylinderWithSticking",
         section("collisions", "enabled = true\noutcome = \"stick\"\n") + "[[walls]]\n" +
             finite_can,
         {},
         {"p.toml:16", "walls[0].length = 5000.0", "finite cylinders",
          "collisions.outcome = \"stick\" (", "p.toml:10)"}},
        {"MergeWithAggregates",
         base("n = 20\ngrain = \"cube\"\n") + "[collisions]\nenabled = true\noutcome = \"merge\"\n",
         {},
         {"p.toml:11", "collisions.outcome = \"merge\"", "aggregates", "20 of the 20 bodies"}},
        {"BodyStartsInsideAWall",
         wall("type = \"plane\"\npoint = [0, 0, 0]\nnormal = [0, 0, 1]\n"),
         {},
         {"p.toml:10", "walls[0] (plane)", "body id", "inside the wall", "of its radius"}},
        {"UniformGIsAScalar",
         section("gravity", "uniform_g = 9.81\n"),
         {},
         {"p.toml:9", "gravity.uniform_g = 9.81", "expected an array of 3 real numbers"}},
        {"UniformGNotFinite",
         section("gravity", "uniform_g = [0, 0, inf]\n"),
         {},
         {"p.toml:9", "gravity.uniform_g", "finite"}},
        {"OverrideUniformGOfTwo",
         base(),
         {"--gravity.uniform_g", "1,2"},
         {"command line (--gravity.uniform_g)", "gravity.uniform_g = 1,2", "three real numbers"}},
        {"FileIcWithoutPath",
         section("ic", "type = \"file\"\n"),
         {},
         {"ic.file.path = \"\"", "must name a rubble HDF5 file"}},
        // Sizes that overflow an int or a step count.
        {"BucketSize2To32",
         section("gravity", "bucket_size = 4294967296\n"),
         {},
         {"p.toml:9", "gravity.bucket_size = 4294967296", "in [1, 65536]"}},
        {"GroupSize2To31",
         section("gravity", "group_size = 2147483648\n"),
         {},
         {"p.toml:9", "gravity.group_size = 2147483648", "in [1, 65536]"}},
        {"BucketSizeZero",
         section("gravity", "bucket_size = 0\n"),
         {},
         {"p.toml:9", "gravity.bucket_size = 0"}},
        {"StepCountTooLarge",
         base("", "n_steps = 10000000000000000\n"),
         {},
         {"p.toml:3", "integrator.n_steps = 10000000000000000", "1e+15"}},
        {"TinyTimeStep",
         "[integrator]\ndt = 1e-300\nt_end = 1000.0\n",
         {},
         {"p.toml:2", "integrator.dt = 1e-300", "integrator.t_end = 1000.0", "steps"}},
        {"HugeEndTime",
         "[integrator]\ndt = 1.0\nt_end = 1e300\n",
         {},
         {"p.toml:2", "integrator.dt = 1.0", "integrator.t_end = 1.0000000000000001e+300"}},
        // Scales that overflow double precision (the state became NaN, exit 0).
        {"HugeG", section("units", "G = 1e308\n"), {}, {"p.toml:9", "units.G = 1e+308", "G M/R"}},
        {"HugeGTwoBody",
         section("units", "G = 1e308\n[ic]\ntype = \"two_body\"\n"),
         {},
         {"p.toml:9", "units.G = 1e+308"}},
        {"HugeSoftening",
         section("gravity", "softening = 1e308\n"),
         {},
         {"p.toml:9", "gravity.softening = 1e+308", "overflows"}},
        {"HugeV0",
         section("ic.motion", "v0 = 1e300\n"),
         {},
         {"p.toml:9", "ic.motion.v0 = 1.0000000000000001e+300", "kinetic energy"}},
        {"HugeOmega",
         section("ic.motion", "omega = 1e300\n"),
         {},
         {"p.toml:9", "ic.motion.omega", "kinetic energy"}},
        {"HugeSpin",
         section("ic.motion", "w0 = 1e300\n"),
         {},
         {"p.toml:9", "ic.motion.w0", "spin energy"}},
        {"HugeDensity",
         base("density = 1e308\n"),
         {},
         {"p.toml:7", "ic.cloud.density = 1e+308", "total mass"}},
        {"HugeTwoBodyMasses",
         section("ic", "type = \"two_body\"\n[ic.two_body]\nm1 = 1e308\nm2 = 1e308\n"),
         {},
         {"p.toml:11", "ic.two_body.m1 = 1e+308"}},
        // Clouds that cannot be placed, counts that cannot fit in memory.
        {"CloudOverfull",
         base("n = 10000000\nradius = 5.0\nsize = 1000.0\n"),
         {},
         {"p.toml:7", "ic.cloud.n = 10000000", "ic.cloud.radius = 5.0", "ic.cloud.size = 1000.0",
          "1.25", "0.3"}},
        {"CubeJustAboveTheLimit",
         base("n = 20\nshape = \"cube\"\nradius = 16.0\nsize = 100.0\n"),
         {},
         {"p.toml:7", "ic.cloud.n = 20", "0.343", "cube"}},
        {"PowerLawOverfull",
         base("n = 2000\nradius_distribution = \"power_law\"\nradius_min = 10.0\n"
              "radius_max = 40.0\nsize = 300.0\n"),
         {},
         {"p.toml:7", "ic.cloud.n = 2000", "ic.cloud.radius_max = 40.0"}},
        {"SphereLargerThanRegion",
         base("radius = 2000.0\n"),
         {},
         {"p.toml:7", "ic.cloud.radius = 2000.0", "does not fit"}},
        {"CloudOfATrillion",
         base("n = 1000000000000\n"),
         {},
         {"p.toml:7", "ic.cloud.n = 1000000000000"}},
        {"CloudOfATrillionInRoom",
         base("n = 1000000000000\nsize = 1e9\n"),
         {},
         {"p.toml:7", "ic.cloud.n = 1000000000000", "memory"}},
        {"LatticeProductOverflows",
         section("ic", "type = \"lattice\"\n[ic.lattice]\nnx = 3000000\nny = 3000000\n"
                       "nz = 3000000\n"),
         {},
         {"p.toml:11", "ic.lattice.nx = 3000000", "ic.lattice.ny = 3000000", "2.7e+19", "memory"}},
        {"LatticeOfInt64Sides",
         section("ic", "type = \"lattice\"\n[ic.lattice]\nnx = 4611686018427387904\n"
                       "ny = 4611686018427387904\nnz = 4611686018427387904\n"),
         {},
         {"p.toml:11", "ic.lattice.nx = 4611686018427387904", "memory"}},
        // The output file: never an input, never a file that is not an earlier output.
        {"OutputIsTheParameterFile",
         "[integrator]\nn_steps = 2\n[output]\nfile = \"{dir}/p.toml\"\noverwrite = true\n",
         {},
         {"p.toml:4", "output.file = \"", "parameter file itself"}},
        {"OutputIsTheParameterFileSpeltDifferently",
         "[integrator]\nn_steps = 2\n[output]\nfile = \"{dir}/./sub/../p.toml\"\n"
         "overwrite = true\n",
         {},
         {"p.toml:4", "output.file", "parameter file itself"}},
        {"OutputIsTheIcFile",
         "[integrator]\nn_steps = 2\n[output]\nfile = \"{dir}/good.h5\"\noverwrite = true\n"
         "[ic]\ntype = \"file\"\n[ic.file]\npath = \"{dir}/good.h5\"\n",
         {},
         {"p.toml:4", "output.file", "initial-condition file", "ic.file.path"}},
        {"OutputExists",
         base(),
         {"--output.file", "{dir}/notes.txt"},
         {"output.file", "file exists"}},
        {"OutputExistsAndIsNotHdf5",
         base(),
         {"--output.file", "{dir}/notes.txt", "--output.overwrite", "true"},
         {"command line (--output.file)", "notes.txt", "not an HDF5 file"}},
        {"OutputIsADirectory",
         base(),
         {"--output.file", "{dir}/sub", "--output.overwrite", "true"},
         {"output.file", "not an HDF5 file"}},
        {"OutputDirectoryIsAFile",
         base(),
         {"--output.file", "{dir}/notes.txt/out.h5"},
         {"output.file", "notes.txt", "is not a directory"}},
        {"OutputName300Characters",
         base(),
         {"--output.file", "{dir}/" + name300},
         {"output.file = \"", "303", "255"}},
        {"OutputPathTooLong", base(), {"--output.file", path5000}, {"output.file", "4095"}},
        // Initial-condition files.
        {"IcFileMissing",
         section("ic", "type = \"file\"\n[ic.file]\npath = \"{dir}/none.h5\"\n"),
         {},
         {"p.toml:11", "ic.file.path = \"", "none.h5", "no such file"}},
        {"IcFileIsText",
         section("ic", "type = \"file\"\n[ic.file]\npath = \"{dir}/notes.txt\"\n"),
         {},
         {"p.toml:11", "ic.file.path", "notes.txt", "not an HDF5 file"}},
        {"IcFileIsEmpty",
         section("ic", "type = \"file\"\n[ic.file]\npath = \"{dir}/empty.h5\"\n"),
         {},
         {"p.toml:11", "ic.file.path", "not an HDF5 file"}},
        {"IcFileIsADirectory",
         section("ic", "type = \"file\"\n[ic.file]\npath = \"{dir}/sub\"\n"),
         {},
         {"p.toml:11", "ic.file.path", "not a regular file"}},
        {"IcFileName300Characters",
         section("ic", "type = \"file\"\n[ic.file]\npath = \"{dir}/" + name300 + "\"\n"),
         {},
         {"p.toml:11", "ic.file.path", "255"}},
        {"IcFileSnapshotBeyondTheEnd",
         section("ic", "type = \"file\"\n[ic.file]\npath = \"{dir}/good.h5\"\nsnapshot = 5\n"),
         {},
         {"p.toml:12", "ic.file.snapshot = 5", "1 snapshot(s)"}},
        {"IcFileWithNaN",
         section("ic", "type = \"file\"\n[ic.file]\npath = \"{dir}/nan.h5\"\n"),
         {},
         {"p.toml:11: ic.file.path", "body id 5", "position", "not finite"}},
        {"IcFileWithHugeG",
         section("units",
                 "G = 1e308\n[ic]\ntype = \"file\"\n[ic.file]\npath = \"{dir}/good.h5\"\n"),
         {},
         {"p.toml:9", "units.G = 1e+308", "G M/R"}},
        {"IcFileWithHugeSoftening",
         section("gravity",
                 "softening = 1e200\n[ic]\ntype = \"file\"\n[ic.file]\npath = \"{dir}/good.h5\"\n"),
         {},
         {"p.toml:9", "gravity.softening = 9.9999999999999997e+199", "overflows"}},
        {"IcFileOverlapping",
         section("ic", "type = \"file\"\n[ic.file]\npath = \"{dir}/overlap.h5\"\n"),
         {},
         {"p.toml:11: ic.file.path", "ids 7 and 8 overlap"}},
        {"IcFileWithNoBodies",
         section("ic", "type = \"file\"\n[ic.file]\npath = \"{dir}/nobody.h5\"\n"),
         {},
         {"p.toml:11", "ic.file.path", "nobody.h5", "snapshot 0 holds no bodies"}},
        {"IcFileSnapshotWithoutMasses",
         section("ic", "type = \"file\"\n[ic.file]\npath = \"{dir}/nomass.h5\"\n"),
         {},
         {"p.toml:11", "ic.file.path", "nomass.h5", "mass"}},
        {"IcFileWithoutSnapshots", // what a run killed before its first snapshot could leave
         section("ic", "type = \"file\"\n[ic.file]\npath = \"{dir}/nosnapshot.h5\"\n"),
         {},
         {"p.toml:11", "ic.file.path", "nosnapshot.h5", "has no snapshot"}},
        // Command-line overrides.
        {"OverrideZeroTimeStep",
         base(),
         {"--integrator.dt", "0"},
         {"command line (--integrator.dt)", "integrator.dt = 0.0", "must be > 0"}},
        {"OverrideNotAnInteger",
         base(),
         {"--ic.cloud.n", "ten"},
         {"command line (--ic.cloud.n)", "ic.cloud.n = ten", "integer"}},
        {"OverrideIntegerOutOfRange",
         base(),
         {"--ic.cloud.n", "99999999999999999999"},
         {"ic.cloud.n = 99999999999999999999", "integer"}},
        {"OverrideRealOutOfRange", base(), {"--units.G", "1e400"}, {"units.G = 1e400", "real"}},
        {"OverrideHugeG", base(), {"--units.G", "1e308"}, {"command line (--units.G)", "units.G"}},
        {"OverrideBucketSize",
         base(),
         {"--gravity.bucket_size", "4294967296"},
         {"gravity.bucket_size = 4294967296"}},
        {"OverrideBadEnum", base(), {"--ic.cloud.shape", "blob"}, {"ic.cloud.shape = \"blob\""}},
        {"OverrideBadBoolean",
         base(),
         {"--collisions.enabled", "yes"},
         {"collisions.enabled = yes", "boolean"}},
        {"OverrideOutputIsTheParameterFile",
         base(),
         {"--output.file", "{dir}/p.toml", "--output.overwrite", "true"},
         {"command line (--output.file)", "parameter file itself"}},
        {"UnknownOption",
         base(),
         {"--no-such-option", "1"},
         {"no-such-option"},
         2,
         "{dir}/p.toml",
         false},
        // Resuming what is not a rubble output.
        {"ResumeText",
         "",
         {"--resume", "{dir}/notes.txt"},
         {"--resume", "notes.txt", "HDF5"},
         2,
         ""},
        {"ResumeEmpty", "", {"--resume", "{dir}/empty.h5"}, {"empty.h5", "HDF5"}, 2, ""},
        {"ResumeMissing", "", {"--resume", "{dir}/none.h5"}, {"none.h5", "no such file"}, 2, ""},
        {"ResumeDevZero", "", {"--resume", "/dev/zero"}, {"/dev/zero"}, 2, ""},
        {"ResumeWithAParameterFile",
         base(),
         {"--resume", "{dir}/good.h5"},
         {"either a parameter file or --resume"}},
    };
    return table;
}

std::string substituted(std::string s, const std::string& dir) {
    for (std::size_t at = s.find("{dir}"); at != std::string::npos; at = s.find("{dir}", at)) {
        s.replace(at, 5, dir);
        at += dir.size();
    }
    return s;
}

rubble::Bodies two_spheres(double gap) {
    rubble::Bodies b;
    b.add_sphere(7, 1.0, 1.0, rubble::Vec3(0, 0, 0), rubble::Vec3::Zero(), rubble::Vec3::Zero());
    b.add_sphere(8, 1.0, 1.0, rubble::Vec3(2.0 + gap, 0, 0), rubble::Vec3::Zero(),
                 rubble::Vec3::Zero());
    return b;
}

void write_output(const std::string& path, const rubble::Bodies& b) {
    rubble::runfile::RunFile::create(path, "", 0.0, false).write_snapshot(b, 0.0, 0);
}

// The files the rows refer to.
void make_fixtures(const TempDir& dir) {
    write_output(dir.file("good.h5"), two_spheres(1.0));
    write_output(dir.file("overlap.h5"), two_spheres(-0.1));
    rubble::Bodies nan = two_spheres(1.0);
    nan.add_sphere(5, 1.0, 1.0, rubble::Vec3(std::numeric_limits<double>::quiet_NaN(), 10, 0),
                   rubble::Vec3::Zero(), rubble::Vec3::Zero());
    write_output(dir.file("nan.h5"), nan);
    write_output(dir.file("nobody.h5"), rubble::Bodies{});
    // A snapshot without its masses: whole as HDF5, wrong as a rubble snapshot.
    write_output(dir.file("nomass.h5"), two_spheres(1.0));
    {
        const hid_t f = H5Fopen(dir.file("nomass.h5").c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
        ASSERT_GE(f, 0);
        EXPECT_GE(H5Ldelete(f, "snapshots/000000/mass", H5P_DEFAULT), 0);
        H5Fclose(f);
    }
    (void)rubble::runfile::RunFile::create(dir.file("nosnapshot.h5"), "", 0.0, false);
    dir.write("notes.txt", "not an output\n");
    dir.write("layout.txt", "# x y z r\n0 0 0 1\n1.5 0 0 x\n");
    dir.write("empty.h5", "");
    std::filesystem::create_directory(dir.file("sub"));
}

// Test names, not bytes, in gtest's messages.
void PrintTo(const BadInput& c, std::ostream* os) {
    *os << c.name;
}

class BadInputTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadInputTest, IsRefusedWithANamedOneLineMessage) {
    const BadInput& c = GetParam();
    TempDir dir;
    make_fixtures(dir);
    const std::string d = dir.file("");
    const std::string root = d.substr(0, d.size() - 1); // without the trailing '/'
    std::vector<std::string> args{"run"};
    if (!c.params.empty()) {
        const std::string params = substituted(c.params, root);
        if (params == root + "/p.toml") dir.write("p.toml", substituted(c.toml, root));
        args.push_back(params);
    }
    args.push_back("--quiet");
    for (const auto& a : c.args)
        args.push_back(substituted(a, root));

    const auto r = run_rubble(args);
    EXPECT_EQ(r.code, c.code) << r.err;
    for (const auto& e : c.expect) {
        EXPECT_NE(r.err.find(substituted(e, root)), std::string::npos)
            << "expected: " << e << "\ngot: " << r.err;
    }
    if (c.one_line) {
        EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
        EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "not one line: " << r.err;
        EXPECT_TRUE(r.out.empty()) << "work started: " << r.out;
    }
    EXPECT_FALSE(std::filesystem::exists(dir.file("out.h5")));
}

std::string case_name(const ::testing::TestParamInfo<BadInput>& param) {
    return param.param.name;
}

INSTANTIATE_TEST_SUITE_P(Cases, BadInputTest, ::testing::ValuesIn(cases()), case_name);

TEST(BadInput, TheTableCoversAtLeastSixtyCases) {
    EXPECT_GE(cases().size(), 60u);
}

// Accepted, not refused: an interval longer than the run means only the first and last
// snapshots (it overflowed into a snapshot every step).
TEST(BadInput, ASnapshotIntervalBeyondTheRunGivesFirstAndLast) {
    TempDir dir;
    const std::string out = dir.file("o.h5");
    const auto r = run_rubble({"run", dir.write("p.toml", substituted(base(), dir.file(""))),
                               "--quiet", "--output.file", out, "--output.snapshot_interval",
                               "1e300", "--output.diagnostics_interval", "1e300"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(rubble::runfile::snapshot_count(out), 2);
    EXPECT_TRUE(rubble::runfile::is_complete(out));
}

} // namespace
