// SPDX-License-Identifier: MIT
#include "rubble/ic/obj_shapes.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "rubble/core/error.hpp"
#include "rubble/ic/text_table.hpp"

namespace rubble::ic {

namespace {

struct RawObject {
    std::string name;
    int line = 0;                                 // of its "o" line (0: none)
    std::vector<std::size_t> own_vertices;        // global indices of its "v" lines
    std::vector<std::array<std::size_t, 3>> tris; // global vertex indices
};

// A face corner "i", "i/t", "i//n" or "i/t/n": the vertex index, 0-based, of `count` so far.
std::size_t corner_index(const std::string& word, std::size_t count, const std::string& at) {
    const std::string index = word.substr(0, word.find('/'));
    const auto v = parse_number(index);
    if (!v || !(std::fabs(*v) < 1e15) || std::floor(*v) != *v || *v == 0.0)
        throw InputError(at + "face corner \"" + word + "\" is not a vertex index");
    const auto i = static_cast<long long>(*v);
    const long long zero_based = i > 0 ? i - 1 : static_cast<long long>(count) + i;
    if (zero_based < 0 || zero_based >= static_cast<long long>(count))
        throw InputError(at + "face corner \"" + word + "\" names vertex " + index + " of the " +
                         std::to_string(count) + " read so far");
    return static_cast<std::size_t>(zero_based);
}

} // namespace

std::vector<ObjShape> read_obj_shapes(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw InputError(path + ": cannot read the OBJ shape file");
    std::vector<Vec3> vertices;
    std::vector<RawObject> objects(1);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        const std::string at = path + ":" + std::to_string(number) + ": ";
        std::istringstream words(line);
        std::string kind;
        if (!(words >> kind) || kind[0] == '#') continue;
        if (kind == "o") {
            std::string name;
            std::getline(words >> std::ws, name);
            while (!name.empty() && (name.back() == '\r' || name.back() == ' '))
                name.pop_back();
            if (objects.back().line != 0 || !objects.back().own_vertices.empty() ||
                !objects.back().tris.empty())
                objects.emplace_back();
            objects.back().name = name;
            objects.back().line = number;
        } else if (kind == "v") {
            std::array<double, 3> x{};
            for (double& c : x) {
                std::string w;
                const auto value = (words >> w) ? parse_number(w) : std::nullopt;
                if (!value || !std::isfinite(*value))
                    throw InputError(at + "a vertex needs three finite coordinates (\"v x y z\")");
                c = *value;
            }
            objects.back().own_vertices.push_back(vertices.size());
            vertices.emplace_back(x[0], x[1], x[2]);
        } else if (kind == "f") {
            std::vector<std::size_t> corners;
            for (std::string w; words >> w;)
                corners.push_back(corner_index(w, vertices.size(), at));
            if (corners.size() < 3) throw InputError(at + "a face needs at least three corners");
            for (std::size_t k = 1; k + 1 < corners.size(); ++k) // a fan: convex polygons
                objects.back().tris.push_back({corners[0], corners[k], corners[k + 1]});
        }
    }
    if (in.bad()) throw InputError(path + ": cannot read the OBJ shape file");
    // Vertices some face uses: a file that lists every vertex before its objects leaves them
    // in an object of vertices only, which is then no shape of its own.
    std::vector<std::uint8_t> in_a_face(vertices.size(), 0);
    for (const RawObject& o : objects)
        for (const auto& t : o.tris)
            for (const std::size_t v : t)
                in_a_face[v] = 1;
    std::vector<ObjShape> shapes;
    for (const RawObject& o : objects) {
        if (o.tris.empty() && std::all_of(o.own_vertices.begin(), o.own_vertices.end(),
                                          [&](std::size_t v) { return in_a_face[v] != 0; }))
            continue; // empty, or vertices for the faces of others
        std::string what = path;
        if (o.line) what.append(":").append(std::to_string(o.line));
        what.append(": object \"").append(o.name).append("\": ");
        try {
            if (o.tris.empty()) {
                std::vector<Vec3> points;
                for (const std::size_t v : o.own_vertices)
                    points.push_back(vertices[v]);
                shapes.push_back({o.name, shapes::make_polyhedron(shapes::convex_hull(points))});
                continue;
            }
            // The vertices its faces use, in file order, renumbered from 0.
            std::map<std::size_t, int> local;
            for (const auto& t : o.tris)
                for (const std::size_t v : t)
                    local.emplace(v, 0);
            std::vector<Vec3> used;
            for (auto& [global, index] : local) {
                index = static_cast<int>(used.size());
                used.push_back(vertices[global]);
            }
            std::vector<std::array<int, 3>> tris;
            for (const auto& t : o.tris)
                tris.push_back({local[t[0]], local[t[1]], local[t[2]]});
            shapes.push_back({o.name, shapes::polyhedron_from_faces(std::move(used), tris)});
        } catch (const std::logic_error& e) { // invalid_argument among them
            throw InputError(what + e.what());
        }
    }
    if (shapes.empty()) throw InputError(path + ": the OBJ file holds no vertices");
    for (std::size_t i = 0; i < shapes.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (shapes[i].name == shapes[j].name)
                throw InputError(path + ": two objects are named \"" + shapes[i].name +
                                 "\"; a shape is named by its object");
    return shapes;
}

std::string obj_text(const std::vector<ObjShape>& shapes, const std::string& comment) {
    std::string text = "# " + comment + "\n";
    std::size_t first = 1; // OBJ's indices are 1-based and count over the whole file
    for (const ObjShape& s : shapes) {
        text += "o " + s.name + "\n";
        for (const Vec3& v : s.shape.hull.vertices)
            text +=
                "v " + exact_text(v.x()) + " " + exact_text(v.y()) + " " + exact_text(v.z()) + "\n";
        for (const auto& t : s.shape.hull.faces)
            text += "f " + std::to_string(first + static_cast<std::size_t>(t[0])) + " " +
                    std::to_string(first + static_cast<std::size_t>(t[1])) + " " +
                    std::to_string(first + static_cast<std::size_t>(t[2])) + "\n";
        first += s.shape.hull.vertices.size();
    }
    return text;
}

} // namespace rubble::ic
