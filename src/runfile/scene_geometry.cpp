// SPDX-License-Identifier: MIT
#include "rubble/runfile/scene_geometry.hpp"

#include <algorithm>
#include <cmath>

#include "rubble/core/rigid_body.hpp"

namespace rubble::runfile {

namespace {

using boundaries::Wall;
using boundaries::WallShape;

// Where the bodies are: their mean position and the radius of a ball about it holding them.
struct Extent {
    Vec3 centre = Vec3::Zero();
    double reach = 1.0; // m; one metre when there are no bodies
};

Extent extent_of(const Bodies& b) {
    Extent e;
    if (b.empty()) return e;
    for (const Vec3& x : b.pos)
        e.centre += x;
    e.centre /= static_cast<double>(b.size());
    double reach = 0.0;
    for (std::size_t k = 0; k < b.size(); ++k)
        reach = std::max(reach, (b.pos[k] - e.centre).norm() + b.radius[k]);
    if (reach > 0.0) e.reach = reach;
    return e;
}

// Two unit vectors completing n to a right-handed orthonormal frame.
std::pair<Vec3, Vec3> frame_about(const Vec3& n) {
    const Vec3 helper = std::abs(n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
    const Vec3 u = n.cross(helper).normalized();
    return {u, n.cross(u)};
}

// The convex polygon cut to the half-space normal . x >= normal . point (Sutherland and
// Hodgman 1974, one clipping plane).
std::vector<Vec3> clipped(const std::vector<Vec3>& polygon, const Vec3& point, const Vec3& normal) {
    std::vector<Vec3> out;
    for (std::size_t i = 0; i < polygon.size(); ++i) {
        const Vec3& a = polygon[i];
        const Vec3& b = polygon[(i + 1) % polygon.size()];
        const double da = normal.dot(a - point), db = normal.dot(b - point);
        if (da >= 0.0) out.push_back(a);
        if ((da >= 0.0) != (db >= 0.0)) out.push_back(a + (da / (da - db)) * (b - a));
    }
    return out;
}

void add_fan(TriangleMesh& m, const std::vector<Vec3>& polygon, std::int64_t tag) {
    if (polygon.size() < 3) return;
    const auto first = static_cast<std::int64_t>(m.vertices.size());
    m.vertices.insert(m.vertices.end(), polygon.begin(), polygon.end());
    for (std::size_t i = 1; i + 1 < polygon.size(); ++i) {
        m.triangles.push_back({first, first + static_cast<std::int64_t>(i),
                               first + static_cast<std::int64_t>(i + 1)});
        m.tag.push_back(tag);
    }
}

// A plane as a square of half-side 1.5 reach about the bodies' centre, cut by the other
// planes to the bodies' side of each.
void add_plane(TriangleMesh& m, const std::vector<Wall>& walls, std::size_t k, double t,
               const Extent& e) {
    const Wall& w = walls[k];
    const Vec3 p = boundaries::wall_point_at(w, t);
    const Vec3 foot = e.centre - w.normal.dot(e.centre - p) * w.normal;
    const auto [u, v] = frame_about(w.normal);
    const double h = 1.5 * e.reach;
    std::vector<Vec3> square{foot - h * u - h * v, foot + h * u - h * v, foot + h * u + h * v,
                             foot - h * u + h * v};
    for (std::size_t j = 0; j < walls.size(); ++j)
        if (j != k && walls[j].shape == WallShape::plane)
            square = clipped(square, boundaries::wall_point_at(walls[j], t), walls[j].normal);
    add_fan(m, square, static_cast<std::int64_t>(k));
}

// A cylinder's surface: cylinder_segments quadrilaterals between two rings, and its end discs
// when it has caps. An infinite one spans the bodies' reach about their centre's foot.
void add_cylinder(TriangleMesh& m, const Wall& w, std::int64_t tag, double t, const Extent& e) {
    const Vec3 p = boundaries::wall_point_at(w, t);
    double from = 0.0, to = w.length;
    if (!(w.length > 0.0)) {
        const double along = w.normal.dot(e.centre - p);
        from = along - 1.5 * e.reach;
        to = along + 1.5 * e.reach;
    }
    const auto [u, v] = frame_about(w.normal);
    const auto first = static_cast<std::int64_t>(m.vertices.size());
    for (int i = 0; i < cylinder_segments; ++i) {
        const double phi = 2.0 * pi * i / cylinder_segments;
        const Vec3 r = w.radius * (std::cos(phi) * u + std::sin(phi) * v);
        m.vertices.push_back(p + from * w.normal + r);
        m.vertices.push_back(p + to * w.normal + r);
    }
    for (std::int64_t i = 0; i < cylinder_segments; ++i) {
        const std::int64_t a = first + 2 * i, b = first + 2 * ((i + 1) % cylinder_segments);
        m.triangles.push_back({a, b, a + 1});
        m.triangles.push_back({b, b + 1, a + 1});
        m.tag.insert(m.tag.end(), 2, tag);
    }
    if (w.length > 0.0 && w.caps) {
        for (const double at : {from, to}) {
            std::vector<Vec3> disc;
            for (int i = 0; i < cylinder_segments; ++i) {
                const double phi = 2.0 * pi * i / cylinder_segments;
                disc.push_back(p + at * w.normal +
                               w.radius * (std::cos(phi) * u + std::sin(phi) * v));
            }
            add_fan(m, disc, tag);
        }
    }
}

void add_hull(TriangleMesh& m, const shapes::Polyhedron& shape, const Vec3& x, const Quat& q,
              std::int64_t tag) {
    const auto first = static_cast<std::int64_t>(m.vertices.size());
    for (const Vec3& v : shape.hull.vertices)
        m.vertices.push_back(x + q * v);
    for (const auto& f : shape.hull.faces) {
        m.triangles.push_back({first + f[0], first + f[1], first + f[2]});
        m.tag.push_back(tag);
    }
}

} // namespace

SceneGeometry scene_geometry(const Bodies& b, const Scene& scene, double t) {
    SceneGeometry g;
    g.sphere_centres.reserve(b.spheres.size());
    for (std::size_t s = 0; s < b.spheres.size(); ++s) {
        g.sphere_centres.push_back(sphere_centre(b, s));
        g.sphere_radii.push_back(b.spheres.radius[s]);
        g.sphere_ids.push_back(b.id[static_cast<std::size_t>(b.spheres.body[s])]);
    }
    for (std::size_t row = 0; row < b.hulls.size(); ++row) {
        const auto k = static_cast<std::size_t>(b.hulls.body[row]);
        add_hull(g.hulls, b.hull_shapes()[static_cast<std::size_t>(b.hulls.shape[row])], b.pos[k],
                 b.orientation[k], b.id[k]);
    }
    const Extent e = extent_of(b);
    for (std::size_t k = 0; k < scene.walls.size(); ++k) {
        if (scene.walls[k].shape == WallShape::plane)
            add_plane(g.walls, scene.walls, k, t, e);
        else
            add_cylinder(g.walls, scene.walls[k], static_cast<std::int64_t>(k), t, e);
    }
    for (std::size_t h = 0; h < scene.fixed_hulls.size(); ++h) {
        const boundaries::FixedHull& f = scene.fixed_hulls[h];
        add_hull(g.walls, f.shape, f.position, f.orientation,
                 static_cast<std::int64_t>(scene.walls.size() + h));
    }
    return g;
}

} // namespace rubble::runfile
