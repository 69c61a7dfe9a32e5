// SPDX-License-Identifier: MIT
#pragma once
// Convex grain shapes in Wavefront OBJ, the plain-text mesh format every modelling tool and
// ParaView read (Wavefront Technologies, "Object Files (.obj)", Advanced Visualizer manual,
// appendix B1). Only what a convex shape needs is read: vertices ("v x y z"), faces
// ("f i j k ...", 1-based or negative indices, "i/t/n" forms allowed, polygons fanned into
// triangles) and objects ("o name", each a shape; a file without "o" lines is one shape named
// ""). Normals, texture coordinates, groups and materials are ignored.
#include <string>
#include <vector>

#include "rubble/core/polyhedron.hpp"

namespace rubble::ic {

struct ObjShape {
    std::string name;         ///< the object's name ("" before any "o" line)
    shapes::Polyhedron shape; ///< m, in the file's frame
};

/// The shapes of an OBJ file, in file order. An object with faces is the polyhedron of those
/// faces as written (shapes::polyhedron_from_faces: its vertices in the order the file gives
/// them, so a shape written by write_obj_shapes reads back bit for bit), which must be closed
/// and convex; an object of vertices only is their convex hull. Throws InputError naming the
/// file and line of a malformed line or index, and the file and object of a shape that is not
/// a closed convex polyhedron.
[[nodiscard]] std::vector<ObjShape> read_obj_shapes(const std::string& path);

/// The OBJ text of `shapes` (one "o" object each, vertices at full precision, triangles).
[[nodiscard]] std::string obj_text(const std::vector<ObjShape>& shapes, const std::string& comment);

} // namespace rubble::ic
