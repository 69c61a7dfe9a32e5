// SPDX-License-Identifier: MIT
#include <cstdint>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "rubble/config/parameters.hpp"
#include "rubble/config/run_config.hpp"
#include "rubble/core/error.hpp"
#include "temp_dir.hpp"

using rubble::InputError;
using namespace rubble::config;

namespace {

// Returns the message of the InputError that `f` throws (fails the test if none).
template <class F> std::string input_error(F&& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    ADD_FAILURE() << "no InputError thrown";
    return "";
}

} // namespace

TEST(Parameters, EveryDefaultIsValidAndTyped) {
    const ParameterSet p;
    for (const auto& s : parameter_specs()) {
        EXPECT_EQ(p.source(s.key), "default");
        EXPECT_FALSE(s.help.empty()) << s.key;
    }
    EXPECT_DOUBLE_EQ(p.real("units.G"), 6.6743e-11);
    EXPECT_EQ(p.string("gravity.backend"), "auto");
    EXPECT_EQ(p.integer("ic.file.snapshot"), -1);
}

TEST(Parameters, ReadsNestedTablesAndRecordsSources) {
    const ParameterSet p = parse_parameters(
        "[integrator]\ndt = 2.5\nn_steps = 7\n[ic.cloud]\nn = 12\nshape = \"cube\"\n", "x.toml");
    EXPECT_EQ(p.real("integrator.dt"), 2.5);
    EXPECT_EQ(p.integer("integrator.n_steps"), 7);
    EXPECT_EQ(p.integer("ic.cloud.n"), 12);
    EXPECT_EQ(p.string("ic.cloud.shape"), "cube");
    EXPECT_EQ(p.source("integrator.dt"), "x.toml:2");
    EXPECT_EQ(p.source("ic.cloud.shape"), "x.toml:6");
}

TEST(Parameters, IntegerIsAcceptedForARealButNotTheReverse) {
    EXPECT_EQ(parse_parameters("[integrator]\ndt = 3\n", "f").real("integrator.dt"), 3.0);
    const std::string msg =
        input_error([] { (void)parse_parameters("[ic.cloud]\nn = 2.5\n", "f.toml"); });
    EXPECT_NE(msg.find("f.toml:2: ic.cloud.n = 2.5: expected an integer"), std::string::npos)
        << msg;
}

TEST(Parameters, UnknownKeyNamesFileLineAndSuggestion) {
    const std::string msg =
        input_error([] { (void)parse_parameters("[integrator]\ndtt = 1.0\n", "run.toml"); });
    EXPECT_NE(msg.find("run.toml:2"), std::string::npos) << msg;
    EXPECT_NE(msg.find("integrator.dtt"), std::string::npos) << msg;
    EXPECT_NE(msg.find("did you mean 'integrator.dt'"), std::string::npos) << msg;
}

TEST(Parameters, OutOfRangeValuesAreRejectedWithUnitAndRange) {
    struct Case {
        const char* toml;
        const char* expect;
    };
    const Case cases[] = {
        {"[integrator]\ndt = 0.0\n", "integrator.dt = 0.0: must be > 0 (s)"},
        {"[integrator]\ndt = -1.0\n", "integrator.dt = -1.0: must be > 0 (s)"},
        {"[integrator]\ndt = nan\n", "integrator.dt = nan: must be finite"},
        {"[integrator]\ndt = inf\n", "integrator.dt = inf: must be finite"},
        {"[ic.cloud]\nradius = -2.0\n", "ic.cloud.radius = -2.0: must be > 0 (m)"},
        {"[ic.cloud]\ndensity = -5\n", "ic.cloud.density = -5: must be > 0 (kg m^-3)"},
        {"[ic.cloud]\nn = 0\n", "ic.cloud.n = 0: must be >= 1"},
        {"[ic.two_body]\ne = 1.0\n", "ic.two_body.e = 1.0: must be in [0, 1)"},
        {"[gravity]\nbackend = \"fmm\"\n",
         "gravity.backend = \"fmm\": must be one of auto, direct, tree"},
        {"[output]\noverwrite = 1\n", "output.overwrite = 1: expected a boolean"},
    };
    for (const auto& c : cases) {
        const std::string msg = input_error([&] { (void)parse_parameters(c.toml, "p.toml"); });
        EXPECT_NE(msg.find(std::string("p.toml:2: ") + c.expect), std::string::npos)
            << "got: " << msg;
    }
}

