// SPDX-License-Identifier: MIT
// Writing a body table (ic/body_table.hpp): every value at full precision (%.17g reads back
// as the same double), every column read_body_table would otherwise derive written as well.
#include <cstdio>
#include <filesystem>

#include "rubble/core/error.hpp"
#include "rubble/ic/body_table.hpp"
#include "rubble/ic/obj_shapes.hpp"
#include "rubble/ic/text_table.hpp"
#include "rubble/storage/atomic_file.hpp"

namespace rubble::ic {

namespace fs = std::filesystem;

namespace {

std::string cells(const Vec3& v) {
    return exact_text(v.x()) + "," + exact_text(v.y()) + "," + exact_text(v.z());
}

std::string cells(const Quat& q) {
    return exact_text(q.w()) + "," + exact_text(q.x()) + "," + exact_text(q.y()) + "," +
           exact_text(q.z());
}

// The table's path less a .csv or .txt ending: the stem its companions are named from.
std::string stem_of(const std::string& path) {
    const fs::path p(path);
    const std::string ext = p.extension().string();
    return ext == ".csv" || ext == ".txt" ? (p.parent_path() / p.stem()).string() : path;
}

std::string shape_name(std::size_t k) {
    return "shape_" + std::to_string(k);
}

} // namespace

std::vector<std::string> write_body_table(const Bodies& b, const std::string& path,
                                          const std::string& comment) {
    const std::string stem = stem_of(path);
    const std::string parts_path = stem + ".parts.csv", shapes_path = stem + ".shapes.obj";
    // Named from the table's directory, where read_body_table looks for them.
    const std::string parts_name = fs::path(parts_path).filename().string();
    const std::string shapes_name = fs::path(shapes_path).filename().string();

    std::vector<std::size_t> first_sphere(b.size() + 1, 0); // spheres are grouped by body
    for (const std::int64_t owner : b.spheres.body)
        ++first_sphere[static_cast<std::size_t>(owner) + 1];
    for (std::size_t k = 0; k < b.size(); ++k)
        first_sphere[k + 1] += first_sphere[k];
    std::vector<std::int64_t> hull_of(b.size(), -1);
    for (std::size_t h = 0; h < b.hulls.size(); ++h)
        hull_of[static_cast<std::size_t>(b.hulls.body[h])] = static_cast<std::int64_t>(h);

    std::string table = "# " + comment + "\n";
    std::string header;
    for (const BodyTableColumn& c : body_table_columns()) {
        const std::string name = c.name;
        if (name == "density" || name == "size" || name.rfind("axis_", 0) == 0 ||
            name == "angle_deg")
            continue; // an export gives mass and the quaternion; a built-in shape is an object
        header += (header.empty() ? "" : ",") + name;
    }
    table += header + "\n";
    std::string parts = "# " + comment + "\nbody,x,y,z,radius,mass\n";
    bool any_aggregate = false;
    for (std::size_t k = 0; k < b.size(); ++k) {
        const std::size_t s0 = first_sphere[k], s1 = first_sphere[k + 1];
        std::string model, radius = exact_text(b.radius[k]), shape, parts_cell;
        if (hull_of[k] >= 0) {
            model = "polyhedron";
            shape = shapes_name + "#" +
                    shape_name(static_cast<std::size_t>(
                        b.hulls.shape[static_cast<std::size_t>(hull_of[k])]));
        } else if (s1 - s0 == 1 && b.spheres.offset[s0] == Vec3::Zero() &&
                   b.spheres.radius[s0] == b.radius[k]) {
            model = "sphere";
        } else {
            model = "aggregate";
            any_aggregate = true;
            parts_cell = parts_name + "#" + std::to_string(b.id[k]);
            for (std::size_t s = s0; s < s1; ++s)
                parts += std::to_string(b.id[k]) + "," + cells(b.spheres.offset[s]) + "," +
                         exact_text(b.spheres.radius[s]) + "," + exact_text(b.spheres.mass[s]) +
                         "\n";
        }
        table += std::to_string(b.id[k]) + "," + model + "," + cells(b.pos[k]) + "," +
                 cells(b.vel[k]) + "," + cells(b.spin[k]) + "," + cells(b.orientation[k]) + "," +
                 exact_text(b.mass[k]) + "," + radius + "," + shape + "," + parts_cell + "," +
                 cells(b.inertia[k]) + "," + cells(b.principal_axes[k]) + "," +
                 exact_text(b.free_path[k]) + "\n";
    }
    std::vector<std::string> written;
    if (any_aggregate) {
        storage::replace_file_atomically(parts_path, parts);
        written.push_back(parts_path);
    }
    if (!b.hull_shapes().empty()) {
        std::vector<ObjShape> objects;
        for (std::size_t k = 0; k < b.hull_shapes().size(); ++k)
            objects.push_back({shape_name(k), b.hull_shapes()[k]});
        storage::replace_file_atomically(shapes_path, obj_text(objects, comment));
        written.push_back(shapes_path);
    }
    storage::replace_file_atomically(path, table);
    written.push_back(path);
    return written;
}

} // namespace rubble::ic
