// SPDX-License-Identifier: MIT
// The XDMF sidecar (include/rubble/runfile/xdmf_sidecar.hpp): one time step per snapshot with its
// time and number of bodies, every reference resolving to a dataset of the HDF5 file with the
// stated dimensions, kept current by RunFile, and never a cause of harm to the run file. The
// XML is read back with regular expressions here; analysis/tests/test_xdmf.py parses it with
// a real XML parser and opens it in ParaView where pvpython is installed.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <hdf5.h>

#include "cli_runner.hpp"
#include "rubble/core/error.hpp"
#include "rubble/runfile/run_file.hpp"
#include "rubble/runfile/xdmf_sidecar.hpp"
#include "spheres.hpp"
#include "temp_dir.hpp"

using namespace rubble;

namespace {

Bodies sample_bodies(std::int64_t n) {
    return test::moving_cloud(n, 11);
}

Bodies first_bodies(Bodies b, std::size_t n) {
    b.resize(n);
    return b;
}

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string unescape(std::string s) {
    for (const auto& [from, to] : {std::pair<std::string, std::string>{"&lt;", "<"},
                                   {"&gt;", ">"},
                                   {"&quot;", "\""},
                                   {"&apos;", "'"},
                                   {"&amp;", "&"}}) {
        for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + 1))
            s.replace(at, from.size(), to);
    }
    return s;
}

struct Item {
    std::string attribute; ///< "" for the geometry
    std::string type;      ///< AttributeType
    std::vector<hsize_t> dims;
    std::string file, dataset;
};

struct Grid {
    std::string name;
    double time = 0;
    hsize_t n = 0;
    std::vector<Item> items;
};

std::vector<hsize_t> parse_dims(const std::string& text) {
    std::vector<hsize_t> dims;
    std::istringstream in(text);
    for (hsize_t d; in >> d;)
        dims.push_back(d);
    return dims;
}