TEST(Parameters, MalformedTomlNamesTheLine) {
    const std::string msg =
        input_error([] { (void)parse_parameters("[integrator]\ndt = = 4\n", "bad.toml"); });
    EXPECT_NE(msg.find("bad.toml:2: malformed TOML"), std::string::npos) << msg;
}

TEST(Parameters, MissingFileIsAnInputError) {
    const std::string msg = input_error([] { (void)load_parameter_file("/no/such/file.toml"); });
    EXPECT_NE(msg.find("cannot read parameter file '/no/such/file.toml'"), std::string::npos)
        << msg;
}

TEST(Parameters, CommandLineTextIsParsedByType) {
    ParameterSet p;
    p.set_from_text("integrator.dt", "5", "command line");
    p.set_from_text("output.overwrite", "true", "command line");
    EXPECT_EQ(p.real("integrator.dt"), 5.0);
    EXPECT_TRUE(p.boolean("output.overwrite"));
    const std::string msg = input_error([&] { p.set_from_text("integrator.dt", "5s", "cli"); });
    EXPECT_NE(msg.find("cli: integrator.dt = 5s: expected a real number (s)"), std::string::npos)
        << msg;
}

TEST(Parameters, TomlRoundTripIsBitwise) {
    ParameterSet p;
    p.set("integrator.dt", 0.1 + 0.2, "test");
    p.set("output.file", std::string("a \"quoted\" \\ name.h5"), "test");
    p.set("ic.motion.omega", -3.141592653589793e-7, "test");
    const ParameterSet q = parse_parameters(p.to_toml(), "roundtrip");
    for (const auto& s : parameter_specs())
        EXPECT_EQ(p.value(s.key), q.value(s.key)) << s.key;
}

// TOML forbids declaring a table twice (Python's tomllib refuses the stored parameters of such
// a file), so each section's keys must be listed together in parameter_specs().
TEST(Parameters, StoredTomlDeclaresEachTableOnce) {
    std::set<std::string> seen;
    std::istringstream in(ParameterSet().to_toml());
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] != '[' || line.rfind("[[", 0) == 0) continue;
        EXPECT_TRUE(seen.insert(line).second) << line << " declared twice";
    }
    EXPECT_GT(seen.size(), 10u);
}

TEST(Parameters, WallsAndVectorsRoundTripThroughTheStoredToml) {
    // The HDF5 record (and --resume) keep walls as [[walls]] tables and vectors as arrays.
    const ParameterSet p = parse_parameters("[integrator]\nn_steps = 1\n"
                                            "[gravity]\nuniform_g = [0, 0, -9.81]\n"
                                            "[collisions]\nenabled = true\n"
                                            "[[walls]]\ntype = \"plane\"\npoint = [0, 0, 0.1]\n"
                                            "normal = [0, 0, 2]\n"
                                            "[[walls]]\ntype = \"cylinder\"\npoint = [0, 0, 0]\n"
                                            "axis = [1, 0, 0]\nradius = 2.5\nside = \"outside\"\n"
                                            "angular_velocity = -0.3\n",
                                            "w.toml");
    const ParameterSet q = parse_parameters(p.to_toml(), "stored");
    ASSERT_EQ(q.wall_count(), 2u);
    EXPECT_EQ(q.vector("gravity.uniform_g"), (ParamVector{0.0, 0.0, -9.81}));
    for (std::size_t k = 0; k < 2; ++k) {
        EXPECT_EQ(p.wall_keys(k), q.wall_keys(k));
        for (const std::string& key : p.wall_keys(k))
            EXPECT_EQ(*p.wall_value(k, key), *q.wall_value(k, key)) << key;
    }
    const RunConfig c = make_run_config(q);
    ASSERT_EQ(c.collisions.walls.size(), 2u);
    EXPECT_EQ(c.collisions.walls[0].normal, rubble::Vec3::UnitZ());
    EXPECT_FALSE(c.collisions.walls[1].inside);
    EXPECT_EQ(c.collisions.walls[1].angular_velocity, -0.3);
    EXPECT_EQ(c.collisions.walls[1].name, "walls[1] (cylinder, outside)");
    EXPECT_EQ(c.wall_sources[1].rfind("stored:", 0), 0u); // a line of the stored text
    EXPECT_EQ(c.uniform_g, rubble::Vec3(0, 0, -9.81));
}

