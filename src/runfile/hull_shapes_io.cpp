// SPDX-License-Identifier: MIT
#include "hull_shapes_io.hpp"

#include <array>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "rubble/core/error.hpp"
#include "rubble/core/polyhedron_mass.hpp"
#include "rubble/runfile/hull_shape_arrays.hpp"

namespace rubble::runfile {

namespace h5 = storage::h5;

HullShapeArrays hull_shape_arrays(const HullShapes& shapes) {
    HullShapeArrays a;
    for (const shapes::Polyhedron& p : shapes) {
        for (const Vec3& v : p.hull.vertices)
            a.vertices.insert(a.vertices.end(), {v.x(), v.y(), v.z()});
        for (const auto& t : p.hull.faces)
            a.triangles.insert(a.triangles.end(), t.begin(), t.end());
        a.vertex_start.push_back(a.vertex_start.back() +
                                 static_cast<std::int64_t>(p.hull.vertices.size()));
        a.triangle_start.push_back(a.triangle_start.back() +
                                   static_cast<std::int64_t>(p.hull.faces.size()));
        a.volume.push_back(shapes::polyhedron_volume(p.hull));
    }
    return a;
}

void write_hull_shapes(hid_t f, const HullShapes& shapes) {
    const auto [vertex_start, vertices, triangle_start, triangles, volume] =
        hull_shape_arrays(shapes);
    h5::Handle g = h5::create_group(f, "hull_shapes");
    const hid_t h = g.get();
    h5::write_dataset(h, "vertex_start", vertex_start.data(), vertex_start.size(), "",
                      "shape k has vertices vertex_start[k] to vertex_start[k+1]-1");
    h5::write_dataset(h, "vertices", vertices.data(), vertices.size() / 3, 3, "m",
                      "vertices in the body frame, about the shape's centroid");
    h5::write_dataset(h, "triangle_start", triangle_start.data(), triangle_start.size(), "",
                      "shape k has triangles triangle_start[k] to triangle_start[k+1]-1");
    h5::write_dataset(h, "triangles", triangles.data(), triangles.size() / 3, 3, "",
                      "vertex indices within the shape, counter-clockwise seen from outside");
    h5::write_dataset(h, "volume", volume.data(), volume.size(), 1, "m^3", "shape volume");
}

HullShapes read_hull_shapes(hid_t f, const std::string& where) {
    const std::string group = where + ":/hull_shapes";
    if (!h5::exists(f, "hull_shapes")) throw InputError(group + " is missing");
    h5::Handle g = h5::open_group(f, "hull_shapes");
    const hid_t h = g.get();
    std::vector<std::int64_t> vertex_start, triangle_start, triangles;
    std::vector<double> vertices;
    try {
        vertex_start = h5::read_ints(h, "vertex_start");
        triangle_start = h5::read_ints(h, "triangle_start");
        triangles = h5::read_ints(h, "triangles");
        vertices = h5::read_doubles(h, "vertices");
    } catch (const IoError& e) {
        throw InputError(group + ": " + e.what());
    }
    // Starts from 0, never decreasing, ending at the rows there are.
    const auto check_starts = [&](const std::vector<std::int64_t>& start, const char* name,
                                  std::size_t rows) {
        bool ok =
            !start.empty() && start.front() == 0 && start.back() == static_cast<std::int64_t>(rows);
        for (std::size_t k = 1; ok && k < start.size(); ++k)
            ok = start[k] >= start[k - 1];
        if (!ok)
            throw InputError(group + "/" + name + " does not cover the " + std::to_string(rows) +
                             " rows from 0 in order");
    };
    if (vertices.size() % 3 != 0 || triangles.size() % 3 != 0)
        throw InputError(group + ": vertices and triangles must have 3 columns");
    check_starts(vertex_start, "vertex_start", vertices.size() / 3);
    check_starts(triangle_start, "triangle_start", triangles.size() / 3);
    if (vertex_start.size() != triangle_start.size())
        throw InputError(group + ": vertex_start and triangle_start have different lengths");
    HullShapes shapes;
    for (std::size_t k = 0; k + 1 < vertex_start.size(); ++k) {
        std::vector<Vec3> v;
        for (auto i = vertex_start[k]; i < vertex_start[k + 1]; ++i) {
            const double* x = &vertices[3 * static_cast<std::size_t>(i)];
            v.emplace_back(x[0], x[1], x[2]);
        }
        std::vector<std::array<int, 3>> t;
        const auto count = vertex_start[k + 1] - vertex_start[k];
        for (auto i = triangle_start[k]; i < triangle_start[k + 1]; ++i) {
            const std::int64_t* x = &triangles[3 * static_cast<std::size_t>(i)];
            std::array<int, 3> tri{};
            for (int e = 0; e < 3; ++e) // out-of-range values stay out of range as int
                tri[static_cast<std::size_t>(e)] =
                    x[e] < 0 || x[e] >= count ? -1 : static_cast<int>(x[e]);
            t.push_back(tri);
        }
        try {
            shapes.push_back(shapes::polyhedron_from_faces(std::move(v), std::move(t)));
        } catch (const std::invalid_argument& e) {
            throw InputError(group + ", shape " + std::to_string(k) + ": " + e.what());
        }
    }
    return shapes;
}

} // namespace rubble::runfile