// The grids of the temporal collection, as the sidecar states them.
std::vector<Grid> parse_sidecar(const std::string& text) {
    static const std::regex grid_re(
        R"re(<Grid Name="([^"]*)" GridType="Uniform">([\s\S]*?)</Grid>)re");
    static const std::regex time_re(R"re(<Time Value="([^"]*)"/>)re");
    static const std::regex topo_re(R"re(TopologyType="Polyvertex" NumberOfElements="(\d+)")re");
    static const std::regex item_re(
        R"re((?:<Attribute Name="([^"]*)" AttributeType="(\w+)" Center="Node">|<Geometry GeometryType="XYZ">)<DataItem Dimensions="([\d ]+)" NumberType="\w+" Precision="\d" Format="HDF">([^<]*)</DataItem>)re");
    std::vector<Grid> out;
    for (std::sregex_iterator g(text.begin(), text.end(), grid_re), end; g != end; ++g) {
        Grid grid;
        grid.name = (*g)[1];
        const std::string body = (*g)[2];
        std::smatch m;
        if (std::regex_search(body, m, time_re)) grid.time = std::stod(m[1]);
        if (std::regex_search(body, m, topo_re)) grid.n = std::stoull(m[1]);
        for (std::sregex_iterator i(body.begin(), body.end(), item_re); i != end; ++i) {
            const std::string reference = unescape((*i)[4]);
            const auto colon = reference.find(':');
            grid.items.push_back({unescape((*i)[1]), (*i)[2], parse_dims((*i)[3]),
                                  reference.substr(0, colon), reference.substr(colon + 1)});
        }
        out.push_back(std::move(grid));
    }
    return out;
}

// Dimensions of a dataset of the HDF5 file (empty if it does not exist).
std::vector<hsize_t> dataset_dims(const std::string& h5_path, const std::string& dataset) {
    const hid_t file = H5Fopen(h5_path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0) return {};
    std::vector<hsize_t> dims;
    const hid_t set = H5Dopen2(file, dataset.c_str(), H5P_DEFAULT);
    if (set >= 0) {
        const hid_t space = H5Dget_space(set);
        dims.resize(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)));
        H5Sget_simple_extent_dims(space, dims.data(), nullptr);
        H5Sclose(space);
        H5Dclose(set);
    }
    H5Fclose(file);
    return dims;
}

// Every reference of the sidecar of `h5_path` names its file and a dataset of the stated
// dimensions; returns the grids for further checks.
std::vector<Grid> checked_grids(const std::string& h5_path) {
    const std::vector<Grid> grids = parse_sidecar(read_text(runfile::xdmf_sidecar_path(h5_path)));
    const std::string name = std::filesystem::path(h5_path).filename().string();
    for (const Grid& g : grids) {
        EXPECT_FALSE(g.items.empty()) << g.name;
        for (const Item& item : g.items) {
            EXPECT_EQ(item.file, name);
            EXPECT_EQ(item.dataset, "/snapshots/" + g.name + "/" +
                                        (item.attribute.empty() ? "position" : item.attribute));
            EXPECT_EQ(dataset_dims(h5_path, item.dataset), item.dims) << item.dataset;
            EXPECT_EQ(item.dims.at(0), g.n) << item.dataset;
        }
    }
    return grids;
}

const Item* attribute(const Grid& g, const std::string& name) {
    for (const Item& item : g.items)
        if (item.attribute == name) return &item;
    return nullptr;
}

} // namespace

TEST(XdmfSidecar, ListsEverySnapshotWithItsTimeAndBodies) {
    test::TempDir dir;
    const std::string path = dir.file("run & <co>.h5"); // names are escaped in the XML
    const Bodies b = sample_bodies(50);
    runfile::RunFile f = runfile::RunFile::create(path, "", 0.0, false);
    f.write_snapshot(b, 0.0, 0);
    EXPECT_EQ(checked_grids(path).size(), 1u);
    f.write_snapshot(b, 2.5, 5);
    f.write_snapshot(first_bodies(b, 40), 1.0 / 3.0, 7); // bodies merged away
    const std::vector<Grid> grids = checked_grids(path);
    ASSERT_EQ(grids.size(), 3u);
    EXPECT_EQ(runfile::xdmf_sidecar_path(path), dir.file("run & <co>.xdmf"));
    const double times[] = {0.0, 2.5, 1.0 / 3.0}; // %.17g: the time read back is the same
    const hsize_t bodies[] = {50, 50, 40};
    for (std::size_t k = 0; k < grids.size(); ++k) {
        EXPECT_EQ(grids[k].name, "00000" + std::to_string(k));
        EXPECT_EQ(grids[k].time, times[k]);
        EXPECT_EQ(grids[k].n, bodies[k]);
        EXPECT_EQ(grids[k].items.front().attribute, ""); // the geometry, from position
        for (const char* name : {"id", "radius", "mass", "velocity", "spin", "orientation",
                                 "principal_axes", "inertia", "free_path"})
            EXPECT_NE(attribute(grids[k], name), nullptr) << name;
        EXPECT_EQ(attribute(grids[k], "radius")->type, "Scalar");
        EXPECT_EQ(attribute(grids[k], "velocity")->type, "Vector");
        EXPECT_EQ(attribute(grids[k], "orientation")->type, "Matrix"); // N x 4, (w, x, y, z)
    }
}

TEST(XdmfSidecar, FollowsTruncationAndIsRewrittenOnResume) {
    test::TempDir dir;
    const std::string path = dir.file("run.h5");
    const Bodies b = sample_bodies(20);
    {
        runfile::RunFile f = runfile::RunFile::create(path, "", 0.0, false);
        for (std::int64_t k = 0; k < 3; ++k)
            f.write_snapshot(b, static_cast<double>(k), 10 * k);
    }
    std::ofstream(runfile::xdmf_sidecar_path(path)) << "<Xdmf><Domain"; // damaged
    runfile::RunFile f = runfile::RunFile::open_existing(path);
    EXPECT_EQ(checked_grids(path).size(), 3u);
    f.truncate_after(10); // the resume drops the snapshot at step 20
    const std::vector<Grid> grids = checked_grids(path);
    ASSERT_EQ(grids.size(), 2u);
    EXPECT_EQ(grids.back().time, 1.0);
}

TEST(XdmfSidecar, DescribesDatasetsItDoesNotKnowAndLeavesOutWhatItCannotShow) {
    test::TempDir dir;
    const std::string path = dir.file("run.h5");
    const Bodies b = sample_bodies(12);
    {
        runfile::RunFile f = runfile::RunFile::create(path, "", 0.0, false);
        f.write_snapshot(b, 0.0, 0);
    }
    // Datasets a later rubble may add: a tensor per body, a subgroup of constituent spheres
    // (other rows), a per-aggregate table (another length) and a string per body.
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    const hid_t snap = H5Gopen2(file, "snapshots/000000", H5P_DEFAULT);
    const auto add = [](hid_t loc, const char* name, std::vector<hsize_t> dims, hid_t type) {
        const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
        H5Dclose(H5Dcreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
        H5Sclose(space);
    };
    add(snap, "stress", {12, 3, 3}, H5T_IEEE_F64LE);
    add(snap, "flags", {12}, H5T_STD_U8LE);
    add(snap, "per_aggregate", {3}, H5T_IEEE_F64LE);
    const hid_t text = H5Tcopy(H5T_C_S1);
    H5Tset_size(text, 8);
    add(snap, "label", {12}, text);
    H5Tclose(text);
    const hid_t spheres = H5Gcreate2(snap, "constituents", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    add(spheres, "position", {30, 3}, H5T_IEEE_F64LE);
    H5Gclose(spheres);
    H5Gclose(snap);
    H5Fclose(file);

    EXPECT_EQ(runfile::write_xdmf_sidecar(path), 1);
    const std::vector<Grid> grids = checked_grids(path);
    ASSERT_EQ(grids.size(), 1u);
    ASSERT_NE(attribute(grids[0], "stress"), nullptr);
    EXPECT_EQ(attribute(grids[0], "stress")->type, "Tensor");
    ASSERT_NE(attribute(grids[0], "flags"), nullptr);
    for (const char* absent : {"per_aggregate", "label", "spheres", "constituents", "position"})
        EXPECT_EQ(attribute(grids[0], absent), nullptr) << absent;
    EXPECT_EQ(grids[0].items.size(), 1u + 11u); // geometry + 9 rubble fields + 2 added
}

TEST(XdmfSidecar, AFailureToWriteItIsReportedOnceAndLeavesTheRunIntact) {
    test::TempDir dir;
    const std::string path = dir.file("run.h5");
    const std::string sidecar = runfile::xdmf_sidecar_path(path);
    // A directory where the sidecar should go: the rename over it fails.
    std::filesystem::create_directories(sidecar + "/occupied");
    const Bodies b = sample_bodies(10);
    std::vector<std::string> warnings;
    {
        runfile::RunFile f = runfile::RunFile::create(path, "", 0.0, false);
        f.set_warning_handler([&](const std::string& m) { warnings.push_back(m); });
        f.write_snapshot(b, 0.0, 0);
        f.write_snapshot(b, 1.0, 1);
        ASSERT_EQ(warnings.size(), 1u);
        EXPECT_NE(warnings[0].find(sidecar), std::string::npos) << warnings[0];
        EXPECT_EQ(runfile::snapshot_count(path), 2);
        EXPECT_EQ(runfile::read_snapshot(path, -1).bodies.pos, b.pos);
        // No temporary file is left behind.
        std::set<std::string> names;
        for (const auto& e : std::filesystem::directory_iterator(dir.file("")))
            names.insert(e.path().filename().string());
        EXPECT_EQ(names, (std::set<std::string>{"run.h5", "run.xdmf"}));
        std::filesystem::remove_all(sidecar);
        f.write_snapshot(b, 2.0, 2); // room again: the sidecar catches up
        f.mark_complete(true, 0.0, 0.0);
    }
    EXPECT_EQ(checked_grids(path).size(), 3u);
    EXPECT_EQ(warnings.size(), 1u);
    EXPECT_TRUE(runfile::is_complete(path));
}

TEST(XdmfSidecar, RefusesAFileNameXdmfCannotReferTo) {
    test::TempDir dir;
    const std::string path = dir.file("a:b.h5"); // XDMF splits "file:dataset" at the ':'
    std::vector<std::string> warnings;
    {
        runfile::RunFile f = runfile::RunFile::create(path, "", 0.0, false);
        f.set_warning_handler([&](const std::string& m) { warnings.push_back(m); });
        f.write_snapshot(sample_bodies(5), 0.0, 0);
    }
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("':'"), std::string::npos) << warnings[0];
    EXPECT_FALSE(std::filesystem::exists(runfile::xdmf_sidecar_path(path)));
    EXPECT_THROW(runfile::write_xdmf_sidecar(path), IoError);
    EXPECT_EQ(runfile::snapshot_count(path), 1);
}

TEST(XdmfSidecar, PathKeepsTheStemAndNeverNamesTheRunFile) {
    EXPECT_EQ(runfile::xdmf_sidecar_path("out/run.h5"), "out/run.xdmf");
    EXPECT_EQ(runfile::xdmf_sidecar_path("run.hdf5"), "run.xdmf");
    EXPECT_EQ(runfile::xdmf_sidecar_path("run"), "run.xdmf");
    EXPECT_EQ(runfile::xdmf_sidecar_path("run.xdmf"), "run.xdmf.xdmf");
}

TEST(XdmfSidecar, CommandLineWritesTheSidecarOfAnExistingRun) {
    test::TempDir dir;
    const std::string path = dir.file("old.h5");
    {
        runfile::RunFile f = runfile::RunFile::create(path, "", 0.0, false);
        f.write_snapshot(sample_bodies(8), 0.0, 0);
    }
    std::filesystem::remove(runfile::xdmf_sidecar_path(path)); // a run from before the sidecar
    const test::CliResult r = test::run_rubble({"xdmf", path});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("(1 snapshot)"), std::string::npos) << r.out;
    EXPECT_EQ(checked_grids(path).size(), 1u);

    const test::CliResult bad = test::run_rubble({"xdmf", dir.write("x.h5", "not HDF5")});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("x.h5"), std::string::npos) << bad.err;

    runfile::RunFile running = runfile::RunFile::open_existing(path); // holds the run's lock
    const test::CliResult busy = test::run_rubble({"xdmf", path});
    EXPECT_EQ(busy.code, 2);
    EXPECT_NE(busy.err.find("running rubble"), std::string::npos) << busy.err;
}