TEST(Parameters, BoxIsSixPlanesNamedByFace) {
    const RunConfig c = make_run_config(
        parse_parameters("[integrator]\nn_steps = 1\n[collisions]\nenabled = true\n"
                         "[[walls]]\ntype = \"box\"\nmin = [-1, -2, -3]\nmax = [1, 2, 3]\n",
                         "b.toml"));
    ASSERT_EQ(c.collisions.walls.size(), 6u);
    EXPECT_EQ(c.collisions.walls[2].name, "walls[0] (box, face -y)");
    EXPECT_EQ(c.collisions.walls[2].normal, rubble::Vec3::UnitY());
    EXPECT_EQ(c.wall_sources[5], "b.toml:5");
}

TEST(RunConfig, RequiresExactlyOneOfTEndAndNSteps) {
    const std::string neither = input_error([] { (void)make_run_config(ParameterSet()); });
    EXPECT_NE(neither.find("set exactly one of integrator.t_end"), std::string::npos) << neither;
    ParameterSet both;
    both.set("integrator.t_end", 10.0, "f.toml:3");
    both.set("integrator.n_steps", std::int64_t{4}, "f.toml:4");
    const std::string msg = input_error([&] { (void)make_run_config(both); });
    EXPECT_NE(msg.find("f.toml:4: integrator.n_steps = 4"), std::string::npos) << msg;
    EXPECT_NE(msg.find("from f.toml:3"), std::string::npos) << msg;
}

TEST(RunConfig, StepCountsFromTimes) {
    ParameterSet p;
    p.set("integrator.dt", 0.1, "t");
    p.set("integrator.t_end", 1.0, "t"); // 1.0 / 0.1 = 10.000000000000002 in doubles
    const RunConfig c = make_run_config(p);
    EXPECT_EQ(total_steps(c, 0.0), 10);
    EXPECT_EQ(total_steps(c, 0.45), 6);
    EXPECT_EQ(interval_steps(0.0, 0.1), 0);
    EXPECT_EQ(interval_steps(0.31, 0.1), 3);
    EXPECT_EQ(interval_steps(0.01, 0.1), 1);
}

TEST(Parameters, DocsParameterReferenceMatchesTheTable) {
    std::ifstream in(std::string(RUBBLE_SOURCE_DIR) + "/docs/parameters.md");
    ASSERT_TRUE(in) << "docs/parameters.md is missing";
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), parameters_markdown())
        << "regenerate with: build/release/rubble params --markdown > docs/parameters.md";
}

TEST(ParameterText, NestingBeyondTheLimitIsRefusedBeforeToml) {
    const auto dotted = [](int parts) {
        std::string key = "k";
        for (int i = 1; i < parts; ++i)
            key += ".k";
        return key;
    };
    // 32 parts pass the scan and are then an unknown key; 33 are refused by the scan.
    std::string msg = input_error([&] { (void)parse_parameters(dotted(32) + " = 1\n", "d.toml"); });
    EXPECT_NE(msg.find("d.toml:1: unknown parameter"), std::string::npos) << msg;
    msg = input_error([&] { (void)parse_parameters("\n[" + dotted(33) + "]\n", "d.toml"); });
    EXPECT_NE(msg.find("d.toml:2: a key or table header with more than 32"), std::string::npos)
        << msg;
    msg = input_error([] { (void)parse_parameters("x = {a = {b = [[[1]]]}}\n", "d.toml"); });
    EXPECT_EQ(msg.find("nested"), std::string::npos) << msg; // 5 deep is fine
}

TEST(ParameterText, DotsInValuesStringsAndCommentsAreNotKeyParts) {
    std::string dots;
    for (int i = 0; i < 100; ++i)
        dots += "a.";
    ParameterSet p = parse_parameters(
        "[output]\nfile = \"" + dots + "h5\" # " + dots + "\n[integrator]\ndt = 1.5\n", "s.toml");
    EXPECT_EQ(p.string("output.file"), dots + "h5");
    EXPECT_EQ(p.real("integrator.dt"), 1.5);
    p = parse_parameters("[output]\nfile = \'\'\'\n" + dots + "\'\'\'\n", "m.toml");
    EXPECT_EQ(p.string("output.file"), dots);
}

