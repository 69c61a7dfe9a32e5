// SPDX-License-Identifier: MIT
// The command line end to end: good runs, every kind of bad input (exit code 2, one message
// naming file, key and value, no output file left behind), --version and the parameter docs.
#include <filesystem>

#include <gtest/gtest.h>

#include "cli_runner.hpp"
#include "rubble/gpu/gpu_gravity.hpp"
#include "rubble/runfile/run_file.hpp"
#include "temp_dir.hpp"

using rubble::test::run_rubble;
using rubble::test::TempDir;

namespace {

std::string small_run(const std::string& out_file, const std::string& extra = "") {
    return "[integrator]\ndt = 50.0\nn_steps = 20\n[output]\nfile = \"" + out_file +
           "\"\nsnapshot_interval = 500.0\n[ic.cloud]\nn = 100\nsize = 1000.0\nradius = 5.0\n" +
           extra;
}

} // namespace

TEST(Cli, RunsAParameterFileToACompleteOutput) {
    TempDir dir;
    const std::string out = dir.file("run.h5");
    const auto r = run_rubble({"run", dir.write("p.toml", small_run(out)), "--quiet"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("gravity backend direct"), std::string::npos);
    EXPECT_NE(r.out.find("output: "), std::string::npos);
    EXPECT_TRUE(rubble::runfile::is_complete(out));
    EXPECT_EQ(rubble::runfile::snapshot_count(out), 3); // steps 0, 10, 20
    EXPECT_EQ(rubble::runfile::read_diagnostics(out).size(), 21u);
}

// The main job writes out/default.h5 on a fresh checkout, where out/ does not exist yet.
TEST(Cli, MissingOutputDirectoriesAreCreated) {
    TempDir dir;
    const std::string out = dir.file("out/sub/run.h5");
    const auto r = run_rubble({"run", dir.write("p.toml", small_run(out)), "--quiet"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(rubble::runfile::is_complete(out));
}

TEST(Cli, CommandLineOverridesTheFile) {
    TempDir dir;
    const std::string out = dir.file("o.h5");
    const auto r = run_rubble({"run", dir.write("p.toml", small_run(out)), "--quiet",
                               "--integrator.n_steps", "5", "--ic.cloud.n", "30"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(rubble::runfile::read_snapshot(out, -1).step, 5);
    EXPECT_EQ(rubble::runfile::read_snapshot(out, -1).bodies.size(), 30u);
    EXPECT_NE(rubble::runfile::read_parameters_toml(out).find(
                  "n_steps = 5  # from command line (--integrator.n_steps)"),
              std::string::npos);
}

TEST(Cli, BadInputExitsWithCodeTwoAndANamedMessage) {
    TempDir dir;
    const std::string out = dir.file("never.h5");
    struct Case {
        std::string toml;
        std::vector<std::string> extra_args;
        std::string expect;
    };
    const std::vector<Case> cases = {
        {small_run(out, "[typo]\nkey = 1\n"), {}, "p.toml:12: unknown parameter 'typo.key'"},
        {small_run(out) + "[integrator]\n", {}, "p.toml:11: malformed TOML"},
        {small_run(out, "density = -3.0\n"), {}, "p.toml:11: ic.cloud.density = -3.0: must be > 0"},
        {small_run(out, "radius_min = -1.0\n"), {}, "ic.cloud.radius_min = -1.0: must be > 0 (m)"},
        {small_run(out),
         {"--integrator.dt", "0"},
         "command line (--integrator.dt): integrator.dt = 0.0: must be > 0 (s)"},
        {small_run(out), {"--integrator.dt", "nan"}, "integrator.dt = nan: must be finite"},
        {small_run(out), {"--ic.cloud.n", "0"}, "ic.cloud.n = 0: must be >= 1"},
        {small_run(out), {"--ic.cloud.n", "ten"}, "ic.cloud.n = ten: expected an integer"},
        {small_run(out), {"--integrator.t_end", "100"}, "set exactly one of integrator.t_end"},
        {small_run(out), {"--no-such-option", "1"}, "no-such-option"},
        {small_run(out),
         {"--ic.type", "file"},
         "ic.file.path = \"\": must name a rubble HDF5 file"},
        {small_run(out),
         {"--ic.type", "file", "--ic.file.path", dir.file("none.h5")},
         "none.h5\": no such file"},
        {small_run(out),
         {"--ic.type", "lattice", "--ic.lattice.spacing", "1.0"},
         "ic.lattice.spacing = 1.0: must be >= 2 * ic.lattice.radius"},
    };
    for (const auto& c : cases) {
        std::vector<std::string> args{"run", dir.write("p.toml", c.toml), "--quiet"};
        args.insert(args.end(), c.extra_args.begin(), c.extra_args.end());
        const auto r = run_rubble(args);
        EXPECT_EQ(r.code, 2) << c.expect << "\n" << r.err;
        EXPECT_NE(r.err.find(c.expect), std::string::npos)
            << "expected: " << c.expect << "\ngot: " << r.err;
        EXPECT_FALSE(std::filesystem::exists(out)) << c.expect;
    }
}

TEST(Cli, MissingOrUnreadableParameterFile) {
    TempDir dir;
    auto r = run_rubble({"run", dir.file("absent.toml")});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("cannot read parameter file"), std::string::npos) << r.err;
    r = run_rubble({"run", dir.file("")}); // a directory, not a file
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("cannot read parameter file"), std::string::npos) << r.err;
    r = run_rubble({"run"});
    EXPECT_EQ(r.code, 2);
}

TEST(Cli, ExistingOutputIsNotOverwrittenByDefault) {
    TempDir dir;
    const std::string out = dir.write("keep.h5", "precious");
    const auto r = run_rubble({"run", dir.write("p.toml", small_run(out)), "--quiet"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("output.file = \"" + out + "\": file exists"), std::string::npos) << r.err;
}

TEST(Cli, OverlappingBodiesInAnInitialFileAreRefused) {
    TempDir dir;
    const std::string src = dir.file("src.h5");
    rubble::Bodies b;
    b.add_sphere(7, 1.0, 1.0, rubble::Vec3(0, 0, 0), rubble::Vec3::Zero(), rubble::Vec3::Zero());
    b.add_sphere(8, 1.0, 1.0, rubble::Vec3(1.9, 0, 0), rubble::Vec3::Zero(), rubble::Vec3::Zero());
    rubble::runfile::RunFile::create(src, "", 0.0, false).write_snapshot(b, 0.0, 0);
    const std::string out = dir.file("o.h5");
    const auto r = run_rubble(
        {"run", dir.write("p.toml", small_run(out)), "--ic.type", "file", "--ic.file.path", src});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("ids 7 and 8 overlap by 0.1"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(Cli, VersionAndParameterReference) {
    auto r = run_rubble({"--version"});
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("rubble 0."), std::string::npos);
    EXPECT_NE(r.out.find("CUDA: "), std::string::npos);
    r = run_rubble({"params", "--markdown"});
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("`integrator.dt`"), std::string::npos);
    r = run_rubble({"run", "--help"});
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("--ic.cloud.power_law_index"), std::string::npos);
    // The walls, which have no options, are named with where their keys are documented.
    EXPECT_NE(r.out.find("[[walls]] tables"), std::string::npos);
    EXPECT_NE(r.out.find("docs/parameters.md"), std::string::npos);
}

TEST(Cli, AnUnknownCommandIsNamedWithTheCommandsThereAre) {
    const auto r = run_rubble({"frobnicate", "p.toml"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("'frobnicate' is not a rubble command"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("run, campaign, params, xdmf"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(Cli, TimeStepWarningForDenseBodies) {
    TempDir dir;
    const std::string out = dir.file("w.h5");
    // rho = 2000 kg/m^3 gives 1/(2 sqrt(G rho)) = 1369 s.
    const auto r = run_rubble({"run", dir.write("p.toml", small_run(out)), "--quiet",
                               "--integrator.dt", "2000", "--integrator.n_steps", "1"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("warning: integrator.dt = 2000 s exceeds"), std::string::npos) << r.err;
}

// A GPU backend on a machine without a usable GPU: exit code 2, the key and value named, and
// no output file (the solver is made before the output is created).
TEST(Cli, AGpuBackendWithoutAGpuExitsWithCodeTwo) {
    if (rubble::gpu::gpu_available()) GTEST_SKIP() << "a GPU is present";
    TempDir dir;
    const std::string out = dir.file("g.h5");
    for (const char* backend : {"gpu-tree", "gpu-direct"}) {
        const auto r = run_rubble(
            {"run", dir.write("p.toml", small_run(out)), "--quiet", "--gravity.backend", backend});
        EXPECT_EQ(r.code, 2) << backend;
        EXPECT_NE(r.err.find(std::string("gravity.backend = \"") + backend + "\""),
                  std::string::npos)
            << r.err;
        EXPECT_FALSE(std::filesystem::exists(out));
    }
}
