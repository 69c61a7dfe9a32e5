// SPDX-License-Identifier: MIT
#include "rubble/runfile/xdmf_sidecar.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

#include "rubble/core/error.hpp"
#include "rubble/storage/atomic_file.hpp"
#include "rubble/storage/hdf5_util.hpp"
#include "xml_escape.hpp"

// The sidecar uses only what XDMF 2 and XDMF 3 share (Grid, Time, Topology, Geometry,
// Attribute, DataItem with Format="HDF"; the XDMF 3 model at xdmf.org, "XDMF Model and
// Format"), so that ParaView's Xdmf3 readers and its legacy XDMF reader both open it. Bodies
// are a Polyvertex topology without connectivity: the legacy reader makes one vertex cell per
// point, the Xdmf3 readers make points only (enough for the Glyph filter and the Point
// Gaussian representation; docs/output-format.md says how to show them).
namespace rubble::runfile {

namespace h5 = storage::h5;
namespace {

// One dataset of a snapshot group as XDMF describes it.
struct Field {
    std::string name;
    std::vector<hsize_t> dims;
    const char* number_type; ///< XDMF NumberType
    std::size_t precision;   ///< bytes
};

// The XDMF number type of an HDF5 datatype, if XDMF has one: integers of 1, 4 or 8 bytes and
// floats of 4 or 8 (the precisions both XDMF versions read); not strings, compounds or enums.
std::optional<std::pair<const char*, std::size_t>> number_type(hid_t type) {
    const H5T_class_t cls = H5Tget_class(type);
    const std::size_t size = H5Tget_size(type);
    if (cls == H5T_FLOAT && (size == 4 || size == 8)) return {{"Float", size}};
    if (cls != H5T_INTEGER) return std::nullopt;
    const bool is_signed = H5Tget_sign(type) == H5T_SGN_2;
    if (size == 1) return {{is_signed ? "Char" : "UChar", size}};
    if (size == 4 || size == 8) return {{is_signed ? "Int" : "UInt", size}};
    return std::nullopt;
}

// The dataset `name` of `group` as a Field, or nothing if it is not a numeric dataset (a
// subgroup, a string, a link that leads nowhere).
std::optional<Field> describe(hid_t group, const std::string& name) {
    const hid_t id = H5Oopen(group, name.c_str(), H5P_DEFAULT);
    if (id < 0) return std::nullopt;
    const h5::Handle object(id, H5Oclose);
    if (H5Iget_type(id) != H5I_DATASET) return std::nullopt;
    const h5::Handle type(H5Dget_type(id), H5Tclose);
    const h5::Handle space(H5Dget_space(id), H5Sclose);
    if (!type.valid() || !space.valid()) return std::nullopt;
    const auto number = number_type(type.get());
    const int rank = H5Sget_simple_extent_ndims(space.get());
    if (!number || rank < 1) return std::nullopt;
    Field f{name, std::vector<hsize_t>(static_cast<std::size_t>(rank)), number->first,
            number->second};
    H5Sget_simple_extent_dims(space.get(), f.dims.data(), nullptr);
    return f;
}

// Values per point of a field (the product of its dimensions after the first).
hsize_t components(const Field& f) {
    hsize_t n = 1;
    for (std::size_t k = 1; k < f.dims.size(); ++k)
        n *= f.dims[k];
    return n;
}

const char* attribute_type(const Field& f) {
    const hsize_t n = components(f);
    if (f.dims.size() == 1) return "Scalar";
    if (f.dims.size() == 2 && n == 3) return "Vector";
    if (f.dims.size() == 2 && n == 6) return "Tensor6";
    if (n == 9) return "Tensor";
    return "Matrix"; // e.g. the orientation quaternion, N x 4
}

void append_data_item(std::string& out, const Field& f, const std::string& reference) {
    out += "<DataItem Dimensions=\"";
    for (std::size_t k = 0; k < f.dims.size(); ++k) {
        if (k > 0) out += ' ';
        out += std::to_string(f.dims[k]);
    }
    out += "\" NumberType=\"";
    out += f.number_type;
    out += "\" Precision=\"" + std::to_string(f.precision) + "\" Format=\"HDF\">";
    out += reference + "/" + xml_escape(f.name) + "</DataItem>";
}

// The fields of one snapshot group, in name order.
std::vector<Field> fields_of(hid_t group) {
    std::vector<Field> out;
    for (const std::string& name : h5::link_names(group)) {
        if (auto f = describe(group, name)) out.push_back(std::move(*f));
    }
    return out;
}

const Field* find(const std::vector<Field>& fields, std::string_view name) {
    for (const auto& f : fields)
        if (f.name == name) return &f;
    return nullptr;
}

// The grid of snapshot `name`, or "" if the group is not a snapshot that can be shown (see
// write_xdmf_sidecar's contract).
std::string grid_text(hid_t snapshots, const std::string& name, const std::string& h5_name) {
    const hid_t id = H5Oopen(snapshots, name.c_str(), H5P_DEFAULT);
    if (id < 0) return {}; // a link that leads nowhere
    const h5::Handle group(id, H5Oclose);
    if (H5Iget_type(id) != H5I_GROUP || !h5::has_attr(group.get(), "time")) return {};
    const double time = h5::read_attr_double(group.get(), "time");
    const std::vector<Field> fields = fields_of(group.get());
    const Field* ids = find(fields, "id");
    const Field* position = find(fields, "position");
    if (!std::isfinite(time) || !ids || ids->dims.size() != 1 || ids->dims[0] == 0 || !position ||
        position->dims.size() != 2 || position->dims[0] != ids->dims[0] || position->dims[1] != 3)
        return {};
    const hsize_t n = ids->dims[0];
    const std::string reference = xml_escape(h5_name) + ":/snapshots/" + xml_escape(name);
    char time_text[32];
    std::snprintf(time_text, sizeof time_text, "%.17g", time);
    std::string out = "      <Grid Name=\"" + xml_escape(name) + "\" GridType=\"Uniform\">\n";
    out += "        <Time Value=\"" + std::string(time_text) + "\"/>\n";
    out += "        <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"" + std::to_string(n) +
           "\" NodesPerElement=\"1\"/>\n";
    out += "        <Geometry GeometryType=\"XYZ\">";
    append_data_item(out, *position, reference);
    out += "</Geometry>\n";
    for (const Field& f : fields) {
        if (&f == position || f.dims[0] != n) continue;
        out += "        <Attribute Name=\"" + xml_escape(f.name) + "\" AttributeType=\"" +
               attribute_type(f) + "\" Center=\"Node\">";
        append_data_item(out, f, reference);
        out += "</Attribute>\n";
    }
    out += "      </Grid>\n";
    return out;
}

} // namespace

std::string xdmf_sidecar_path(const std::string& h5_path) {
    std::filesystem::path p(h5_path);
    if (p.extension() == ".xdmf") return h5_path + ".xdmf";
    return p.replace_extension(".xdmf").string();
}

std::int64_t XdmfSidecar::write() {
    const std::string h5_name = std::filesystem::path(h5_path_).filename().string();
    // XDMF separates the file from the dataset at the first ':'; ParaView's readers fail (the
    // Xdmf3 ones abort) on a file name that holds one.
    if (h5_name.find(':') != std::string::npos)
        throw IoError("cannot write the XDMF sidecar of '" + h5_path_ +
                      "': XDMF cannot refer to a file name containing ':' (rename the file)");
    std::string text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                       "<!-- Written by rubble from the HDF5 file it names (derived data: "
                       "rewritten after each snapshot; see docs/output-format.md). -->\n"
                       "<Xdmf Version=\"3.0\">\n  <Domain>\n"
                       "    <Grid Name=\"snapshots\" GridType=\"Collection\" "
                       "CollectionType=\"Temporal\">\n";
    std::int64_t count = 0;
    try {
        const h5::Handle file = h5::open_file(h5_path_, h5::Mode::read);
        const h5::Handle snapshots = h5::open_group(file.get(), "snapshots");
        std::map<std::string, std::string> grids; // those still in the file
        for (std::string& name : h5::link_names(snapshots.get())) {
            const auto known = grids_.find(name);
            std::string grid = known != grids_.end() ? std::move(known->second)
                                                     : grid_text(snapshots.get(), name, h5_name);
            if (!grid.empty()) ++count;
            text += grid;
            grids.emplace(std::move(name), std::move(grid));
        }
        grids_ = std::move(grids);
    } catch (const IoError& e) {
        grids_.clear();
        throw IoError("cannot write the XDMF sidecar of '" + h5_path_ + "': " + e.what());
    }
    text += "    </Grid>\n  </Domain>\n</Xdmf>\n";
    storage::replace_file_atomically(xdmf_sidecar_path(h5_path_), text);
    return count;
}

std::int64_t write_xdmf_sidecar(const std::string& h5_path) {
    return XdmfSidecar(h5_path).write();
}

} // namespace rubble::runfile