TEST(ParameterText, NulBytesAndHugeTextsAreRefused) {
    std::string msg =
        input_error([] { (void)parse_parameters(std::string("[integrator]\n\0", 14), "n.toml"); });
    EXPECT_NE(msg.find("n.toml:2: contains a NUL byte"), std::string::npos) << msg;
    msg = input_error([] { (void)parse_parameters(std::string(2 << 20, '#'), "big.toml"); });
    EXPECT_NE(msg.find("big.toml: more than 1048576 bytes"), std::string::npos) << msg;
}

TEST(ParameterText, DevicesAreRefusedWithoutReading) {
    const std::string msg = input_error([] { (void)load_parameter_file("/dev/zero"); });
    EXPECT_NE(msg.find("'/dev/zero': it is a device"), std::string::npos) << msg;
}

TEST(Parameters, KeysLeftAtTheirDefaultNameTheFile) {
    const ParameterSet p = parse_parameters("", "empty.toml");
    EXPECT_EQ(p.source("integrator.dt"), "empty.toml (default)");
    const std::string msg = input_error([&] { (void)make_run_config(p); });
    EXPECT_NE(msg.find("empty.toml (default): integrator.n_steps = 0"), std::string::npos) << msg;
}

TEST(Parameters, AVeryLongUnknownKeyIsNamedShortlyWithoutASuggestion) {
    const std::string key(100000, 'k');
    const std::string msg = input_error([&] { (void)parse_parameters(key + " = 1\n", "l.toml"); });
    EXPECT_LT(msg.size(), 1100u);
    EXPECT_EQ(msg.find("did you mean"), std::string::npos);
}

TEST(RunConfig, StepCountsBeyondTheLimitAreRefused) {
    ParameterSet p;
    p.set("integrator.dt", 1e-300, "f.toml:2");
    p.set("integrator.t_end", 1000.0, "f.toml:3");
    const std::string msg = input_error([&] { (void)make_run_config(p); });
    EXPECT_NE(msg.find("f.toml:2: integrator.dt = 1e-300"), std::string::npos) << msg;
    EXPECT_NE(msg.find("integrator.t_end = 1000.0 s (from f.toml:3)"), std::string::npos) << msg;
    RunConfig c;
    c.dt = 1.0;
    c.t_end = 1e300;
    EXPECT_THROW((void)total_steps(c, 0.0), rubble::InputError);
}

TEST(RunConfig, IntervalsLongerThanAnyRunNeverFire) {
    constexpr auto never = std::numeric_limits<std::int64_t>::max();
    EXPECT_EQ(interval_steps(1e300, 1.0), never);
    EXPECT_EQ(interval_steps(1.0, 1e-300), never);
    EXPECT_EQ(interval_steps(1e15, 1.0), 1000000000000000);
}

// Each string option's table of names (core/enum_names.hpp) is what the parameter table
// allows and what the typed configuration reads: every name parses to its own value, no two
// names or values collide, and a set of defaults gives the documented default values.
template <class E, std::size_t N>
void expect_one_to_one(const rubble::EnumNames<E, N>& names, const std::string& key) {
    const ParamSpec* spec = find_spec(key);
    ASSERT_NE(spec, nullptr) << key;
    EXPECT_EQ(spec->choices, rubble::enum_names(names)) << key;
    for (std::size_t a = 0; a < N; ++a) {
        EXPECT_EQ(rubble::enum_value(names, names[a].name), names[a].value) << key;
        EXPECT_EQ(rubble::enum_name(names, names[a].value), names[a].name) << key;
        for (std::size_t b = a + 1; b < N; ++b) {
            EXPECT_NE(names[a].name, names[b].name) << key;
            EXPECT_NE(names[a].value, names[b].value) << key;
        }
    }
    EXPECT_FALSE(rubble::enum_value(names, "no such value").has_value()) << key;
}

