// SPDX-License-Identifier: MIT
#pragma once
// A convex polyhedron as the polyhedral grain model needs it: the triangulated hull (for mass
// properties and plane tests) together with its true faces, polygons made of the hull's
// coplanar triangles (for contact manifolds: a box's face is one quadrilateral, not two
// triangles), its edges with the two faces beside each, each vertex's neighbours along edges
// (for hill climbing of supports on the vertex graph) and the faces around each vertex.
//
// Everything is derived from the vertices and the triangles, in one deterministic order, so a
// polyhedron read back from a file (its vertices and triangles) is bit for bit the one written.
#include <array>
#include <vector>

#include "rubble/core/convex_hull.hpp"

namespace rubble::shapes {

struct Polyhedron {
    ConvexHull hull; ///< vertices (m) and triangles, with the triangles' planes
    /// Face f (a convex polygon, counter-clockwise seen from outside) has the vertices
    /// face_vertices[face_start[f]] ... face_vertices[face_start[f + 1] - 1].
    std::vector<int> face_start;
    std::vector<int> face_vertices;
    std::vector<Vec3> face_normals;   ///< outward unit normals
    std::vector<double> face_offsets; ///< m: the face's plane is face_normals[f] . x = offset
    /// Edge e joins vertices edges[e][0] < edges[e][1]; edge_faces[e] are the face on whose
    /// boundary it runs from [0] to [1] and the face on whose boundary it runs back.
    std::vector<std::array<int, 2>> edges;
    std::vector<std::array<int, 2>> edge_faces;
    /// Vertex v's neighbours along edges: neighbours[neighbour_start[v]] ... (ascending).
    std::vector<int> neighbour_start;
    std::vector<int> neighbours;
    /// The faces around vertex v: vertex_faces[vertex_face_start[v]] ... (ascending).
    std::vector<int> vertex_face_start;
    std::vector<int> vertex_faces;

    [[nodiscard]] std::size_t vertex_count() const { return hull.vertices.size(); }
    [[nodiscard]] std::size_t face_count() const { return face_normals.size(); }
    [[nodiscard]] const Vec3& vertex(int v) const {
        return hull.vertices[static_cast<std::size_t>(v)];
    }
};

/// The faces, edges and neighbours of a hull. Adjacent triangles whose vertices lie within
/// hull_tolerance times the hull's extent of each other's planes are one face; a face's
/// normal is that of its largest triangle and its offset the largest normal . x over its
/// vertices (so every vertex is on or inside every face plane).
[[nodiscard]] Polyhedron make_polyhedron(ConvexHull hull);

/// The polyhedron of a convex hull's vertices and triangles as make_polyhedron received
/// them (a file's): the triangles' planes recomputed exactly as convex_hull computes them.
/// Throws std::invalid_argument naming the first problem: fewer than 4 vertices, a vertex
/// index out of range, a non-finite vertex, a surface that is not closed (an edge not met
/// exactly once in each direction), a vertex unused, or a vertex outside a face's plane by
/// more than hull_tolerance times the extent (not convex).
[[nodiscard]] Polyhedron polyhedron_from_faces(std::vector<Vec3> vertices,
                                               std::vector<std::array<int, 3>> triangles);

/// The same polyhedron moved by b (every vertex x -> x + b), its planes recomputed.
[[nodiscard]] Polyhedron translated(const Polyhedron& p, const Vec3& b);

/// The polyhedron with every face plane moved inwards by `margin` (m): the intersection of the
/// half-spaces normal . x <= offset - margin, its core for contacts with a collision margin
/// (the core grown by a ball of radius margin is the polyhedron with rounded edges; Ferrari et
/// al. 2017, sec. 2.3). Found by polar duality about the origin, which must be inside with
/// room: the planes' poles n / (offset - margin) have as their convex hull the dual polytope,
/// each of whose faces n' . y = c' is the pole of a vertex n' / c' of the core (Preparata &
/// Shamos 1985, sec. 3.3). Faces that shrink away drop out. Throws std::invalid_argument
/// when margin is not positive or the ball of radius 2 margin about the origin is not inside
/// (the core would be empty or a sliver).
[[nodiscard]] Polyhedron shrunk(const Polyhedron& p, double margin);

/// The largest distance of a vertex from the origin (m).
[[nodiscard]] double circumradius(const Polyhedron& p);

/// The distance from the origin to the nearest face plane (m): the radius of the largest
/// ball about the origin inside the polyhedron; <= 0 when the origin is not inside.
[[nodiscard]] double inradius_about_origin(const Polyhedron& p);

} // namespace rubble::shapes
