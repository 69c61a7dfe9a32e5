// SPDX-License-Identifier: MIT
#include "rubble/core/polyhedron.hpp"

#include "edge_owners.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

namespace rubble::shapes {
namespace {

double extent_of(const std::vector<Vec3>& v) {
    Vec3 lo = v.front(), hi = v.front();
    for (const Vec3& x : v) {
        lo = lo.cwiseMin(x);
        hi = hi.cwiseMax(x);
    }
    return (hi - lo).norm();
}

int find_root(std::vector<int>& parent, int i) {
    while (parent[static_cast<std::size_t>(i)] != i) {
        int& p = parent[static_cast<std::size_t>(i)];
        p = parent[static_cast<std::size_t>(p)]; // path halving
        i = p;
    }
    return i;
}

// The vertex of triangle t that is not on its edge (a, b).
int opposite(const std::array<int, 3>& t, int a, int b) {
    for (int v : t)
        if (v != a && v != b) return v;
    return t[0];
}

// The points in order, without any within tol of an earlier one.
std::vector<Vec3> distinct(const std::vector<Vec3>& points, double tol) {
    std::vector<Vec3> out;
    for (const Vec3& x : points) {
        const bool seen = std::any_of(out.begin(), out.end(),
                                      [&](const Vec3& y) { return (x - y).norm() <= tol; });
        if (!seen) out.push_back(x);
    }
    return out;
}

// The poles of the planes n . x = d (d > 0) of a polytope about the origin, n / d: the
// vertices of its polar dual. Planes whose poles coincide to the hull tolerance are one.
std::vector<Vec3> poles(const std::vector<Vec3>& normals, const std::vector<double>& offsets) {
    std::vector<Vec3> y;
    for (std::size_t f = 0; f < normals.size(); ++f)
        y.push_back(normals[f] / offsets[f]);
    return distinct(y, hull_tolerance * extent_of(y));
}

} // namespace

Polyhedron make_polyhedron(ConvexHull hull) {
    Polyhedron p;
    p.hull = std::move(hull);
    const ConvexHull& h = p.hull;
    const std::size_t nt = h.faces.size();
    const double tol = hull_tolerance * extent_of(h.vertices);
    const auto vertex = [&](int v) -> const Vec3& {
        return h.vertices[static_cast<std::size_t>(v)];
    };

    // Each directed edge of a triangle, and the triangle it belongs to.
    detail::EdgeOwners owner;
    for (std::size_t t = 0; t < nt; ++t)
        for (int e = 0; e < 3; ++e)
            owner.add(h.faces[t][e], h.faces[t][(e + 1) % 3], static_cast<int>(t));
    owner.sort();
    if (owner.has_repeat()) throw std::logic_error("make_polyhedron: an edge is met twice");

    // Triangles across an edge are one face when each one's far vertex is on the other's plane.
    std::vector<int> parent(nt);
    std::iota(parent.begin(), parent.end(), 0);
    const auto on_plane = [&](std::size_t t, int v) {
        return std::abs(h.normals[t].dot(vertex(v)) - h.offsets[t]) <= tol;
    };
    for (const detail::EdgeOwners::Entry& edge : owner) {
        const int t = edge.owner, across = owner.at(edge.to(), edge.from());
        if (across < 0) throw std::logic_error("make_polyhedron: the hull is not closed");
        const auto ut = static_cast<std::size_t>(t), uu = static_cast<std::size_t>(across);
        if (ut >= uu) continue; // each edge once
        if (on_plane(ut, opposite(h.faces[uu], edge.from(), edge.to())) &&
            on_plane(uu, opposite(h.faces[ut], edge.from(), edge.to())))
            parent[static_cast<std::size_t>(find_root(parent, t))] = find_root(parent, across);
    }

    // Faces in the order of their first triangle.
    std::vector<int> face_of_root(nt, -1);
    std::vector<std::vector<int>> members;
    for (std::size_t t = 0; t < nt; ++t) {
        const auto r = static_cast<std::size_t>(find_root(parent, static_cast<int>(t)));
        if (face_of_root[r] < 0) {
            face_of_root[r] = static_cast<int>(members.size());
            members.emplace_back();
        }
        members[static_cast<std::size_t>(face_of_root[r])].push_back(static_cast<int>(t));
    }

    p.face_start.push_back(0);
    // Each face boundary edge (a, b) as (min, max) with the face on its side: index 0 where the
    // face runs a -> b with a < b. Sorted afterwards, so edges come out in (min, max) order.
    struct EdgeSide {
        std::pair<int, int> edge;
        int side, face;
    };
    std::vector<EdgeSide> edge_sides;
    detail::VertexChain next;
    for (std::size_t f = 0; f < members.size(); ++f) {
        const std::vector<int>& tris = members[f];
        // The boundary: directed edges whose reverse lies in another face, chained from the
        // smallest vertex (a convex polygon passes each of its vertices once).
        next.clear();
        std::size_t largest = static_cast<std::size_t>(tris.front());
        double largest_area = -1.0;
        for (int t : tris) {
            const auto& tri = h.faces[static_cast<std::size_t>(t)];
            for (int e = 0; e < 3; ++e) {
                const int a = tri[e], b = tri[(e + 1) % 3];
                const int across = owner.at(b, a);
                if (find_root(parent, across) != find_root(parent, t)) next.add(a, b);
            }
            const double area =
                (vertex(tri[1]) - vertex(tri[0])).cross(vertex(tri[2]) - vertex(tri[0])).norm();
            if (area > largest_area) {
                largest_area = area;
                largest = static_cast<std::size_t>(t);
            }
        }
        const auto not_a_polygon = [&] {
            return std::logic_error("make_polyhedron: face " + std::to_string(f) +
                                    " is not one convex polygon");
        };
        if (next.empty() || !next.sort()) throw not_a_polygon();
        const int first = next.first();
        int v = first;
        std::size_t walked = 0;
        do {
            p.face_vertices.push_back(v);
            const detail::VertexChain::Link* link = next.next(v);
            if (link == nullptr) throw not_a_polygon();
            const int w = link->to;
            edge_sides.push_back(
                {{std::min(v, w), std::max(v, w)}, v < w ? 0 : 1, static_cast<int>(f)});
            v = w;
            ++walked;
        } while (v != first && walked <= next.size());
        if (v != first || walked != next.size())
            throw std::logic_error("make_polyhedron: face " + std::to_string(f) +
                                   " is not one convex polygon");
        p.face_start.push_back(static_cast<int>(p.face_vertices.size()));
        const Vec3& n = h.normals[largest];
        double offset = -std::numeric_limits<double>::infinity();
        for (auto k = static_cast<std::size_t>(p.face_start[f]); k < p.face_vertices.size(); ++k)
            offset = std::max(offset, n.dot(vertex(p.face_vertices[k])));
        p.face_normals.push_back(n);
        p.face_offsets.push_back(offset);
    }

    std::sort(edge_sides.begin(), edge_sides.end(),
              [](const EdgeSide& a, const EdgeSide& b) { return a.edge < b.edge; });
    std::vector<std::vector<int>> adjacent(h.vertices.size());
    for (std::size_t k = 0; k < edge_sides.size(); ++k) {
        const auto& edge = edge_sides[k].edge;
        if (k == 0 || edge != edge_sides[k - 1].edge) {
            p.edges.push_back({edge.first, edge.second});
            p.edge_faces.push_back({0, 0});
            adjacent[static_cast<std::size_t>(edge.first)].push_back(edge.second);
            adjacent[static_cast<std::size_t>(edge.second)].push_back(edge.first);
        }
        p.edge_faces.back()[static_cast<std::size_t>(edge_sides[k].side)] = edge_sides[k].face;
    }
    p.neighbour_start.push_back(0);
    for (auto& list : adjacent) {
        std::sort(list.begin(), list.end());
        p.neighbours.insert(p.neighbours.end(), list.begin(), list.end());
        p.neighbour_start.push_back(static_cast<int>(p.neighbours.size()));
    }
    std::vector<std::vector<int>> around(h.vertices.size());
    for (std::size_t f = 0; f < p.face_count(); ++f)
        for (int k = p.face_start[f]; k < p.face_start[f + 1]; ++k)
            around[static_cast<std::size_t>(p.face_vertices[static_cast<std::size_t>(k)])]
                .push_back(static_cast<int>(f));
    p.vertex_face_start.push_back(0);
    for (const auto& list : around) { // ascending: faces were visited in order
        p.vertex_faces.insert(p.vertex_faces.end(), list.begin(), list.end());
        p.vertex_face_start.push_back(static_cast<int>(p.vertex_faces.size()));
    }
    return p;
}

Polyhedron polyhedron_from_faces(std::vector<Vec3> vertices,
                                 std::vector<std::array<int, 3>> triangles) {
    return make_polyhedron(hull_from_triangles(std::move(vertices), std::move(triangles)));
}

Polyhedron translated(const Polyhedron& p, const Vec3& b) {
    std::vector<Vec3> v = p.hull.vertices;
    for (Vec3& x : v)
        x += b;
    return polyhedron_from_faces(std::move(v), p.hull.faces);
}

Polyhedron shrunk(const Polyhedron& p, double margin) {
    const double inner = inradius_about_origin(p);
    if (!(margin > 0.0) || !(2.0 * margin < inner))
        throw std::invalid_argument("shrinking a polyhedron: the margin " + std::to_string(margin) +
                                    " m must be positive and below half the distance " +
                                    std::to_string(inner) +
                                    " m from its centre to its nearest face");
    std::vector<double> offsets = p.face_offsets;
    for (double& d : offsets)
        d -= margin;
    // The dual's faces (polygons: coplanar poles are one face) are the core's vertices.
    const Polyhedron dual = make_polyhedron(convex_hull(poles(p.face_normals, offsets)));
    std::vector<Vec3> core;
    for (std::size_t f = 0; f < dual.face_count(); ++f)
        core.push_back(dual.face_normals[f] / dual.face_offsets[f]);
    return make_polyhedron(convex_hull(distinct(core, hull_tolerance * extent_of(core))));
}

double circumradius(const Polyhedron& p) {
    double r = 0.0;
    for (const Vec3& v : p.hull.vertices)
        r = std::max(r, v.norm());
    return r;
}

double inradius_about_origin(const Polyhedron& p) {
    double r = std::numeric_limits<double>::infinity();
    for (double d : p.face_offsets)
        r = std::min(r, d);
    return r;
}

} // namespace rubble::shapes