TEST(RunConfig, StringOptionsMapOneToOneThroughTheirTables) {
    expect_one_to_one(rubble::gravity::backend_names, "gravity.backend");
    expect_one_to_one(rubble::ic::representation_names, "ic.scenario.model");
    expect_one_to_one(rubble::gravity::gpu_precision_names, "gravity.gpu_precision");
    expect_one_to_one(rubble::collisions::outcome_names, "collisions.outcome");
    expect_one_to_one(rubble::collisions::restitution_law_names, "collisions.eps_n_law");
    expect_one_to_one(rubble::collisions::overlap_strategy_names, "collisions.overlaps");
    expect_one_to_one(rubble::ic::ic_type_names, "ic.type");
    expect_one_to_one(rubble::ic::region_names, "ic.cloud.shape");
    expect_one_to_one(rubble::ic::radius_distribution_names, "ic.cloud.radius_distribution");
    ParameterSet p;
    p.set("integrator.n_steps", std::int64_t{1}, "test");
    p.set("collisions.overlaps", std::string("repulse"), "test");
    p.set("ic.cloud.radius_distribution", std::string("power_law"), "test");
    const RunConfig c = make_run_config(p);
    EXPECT_EQ(c.gravity.backend, rubble::gravity::Backend::automatic);
    EXPECT_EQ(c.collisions.overlaps, rubble::collisions::OverlapStrategy::repulse);
    EXPECT_EQ(c.ic.cloud.radii.distribution, rubble::ic::RadiusDistribution::power_law);
    EXPECT_EQ(c.ic.type, rubble::ic::IcType::cloud);
}

namespace {
// A parameter set at its defaults that make_run_config accepts (one of t_end and n_steps).
rubble::config::ParameterSet runnable_defaults() {
    rubble::config::ParameterSet p;
    p.set("integrator.n_steps", std::int64_t{1}, "test");
    return p;
}
} // namespace

TEST(Parameters, BoundKeysTakeTheirDefaultsFromTheStructs) {
    // Each default is written once, as the member's initialiser: the table's default is the
    // value of the member in a default RunConfig, and every key is bound but those that no
    // member holds (make_run_config reads ic.cloud.grain_file into a layout or a hull).
    const rubble::config::RunConfig defaults;
    const std::set<std::string> by_hand{"ic.cloud.grain_file"};
    std::size_t bound = 0, ic_bound = 0;
    for (const auto& s : rubble::config::parameter_specs()) {
        EXPECT_EQ(static_cast<bool>(s.binding), by_hand.count(s.key) == 0) << s.key;
        if (!s.binding) continue;
        ++bound;
        if (s.key.rfind("ic.", 0) == 0) ++ic_bound;
        EXPECT_EQ(rubble::config::ParameterSet().value(s.key), s.binding.get(defaults)) << s.key;
    }
    EXPECT_GE(bound, 80u);
    EXPECT_EQ(ic_bound, 38u);
    // The ic structs' own initialisers are those defaults: a generator given a default struct
    // makes what a run of the default parameters makes.
    const rubble::config::RunConfig d = rubble::config::make_run_config(runnable_defaults());
    EXPECT_EQ(d.ic.cloud.size, rubble::ic::CloudConfig{}.size);
    EXPECT_EQ(d.ic.cloud.radii.radius, rubble::ic::RadiusSpec{}.radius);
    EXPECT_EQ(d.ic.lattice.nx, rubble::ic::LatticeConfig{}.nx);
    EXPECT_EQ(d.ic.two_body.m1, rubble::ic::TwoBodyConfig{}.m1);
    EXPECT_EQ(d.ic.cloud.grain.spheres_per_grain, rubble::ic::GrainConfig{}.spheres_per_grain);
    EXPECT_EQ(d.ic.file.snapshot, rubble::ic::IcFileConfig{}.snapshot);
}

