// SPDX-License-Identifier: MIT
#pragma once
// Convex hulls of point sets and the exact mass properties of convex polyhedra of uniform
// density: the shape module shared by the aggregate generators (ic/aggregates) and the
// polyhedral path.
//
// The hull is our own incremental algorithm (Clarkson & Shor 1989; the horizon step of
// quickhull, Barber, Dobkin & Huhdanpaa 1996), not Qhull: grains have tens to hundreds of
// points, where O(n F) is instant; it adds no dependency to the CPU, CUDA and CI builds; and
// its output (triangles, outward normals, offsets) is exactly what the callers need. Points
// within a relative tolerance of a face are treated as on it, so nearly coplanar faces are
// kept as triangles of one plane rather than split by round-off.
#include <array>
#include <utility>
#include <vector>

#include "rubble/core/types.hpp"

namespace rubble::shapes {

/// A convex polyhedron: its vertices and triangulated faces. Face f has vertices
/// faces[f] (counter-clockwise seen from outside), outward unit normal normals[f] and offset
/// offsets[f]: the polyhedron is { x : normals[f] . x <= offsets[f] for every f }.
struct ConvexHull {
    std::vector<Vec3> vertices;            ///< m
    std::vector<std::array<int, 3>> faces; ///< indices into vertices
    std::vector<Vec3> normals;             ///< outward unit normals
    std::vector<double> offsets;           ///< m, normals[f] . x on face f
};

/// Relative tolerance of the hull: points closer than this times the extent of the point set
/// to a plane are on it, and closer than this to each other coincide. Far above round-off
/// (1e-16) and far below any real feature of a grain.
inline constexpr double hull_tolerance = 1e-10;

/// The convex hull of `points`. Throws std::invalid_argument naming the problem for fewer
/// than 4 points, non-finite coordinates, two coinciding points, or points that are all
/// coincident, collinear or coplanar (no volume).
[[nodiscard]] ConvexHull convex_hull(const std::vector<Vec3>& points);

/// The plane of triangle (a, b, c), counter-clockwise seen from outside: its unit normal
/// ((b - a) x (c - a), normalised) and offset normal . a. The one formula of every hull's
/// planes, so that a hull rebuilt from its vertices and triangles has the same bits.
[[nodiscard]] std::pair<Vec3, double> triangle_plane(const Vec3& a, const Vec3& b, const Vec3& c);

/// The hull of these vertices and triangles (a file's), its planes from triangle_plane.
/// Throws std::invalid_argument naming the first problem: fewer than 4 vertices or triangles,
/// a non-finite vertex, an index out of range, a degenerate triangle, a surface that is not
/// closed (a directed edge met other than once, or without its reverse), a vertex no triangle
/// uses, or a vertex outside a triangle's plane by more than hull_tolerance times the extent
/// (not convex, or faces turned inwards).
[[nodiscard]] ConvexHull hull_from_triangles(std::vector<Vec3> vertices,
                                             std::vector<std::array<int, 3>> triangles);

/// Largest normals[f] . x - offsets[f] over the faces: <= 0 inside or on the hull (m).
[[nodiscard]] double plane_distance(const ConvexHull& hull, const Vec3& x);

/// The hull with every vertex mapped to a x + b (a > 0): normals unchanged, offsets
/// a offsets + normal . b.
[[nodiscard]] ConvexHull scaled(const ConvexHull& hull, double a, const Vec3& b = Vec3::Zero());

} // namespace rubble::shapes
