// SPDX-License-Identifier: MIT
#pragma once
// What a snapshot looks like, in the world frame, for a viewer (the shapes sidecar,
// runfile/shapes_sidecar.hpp): every sphere (free spheres and the constituents of
// aggregates) as a centre and a radius with its body's id, every polyhedral body's hull as
// triangles with its body's id, and the walls and fixed hulls as triangulated surfaces. Walls
// that are infinite (planes, infinite cylinders) are drawn as far as the bodies reach, with a
// margin: a plane as a square about the bodies' centre, cut by every other plane to the side
// the bodies are on (so a box's six planes draw as its six faces).
#include <cstdint>
#include <vector>

#include "rubble/boundaries/fixed_hull.hpp"
#include "rubble/boundaries/wall.hpp"
#include "rubble/core/bodies.hpp"

namespace rubble::runfile {

/// The walls and fixed hulls of a run (they are parameters, not part of a snapshot).
struct Scene {
    std::vector<boundaries::Wall> walls;
    std::vector<boundaries::FixedHull> fixed_hulls;
    [[nodiscard]] bool empty() const { return walls.empty() && fixed_hulls.empty(); }
};

/// Triangles over a list of vertices, each triangle tagged (a body id, a wall index).
struct TriangleMesh {
    std::vector<Vec3> vertices;                         ///< m, world frame
    std::vector<std::array<std::int64_t, 3>> triangles; ///< indices into vertices
    std::vector<std::int64_t> tag;                      ///< one per triangle
};

struct SceneGeometry {
    std::vector<Vec3> sphere_centres;     ///< m, world frame
    std::vector<double> sphere_radii;     ///< m
    std::vector<std::int64_t> sphere_ids; ///< the id of each sphere's body
    TriangleMesh hulls;                   ///< tag: the body's id
    TriangleMesh walls;                   ///< tag: the wall's index (walls, then fixed hulls)
};

/// Segments around a cylinder's circumference in its drawing.
inline constexpr int cylinder_segments = 48;

/// The geometry of bodies `b` and `scene` at time t (s: walls may move).
[[nodiscard]] SceneGeometry scene_geometry(const Bodies& b, const Scene& scene, double t);

} // namespace rubble::runfile
