// SPDX-License-Identifier: MIT
#include "rubble/runfile/shapes_sidecar.hpp"

#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "rubble/core/error.hpp"
#include "rubble/runfile/run_file.hpp"
#include "rubble/storage/atomic_file.hpp"
#include "rubble/storage/hdf5_util.hpp"
#include "xml_escape.hpp"

// The XDMF uses what XDMF 2 and 3 share, as the bodies' sidecar does (xdmf_sidecar.cpp): a
// Temporal collection of Uniform grids, Polyvertex points for the spheres and Triangle cells
// for hulls and walls (the XDMF model at xdmf.org, "Topology").
namespace rubble::runfile {

namespace h5 = storage::h5;
namespace fs = std::filesystem;

namespace {

std::string snapshot_file_name(std::int64_t index) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%06lld.h5", static_cast<long long>(index));
    return buf;
}

// What one snapshot's file holds: enough to describe it in the XDMF without reading it again.
struct Counts {
    double time = 0.0;
    std::int64_t step = -1;
    std::size_t spheres = 0, hull_vertices = 0, hull_triangles = 0, wall_vertices = 0,
                wall_triangles = 0;
};

void write_mesh(hid_t file, const char* group, const TriangleMesh& m, const char* tag_name,
                const char* tag_meaning) {
    if (m.triangles.empty()) return;
    h5::Handle g = h5::create_group(file, group);
    h5::write_dataset(g.get(), "vertices", m.vertices.data()->data(), m.vertices.size(), 3, "m",
                      "vertices, world frame");
    h5::write_dataset(g.get(), "triangles", m.triangles.data()->data(), m.triangles.size(), 3, "",
                      "vertex indices, counter-clockwise seen from outside");
    h5::write_dataset(g.get(), tag_name, m.tag.data(), m.tag.size(), "", tag_meaning);
}

Counts write_snapshot_file(const std::string& path, const SceneGeometry& g, double time,
                           std::int64_t step) {
    const std::string temporary = path + ".tmp." + std::to_string(::getpid());
    try {
        h5::Handle f = h5::create_file(temporary, true);
        h5::write_attr(f.get(), "time", time);
        h5::write_attr(f.get(), "step", step);
        if (!g.sphere_radii.empty()) {
            h5::Handle s = h5::create_group(f.get(), "spheres");
            h5::write_dataset(s.get(), "centre", g.sphere_centres.data()->data(),
                              g.sphere_centres.size(), 3, "m", "sphere centres, world frame");
            h5::write_dataset(s.get(), "radius", g.sphere_radii.data(), g.sphere_radii.size(), 1,
                              "m", "sphere radii");
            h5::write_dataset(s.get(), "body_id", g.sphere_ids.data(), g.sphere_ids.size(), "",
                              "id of the sphere's body");
        }
        write_mesh(f.get(), "hulls", g.hulls, "body_id", "id of the triangle's body");
        write_mesh(f.get(), "walls", g.walls, "wall",
                   "index of the triangle's wall ([[walls]] in order, then the fixed hulls)");
        h5::close_file(f, temporary);
    } catch (...) {
        std::error_code ignored;
        fs::remove(temporary, ignored); // a full disk leaves no half file behind
        throw;
    }
    std::error_code ec;
    fs::rename(temporary, path, ec);
    if (ec) {
        fs::remove(temporary, ec);
        throw IoError("cannot write '" + path + "': " + ec.message());
    }
    return {time,
            step,
            g.sphere_radii.size(),
            g.hulls.vertices.size(),
            g.hulls.triangles.size(),
            g.walls.vertices.size(),
            g.walls.triangles.size()};
}

// The counts of an existing snapshot file, or nothing when it cannot be read.
std::optional<Counts> read_counts(const std::string& path) {
    try {
        const h5::Handle f = h5::open_file(path, h5::Mode::read);
        Counts c;
        c.time = h5::read_attr_double(f.get(), "time");
        c.step = h5::read_attr_int(f.get(), "step");
        if (h5::exists(f.get(), "spheres"))
            c.spheres = h5::dataset_shape(f.get(), "spheres/radius").first;
        if (h5::exists(f.get(), "hulls")) {
            c.hull_vertices = h5::dataset_shape(f.get(), "hulls/vertices").first;
            c.hull_triangles = h5::dataset_shape(f.get(), "hulls/triangles").first;
        }
        if (h5::exists(f.get(), "walls")) {
            c.wall_vertices = h5::dataset_shape(f.get(), "walls/vertices").first;
            c.wall_triangles = h5::dataset_shape(f.get(), "walls/triangles").first;
        }
        return c;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

std::string item(const std::string& reference, std::size_t rows, std::size_t cols,
                 const char* type) {
    std::string out = "<DataItem Dimensions=\"";
    out.append(std::to_string(rows));
    if (cols > 1) out.append(" ").append(std::to_string(cols));
    out.append("\" NumberType=\"").append(type).append("\" Precision=\"8\" Format=\"HDF\">");
    return out.append(reference).append("</DataItem>");
}

std::string time_text(double t) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", t);
    return text;
}

// One snapshot's grid of each kind (ShapeKind order), "" for a kind it has none of; the
// references are relative to the XDMF's directory.
std::array<std::string, 3> grid_texts(const std::string& name, const std::string& file,
                                      const Counts& c) {
    const std::string head = "      <Grid Name=\"" + xml_escape(name) +
                             "\" GridType=\"Uniform\">\n" + "        <Time Value=\"" +
                             time_text(c.time) + "\"/>\n";
    std::array<std::string, 3> out;
    if (c.spheres > 0) {
        const std::string at = file + ":/spheres/";
        out[0] = head + "        <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"" +
                 std::to_string(c.spheres) +
                 "\" NodesPerElement=\"1\"/>\n"
                 "        <Geometry GeometryType=\"XYZ\">" +
                 item(at + "centre", c.spheres, 3, "Float") +
                 "</Geometry>\n"
                 "        <Attribute Name=\"radius\" AttributeType=\"Scalar\" Center=\"Node\">" +
                 item(at + "radius", c.spheres, 1, "Float") +
                 "</Attribute>\n"
                 "        <Attribute Name=\"body_id\" AttributeType=\"Scalar\" Center=\"Node\">" +
                 item(at + "body_id", c.spheres, 1, "Int") + "</Attribute>\n      </Grid>\n";
    }
    const auto mesh = [&](const char* group, std::size_t vertices, std::size_t triangles,
                          const char* tag) -> std::string {
        if (triangles == 0) return {};
        const std::string at = file + ":/" + group + "/";
        return head + "        <Topology TopologyType=\"Triangle\" NumberOfElements=\"" +
               std::to_string(triangles) + "\">" + item(at + "triangles", triangles, 3, "Int") +
               "</Topology>\n        <Geometry GeometryType=\"XYZ\">" +
               item(at + "vertices", vertices, 3, "Float") + "</Geometry>\n" +
               "        <Attribute Name=\"" + tag + "\" AttributeType=\"Scalar\" Center=\"Cell\">" +
               item(at + tag, triangles, 1, "Int") + "</Attribute>\n      </Grid>\n";
    };
    out[1] = mesh("hulls", c.hull_vertices, c.hull_triangles, "body_id");
    out[2] = mesh("walls", c.wall_vertices, c.wall_triangles, "wall");
    return out;
}

// Each snapshot of the run file: its name, index, time and step.
struct SnapshotTag {
    std::string name;
    std::int64_t index;
    double time;
    std::int64_t step;
};

std::vector<SnapshotTag> snapshots_of(const std::string& h5_path) {
    const h5::Handle file = h5::open_file(h5_path, h5::Mode::read);
    const h5::Handle snapshots = h5::open_group(file.get(), "snapshots");
    std::vector<SnapshotTag> out;
    std::int64_t index = 0;
    for (const std::string& name : h5::link_names(snapshots.get())) {
        const h5::Handle g = h5::open_group(snapshots.get(), name);
        out.push_back({name, index++, h5::read_attr_double(g.get(), "time"),
                       h5::read_attr_int(g.get(), "step")});
    }
    return out;
}

// The directory's per-snapshot files ("NNNNNN.h5") and leftover temporaries.
std::vector<fs::path> files_in(const std::string& directory) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        const std::size_t digits = name.find_first_not_of("0123456789");
        const bool ours =
            digits != std::string::npos && digits >= 6 && name.compare(digits, 3, ".h5") == 0;
        if (ours) out.push_back(it->path());
    }
    return out;
}

