// SPDX-License-Identifier: MIT
#include "rubble/collisions/shape_overlaps.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <utility>

#include "rubble/collisions/world_shapes.hpp"
#include "rubble/polyhedra/broad_phase.hpp"
#include "rubble/polyhedra/epa.hpp"
#include "rubble/polyhedra/gjk.hpp"
#include "rubble/polyhedra/point3_eigen.hpp"
#include "rubble/polyhedra/support.hpp"

namespace rubble::collisions {
namespace {

using polyhedra::Point3;
using polyhedra::WorldPolytopeSupport;

// How deep shapes i < j are in each other (m; <= 0 apart).
double depth_of(const WorldShapes& s, std::size_t i, std::size_t j) {
    if (j < s.spheres) // two spheres: exact
        return s.radius[i] + s.radius[j] - (s.centre[i] - s.centre[j]).norm();
    const Point3 towards = polyhedra::to_point3(s.centre[i] - s.centre[j]);
    if (i >= s.spheres) { // two hulls: GJK says whether, EPA how deep
        const polyhedra::GjkResult g = polyhedra::gjk_distance(s.hull(j), s.hull(i), towards);
        if (!g.overlap) return -g.distance;
        return polyhedra::penetration_depth(s.hull(j), s.hull(i), towards).depth;
    }
    // Sphere i and hull j: the sphere's radius less the hull's distance from its centre, or
    // plus the centre's depth inside the hull.
    const Point3 centre = polyhedra::to_point3(s.centre[i]);
    const WorldPolytopeSupport point{&centre, 1};
    const polyhedra::GjkResult g = polyhedra::gjk_distance(s.hull(j), point, towards);
    if (!g.overlap) return s.radius[i] - g.distance;
    return s.radius[i] + polyhedra::penetration_depth(s.hull(j), point, towards).depth;
}

} // namespace

std::vector<ShapeOverlap> find_shape_overlaps(const Bodies& b, double tolerance) {
    const WorldShapes s = place_world_shapes(b);
    const auto pairs = polyhedra::sphere_pairs(s.centre, s.radius);
    std::map<std::pair<std::size_t, std::size_t>, ShapeOverlap> deepest;
    for (const auto& [pi, pj] : pairs) {
        const auto i = static_cast<std::size_t>(pi), j = static_cast<std::size_t>(pj);
        if (s.body[i] == s.body[j]) continue; // one rigid body
        const double depth = depth_of(s, i, j);
        const double scale = s.radius[i] + s.radius[j];
        if (!(depth > tolerance * scale)) continue;
        const std::size_t a = std::min(s.body[i], s.body[j]), c = std::max(s.body[i], s.body[j]);
        const ShapeOverlap o{static_cast<std::int32_t>(a), static_cast<std::int32_t>(c), depth,
                             scale};
        const auto [at, fresh] = deepest.try_emplace({a, c}, o);
        if (!fresh && depth > at->second.depth) at->second = o;
    }
    std::vector<ShapeOverlap> out;
    out.reserve(deepest.size());
    for (const auto& entry : deepest)
        out.push_back(entry.second);
    return out;
}

} // namespace rubble::collisions