TEST(Parameters, BoundIcKeysSetTheirMembers) {
    // Every bound [ic...] key set to a value other than its default (ic.type = lattice: the
    // cloud's cross-key checks do not apply), each member read back by name.
    using rubble::config::ParamVector;
    using rubble::ic::GrainKind;
    using rubble::ic::GrainModel;
    using rubble::ic::IcType;
    using rubble::ic::RadiusDistribution;
    using rubble::ic::Region;
    using rubble::ic::Representation;
    rubble::config::ParameterSet p = runnable_defaults();
    p.set("ic.type", std::string("lattice"), "test");
    p.set("ic.centre_of_mass_frame", false, "test");
    p.set("ic.scenario.model", std::string("sphere"), "test");
    p.set("ic.cloud.n", std::int64_t{77}, "test");
    p.set("ic.cloud.shape", std::string("annulus"), "test");
    p.set("ic.cloud.size", 123.0, "test");
    p.set("ic.cloud.inner_radius", 4.5, "test");
    p.set("ic.cloud.height", 6.5, "test");
    p.set("ic.cloud.radius_distribution", std::string("power_law"), "test");
    p.set("ic.cloud.radius", 2.5, "test");
    p.set("ic.cloud.radius_min", 1.5, "test");
    p.set("ic.cloud.radius_max", 3.5, "test");
    p.set("ic.cloud.power_law_index", 2.75, "test");
    p.set("ic.cloud.density", 2500.0, "test");
    p.set("ic.cloud.grain", std::string("box"), "test");
    p.set("ic.cloud.grain_model", std::string("polyhedron"), "test");
    p.set("ic.cloud.spheres_per_grain", std::int64_t{30}, "test");
    p.set("ic.cloud.sphere_radius", 0.25, "test");
    p.set("ic.cloud.grain_aspect", ParamVector{1.0, 0.5, 0.25}, "test");
    p.set("ic.cloud.match_hull", true, "test");
    p.set("ic.lattice.nx", std::int64_t{3}, "test");
    p.set("ic.lattice.ny", std::int64_t{4}, "test");
    p.set("ic.lattice.nz", std::int64_t{5}, "test");
    p.set("ic.lattice.spacing", 3.0, "test");
    p.set("ic.lattice.radius", 1.25, "test");
    p.set("ic.lattice.density", 1500.0, "test");
    p.set("ic.motion.v0", 0.5, "test");
    p.set("ic.motion.w0", 0.25, "test");
    p.set("ic.motion.omega", -0.125, "test");
    p.set("ic.two_body.m1", 2e12, "test");
    p.set("ic.two_body.m2", 3e9, "test");
    p.set("ic.two_body.radius1", 60.0, "test");
    p.set("ic.two_body.radius2", 6.0, "test");
    p.set("ic.two_body.a", 2000.0, "test");
    p.set("ic.two_body.e", 0.5, "test");
    p.set("ic.file.path", std::string("start.h5"), "run.toml:3");
    p.set("ic.file.snapshot", std::int64_t{3}, "test");
    p.set("ic.table.path", std::string("bodies.csv"), "run.toml:9");
    // The test covers them all: each bound ic key differs from its default here.
    const rubble::config::ParameterSet defaults;
    for (const auto& s : rubble::config::parameter_specs()) {
        if (s.key.rfind("ic.", 0) != 0 || !s.binding) continue;
        EXPECT_NE(p.value(s.key), defaults.value(s.key)) << s.key << " is not covered";
    }
    const rubble::config::RunConfig c = rubble::config::make_run_config(p);
    EXPECT_EQ(c.ic.type, IcType::lattice);
    EXPECT_FALSE(c.ic.centre_of_mass_frame);
    EXPECT_EQ(c.ic.scenario_model, Representation::sphere);
    EXPECT_EQ(c.ic.cloud.n, 77);
    EXPECT_EQ(c.ic.cloud.region, Region::annulus);
    EXPECT_EQ(c.ic.cloud.size, 123.0);
    EXPECT_EQ(c.ic.cloud.inner_radius, 4.5);
    EXPECT_EQ(c.ic.cloud.height, 6.5);
    EXPECT_EQ(c.ic.cloud.radii.distribution, RadiusDistribution::power_law);
    EXPECT_EQ(c.ic.cloud.radii.radius, 2.5);
    EXPECT_EQ(c.ic.cloud.radii.radius_min, 1.5);
    EXPECT_EQ(c.ic.cloud.radii.radius_max, 3.5);
    EXPECT_EQ(c.ic.cloud.radii.q, 2.75);
    EXPECT_EQ(c.ic.cloud.density, 2500.0);
    EXPECT_EQ(c.ic.cloud.grain.kind, GrainKind::box);
    EXPECT_EQ(c.ic.cloud.grain.model, GrainModel::polyhedron);
    EXPECT_EQ(c.ic.cloud.grain.spheres_per_grain, 30);
    EXPECT_EQ(c.ic.cloud.grain.sphere_radius, 0.25);
    EXPECT_EQ(c.ic.cloud.grain.aspect, rubble::Vec3(1.0, 0.5, 0.25));
    EXPECT_TRUE(c.ic.cloud.grain.match_hull);
    EXPECT_EQ(c.ic.lattice.nx, 3);
    EXPECT_EQ(c.ic.lattice.ny, 4);
    EXPECT_EQ(c.ic.lattice.nz, 5);
    EXPECT_EQ(c.ic.lattice.spacing, 3.0);
    EXPECT_EQ(c.ic.lattice.radius, 1.25);
    EXPECT_EQ(c.ic.lattice.density, 1500.0);
    EXPECT_EQ(c.ic.motion.v0, 0.5);
    EXPECT_EQ(c.ic.motion.w0, 0.25);
    EXPECT_EQ(c.ic.motion.omega, -0.125);
    EXPECT_EQ(c.ic.two_body.m1, 2e12);
    EXPECT_EQ(c.ic.two_body.m2, 3e9);
    EXPECT_EQ(c.ic.two_body.radius1, 60.0);
    EXPECT_EQ(c.ic.two_body.radius2, 6.0);
    EXPECT_EQ(c.ic.two_body.a, 2000.0);
    EXPECT_EQ(c.ic.two_body.e, 0.5);
    EXPECT_EQ(c.ic.file.path, "start.h5");
    EXPECT_EQ(c.ic.file.source, "run.toml:3"); // by hand: where the path came from
    EXPECT_EQ(c.ic.file.snapshot, 3);
    EXPECT_EQ(c.ic.table.path, "bodies.csv");
    EXPECT_EQ(c.ic.table.source, "run.toml:9");
}