// The per-snapshot files' directory as the XDMF names it (relative, escaped for XML). XDMF
// separates the file from the dataset at the first ':' (xdmf_sidecar.cpp): a name holding one
// cannot be referred to.
std::string directory_reference(const std::string& h5_path, const std::string& directory) {
    const std::string name = fs::path(directory).filename().string();
    if (name.find(':') != std::string::npos)
        throw IoError("cannot write the shapes sidecar of '" + h5_path +
                      "': XDMF cannot refer to a file name containing ':' (rename the file)");
    return xml_escape(name) + "/";
}

} // namespace

std::string shapes_sidecar_path(const std::string& h5_path, ShapeKind kind) {
    static const char* const endings[] = {".spheres.xdmf", ".hulls.xdmf", ".walls.xdmf"};
    fs::path p(h5_path);
    return p.replace_extension(endings[static_cast<int>(kind)]).string();
}

std::string shapes_directory(const std::string& h5_path) {
    fs::path p(h5_path);
    if (p.extension() == ".shapes") return h5_path + ".shapes"; // never the run file itself
    return p.replace_extension(".shapes").string();
}

void ShapesSidecar::add(std::int64_t index, const Bodies& b, double time, std::int64_t step) {
    const std::string directory = shapes_directory(h5_path_);
    const std::string reference = directory_reference(h5_path_, directory);
    std::error_code ec;
    fs::create_directories(directory, ec);
    const std::string file = snapshot_file_name(index);
    const Counts c = write_snapshot_file((fs::path(directory) / file).string(),
                                         scene_geometry(b, scene_, time), time, step);
    char name[32];
    std::snprintf(name, sizeof name, "%06lld", static_cast<long long>(index));
    grids_[name] = grid_texts(name, reference + file, c);
    write_xdmf();
}

