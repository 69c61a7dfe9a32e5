// SPDX-License-Identifier: MIT
#pragma once
// The contact shapes of all bodies in the world, as one list for a broad phase: the spheres
// first (rows of b.spheres: free spheres and the spheres of aggregates at their world centres),
// then the hulls (rows of b.hulls) with their world vertices. A hull's centre and radius are
// its body's centre of mass and bounding radius. Used where shapes, not bounding spheres, decide:
// the settled stop's contacts (run/settling.hpp) and the check of initial conditions
// (shape_overlaps.hpp).
#include <cstddef>
#include <vector>

#include "rubble/core/bodies.hpp"
#include "rubble/polyhedra/point3.hpp"
#include "rubble/polyhedra/support.hpp"

namespace rubble::collisions {

struct WorldShapes {
    std::size_t spheres = 0;                 ///< the first `spheres` shapes are spheres
    std::vector<Vec3> centre;                ///< m, world
    std::vector<double> radius;              ///< m
    std::vector<std::size_t> body;           ///< body row
    std::vector<polyhedra::Point3> vertices; ///< m, world, hull by hull
    std::vector<std::size_t> first = {0};    ///< hull h: first[h] .. first[h + 1] - 1

    /// The support of shape k >= spheres (a hull).
    [[nodiscard]] polyhedra::WorldPolytopeSupport hull(std::size_t k) const {
        const std::size_t h = k - spheres;
        return {vertices.data() + first[h], static_cast<int>(first[h + 1] - first[h])};
    }
};

/// Every shape of b placed in the world (vertices as the analysis places them: x + R v).
[[nodiscard]] WorldShapes place_world_shapes(const Bodies& b);

} // namespace rubble::collisions