TEST(Parameters, BoundKeysSetTheirMembers) {
    rubble::config::ParameterSet p = runnable_defaults();
    p.set("collisions.mu", 0.25, "test");
    p.set("collisions.eps_n", 0.75, "test");
    p.set("collisions.v_min", 1e-3, "test");
    p.set("collisions.solver", std::string("pgs"), "test");
    p.set("collisions.solver_iterations", std::int64_t{7}, "test");
    p.set("collisions.solver_tolerance", 1e-4, "test");
    p.set("gravity.uniform_g", rubble::config::ParamVector{0.0, 0.0, -9.81}, "test");
    const rubble::config::RunConfig c = rubble::config::make_run_config(p);
    EXPECT_EQ(c.collisions.mu, 0.25);
    EXPECT_EQ(c.collisions.eps_n, 0.75);
    EXPECT_EQ(c.collisions.v_min, 1e-3);
    EXPECT_EQ(c.polyhedra.solver.method, rubble::polyhedra::ContactMethod::pgs);
    EXPECT_EQ(c.polyhedra.solver.max_iterations, 7);
    EXPECT_EQ(c.polyhedra.solver.tolerance, 1e-4);
    EXPECT_EQ(c.polyhedra.solver.coulomb_tolerance, 1e-4);
    EXPECT_EQ(c.uniform_g.z(), -9.81);
    // And the defaults reach the structs unchanged.
    const rubble::config::RunConfig d = rubble::config::make_run_config(runnable_defaults());
    EXPECT_EQ(d.polyhedra.solver.max_iterations,
              rubble::polyhedra::ContactSolverOptions{}.max_iterations);
    EXPECT_EQ(d.collisions.mu, rubble::collisions::CollisionConfig{}.mu);
}

TEST(RunConfig, TheCollisionConfigChecksItselfNamingKeyAndValue) {
    rubble::collisions::CollisionConfig c;
    EXPECT_NO_THROW(rubble::collisions::check_collision_config(c));
    c.mu = 0.5;
    c.eps_t = 0.8;
    try {
        rubble::collisions::check_collision_config(c);
        ADD_FAILURE() << "mu > 0 with eps_t != 1 accepted";
    } catch (const rubble::KeyError& e) {
        EXPECT_EQ(e.key(), "collisions.mu");
        EXPECT_NE(std::string(e.what()).find("collisions.mu = 0.5: Coulomb friction"),
                  std::string::npos)
            << e.what();
    }
    rubble::polyhedra::PolyhedralContactConfig polyhedral;
    polyhedral.margin = -1.0;
    EXPECT_THROW(rubble::polyhedra::check_polyhedral_contact_config(polyhedral), rubble::KeyError);
    // Through make_run_config, the message names the value's source.
    rubble::config::ParameterSet p = runnable_defaults();
    p.set("collisions.mu", 0.5, "run.toml:7");
    p.set("collisions.eps_t", 0.8, "run.toml:8");
    try {
        (void)rubble::config::make_run_config(p);
        ADD_FAILURE() << "mu > 0 with eps_t != 1 accepted";
    } catch (const rubble::InputError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("run.toml:7: collisions.mu = 0.5: Coulomb", 0), 0u)
            << e.what();
    }
}