void ShapesSidecar::write_xdmf() const {
    static const char* const what[] = {"spheres (free spheres and the constituents of aggregates)",
                                       "hulls (polyhedral bodies)", "walls"};
    for (int kind = 0; kind < 3; ++kind) {
        std::string grids;
        for (const auto& [name, texts] : grids_)
            grids += texts[static_cast<std::size_t>(kind)];
        const std::string path = shapes_sidecar_path(h5_path_, static_cast<ShapeKind>(kind));
        if (grids.empty()) { // none in the run: no file (and none from an earlier run)
            std::error_code ec;
            fs::remove(path, ec);
            continue;
        }
        storage::replace_file_atomically(
            path, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                  "<!-- Written by rubble: the " +
                      std::string(what[kind]) +
                      " of the run beside it, in the world frame (derived data; see "
                      "docs/output-format.md). -->\n"
                      "<Xdmf Version=\"3.0\">\n  <Domain>\n"
                      "    <Grid Name=\"snapshots\" GridType=\"Collection\" "
                      "CollectionType=\"Temporal\">\n" +
                      grids + "    </Grid>\n  </Domain>\n</Xdmf>\n");
    }
}

std::int64_t ShapesSidecar::refresh() {
    const std::string directory = shapes_directory(h5_path_);
    const std::string relative = directory_reference(h5_path_, directory);
    std::vector<SnapshotTag> snapshots;
    try {
        snapshots = snapshots_of(h5_path_);
    } catch (const std::exception& e) {
        throw IoError("cannot write the shapes sidecar of '" + h5_path_ + "': " + e.what());
    }
    // Files of snapshots the run no longer has go first.
    std::map<std::string, bool> wanted;
    for (const SnapshotTag& s : snapshots)
        wanted[snapshot_file_name(s.index)] = true;
    for (const fs::path& p : files_in(directory)) {
        std::error_code ec;
        if (!wanted.count(p.filename().string())) fs::remove(p, ec);
    }
    grids_.clear();
    std::error_code ec;
    fs::create_directories(directory, ec);
    for (const SnapshotTag& s : snapshots) {
        const std::string file = snapshot_file_name(s.index);
        const std::string path = (fs::path(directory) / file).string();
        std::optional<Counts> c = read_counts(path);
        if (!c || c->time != s.time || c->step != s.step) {
            const Snapshot snap = read_snapshot(h5_path_, s.index);
            c = write_snapshot_file(path, scene_geometry(snap.bodies, scene_, snap.time), snap.time,
                                    s.step);
        }
        grids_[s.name] = grid_texts(s.name, relative + file, *c);
    }
    write_xdmf();
    return static_cast<std::int64_t>(grids_.size());
}

void remove_shapes_sidecar(const std::string& h5_path) {
    std::error_code ec;
    for (const ShapeKind kind : {ShapeKind::spheres, ShapeKind::hulls, ShapeKind::walls})
        fs::remove(shapes_sidecar_path(h5_path, kind), ec);
    const std::string directory = shapes_directory(h5_path);
    for (const fs::path& p : files_in(directory))
        fs::remove(p, ec);
    if (fs::is_directory(directory, ec)) fs::remove(directory, ec); // only when empty
}

} // namespace rubble::runfile
