// SPDX-License-Identifier: MIT
#include "rubble/core/convex_hull.hpp"

#include "edge_owners.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

namespace rubble::shapes {
namespace {

// A triangle of the hull being built and the triangles across its edges: across[e] shares
// the edge v[e] -> v[e + 1] (which it runs the other way), kept up to date at each insertion
// so that finding the faces a point sees walks neighbours instead of searching edges.
struct Face {
    std::array<int, 3> v;
    Vec3 normal;
    double offset;
    std::array<int, 3> across{-1, -1, -1};
};

Face make_face(const std::vector<Vec3>& p, int a, int b, int c) {
    const auto [n, offset] = triangle_plane(p[a], p[b], p[c]);
    return Face{{a, b, c}, n, offset};
}

// The slot e of f's edge from vertex a to vertex b.
int edge_slot(const Face& f, int a, int b) {
    for (int e = 0; e < 3; ++e)
        if (f.v[e] == a && f.v[(e + 1) % 3] == b) return e;
    throw std::logic_error("convex hull: a neighbour does not share its edge");
}

std::string point_text(std::size_t i, const Vec3& x) {
    return "point " + std::to_string(i) + " (" + std::to_string(x.x()) + ", " +
           std::to_string(x.y()) + ", " + std::to_string(x.z()) + ")";
}

// Index of the point farthest from the origin of `distance` (largest value; the first of
// equals). The values may be negative (-x, for the point of least x).
template <class F> std::pair<int, double> farthest(const std::vector<Vec3>& p, F distance) {
    int best = -1;
    double d_best = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < p.size(); ++i) {
        const double d = distance(p[i]);
        if (d > d_best) {
            d_best = d;
            best = static_cast<int>(i);
        }
    }
    return {best, d_best};
}

void check_points(const std::vector<Vec3>& p, double tol) {
    for (std::size_t i = 0; i < p.size(); ++i)
        if (!p[i].allFinite())
            throw std::invalid_argument("convex hull: " + point_text(i, p[i]) + " is not finite");
    // Sorted by x, a coinciding pair lies within tol in x: O(n log n) plus near pairs.
    std::vector<std::size_t> order(p.size());
    for (std::size_t i = 0; i < p.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return p[a].x() < p[b].x(); });
    for (std::size_t a = 0; a < order.size(); ++a)
        for (std::size_t b = a + 1; b < order.size(); ++b) {
            const std::size_t i = order[a], j = order[b];
            if (p[j].x() - p[i].x() > tol) break;
            if ((p[j] - p[i]).norm() <= tol)
                throw std::invalid_argument("convex hull: " + point_text(std::min(i, j), p[i]) +
                                            " and point " + std::to_string(std::max(i, j)) +
                                            " coincide");
        }
}

// The first tetrahedron: extreme points, so that it is as far from degenerate as the input.
std::array<int, 4> initial_simplex(const std::vector<Vec3>& p, double tol) {
    const int a = farthest(p, [](const Vec3& x) { return -x.x(); }).first;
    const auto [b, dab] = farthest(p, [&](const Vec3& x) { return (x - p[a]).norm(); });
    if (dab <= tol) throw std::invalid_argument("convex hull: all points coincide");
    const Vec3 u = (p[b] - p[a]).normalized();
    const auto [c, dc] = farthest(p, [&](const Vec3& x) { return (x - p[a]).cross(u).norm(); });
    if (dc <= tol) throw std::invalid_argument("convex hull: all points are collinear");
    const Vec3 n = (p[b] - p[a]).cross(p[c] - p[a]).normalized();
    const auto [d, dd] = farthest(p, [&](const Vec3& x) { return std::abs(n.dot(x - p[a])); });
    if (dd <= tol)
        throw std::invalid_argument(
            "convex hull: all points are coplanar (the hull has no volume)");
    return {a, b, c, d};
}

using Edge = std::pair<int, int>;

// Reused by every insertion of one hull, so that adding a point allocates nothing once the
// buffers have grown.
struct HullWork {
    detail::VertexChain boundary;
    std::vector<double> height;
    std::vector<std::size_t> stack;
    std::vector<std::uint8_t> visible;
    std::vector<detail::VertexChain::Link> horizon; // tag: the face across, not visible
    std::vector<int> renumbered;
    std::vector<Face> kept;
};

// The boundary of the faces marked in `in`: their edges across which a face is not marked
// (oriented as the marked faces have them, tagged with the face across), into `loop`. Empty
// when it is not one simple loop (a vertex met twice, or more than one loop).
void simple_boundary(const std::vector<Face>& faces, const std::vector<std::uint8_t>& in,
                     detail::VertexChain& next, std::vector<detail::VertexChain::Link>& loop) {
    loop.clear();
    next.clear();
    for (std::size_t f = 0; f < faces.size(); ++f) {
        if (!in[f]) continue;
        for (int e = 0; e < 3; ++e) {
            const int g = faces[f].across[e];
            if (!in[static_cast<std::size_t>(g)])
                next.add(faces[f].v[e], faces[f].v[(e + 1) % 3], g);
        }
    }
    if (next.empty() || !next.sort()) return; // none, or a vertex twice: pinched
    const int start = next.first();
    int u = start;
    do {
        const detail::VertexChain::Link* link = next.next(u);
        if (link == nullptr) {
            loop.clear();
            return;
        }
        loop.push_back(*link);
        u = link->to;
    } while (u != start && loop.size() <= next.size());
    if (loop.size() != next.size()) loop.clear(); // more than one loop
}

// The faces that a new point x replaces (work.visible) and the horizon its new faces join
// (work.horizon), one simple loop: false when no face sees x beyond tol. With exact arithmetic
// the faces that see a point outside a convex polytope form a disc; with a tolerance, faces
// seen by less than tol can be missing from it (a hole, or a second patch, which would give a
// surface that is not closed). So the region is grown from the face that sees x farthest over
// edges to faces that see it beyond tol, and, while its boundary is not one loop, also to
// neighbouring faces that x lies within tol of (their planes through x are the same to
// round-off). A point for which no loop is found after that lies within round-off of the
// hull's surface and is left out.
bool visible_region(const std::vector<Face>& faces, const Vec3& x, double tol, HullWork& work) {
    const std::size_t nf = faces.size();
    std::vector<double>& height = work.height;
    height.resize(nf);
    std::size_t top = nf;
    double highest = tol;
    for (std::size_t f = 0; f < nf; ++f) {
        height[f] = faces[f].normal.dot(x) - faces[f].offset;
        if (height[f] > highest) {
            highest = height[f];
            top = f;
        }
    }
    if (top == nf) return false;
    std::vector<std::uint8_t>& visible = work.visible;
    visible.assign(nf, 0);
    const auto grow = [&](double threshold) {
        std::vector<std::size_t>& stack = work.stack;
        stack.clear();
        for (std::size_t f = 0; f < nf; ++f)
            if (visible[f]) stack.push_back(f);
        while (!stack.empty()) {
            const std::size_t f = stack.back();
            stack.pop_back();
            for (int e = 0; e < 3; ++e) {
                const auto g = static_cast<std::size_t>(faces[f].across[e]);
                if (!visible[g] && height[g] > threshold) {
                    visible[g] = 1;
                    stack.push_back(g);
                }
            }
        }
    };
    visible[top] = 1;
    grow(tol);
    simple_boundary(faces, visible, work.boundary, work.horizon);
    if (work.horizon.empty()) { // the flood is complete: one retry with the wider threshold
        grow(-tol);
        simple_boundary(faces, visible, work.boundary, work.horizon);
    }
    return !work.horizon.empty();
}

// Replaces the visible faces by a fan of new faces from point k to the horizon, keeping the
// order of the faces that stay and every face's neighbours.
void insert_point(const std::vector<Vec3>& p, int k, std::vector<Face>& faces, HullWork& work) {
    std::vector<int>& renumbered = work.renumbered;
    std::vector<Face>& kept = work.kept;
    renumbered.assign(faces.size(), -1);
    kept.clear();
    for (std::size_t f = 0; f < faces.size(); ++f)
        if (!work.visible[f]) {
            renumbered[f] = static_cast<int>(kept.size());
            kept.push_back(faces[f]);
        }
    for (Face& f : kept)
        for (int& g : f.across)
            g = renumbered[static_cast<std::size_t>(g)]; // -1 across the horizon
    const auto first = static_cast<int>(kept.size());
    const auto loop = static_cast<int>(work.horizon.size());
    for (int j = 0; j < loop; ++j) {
        const detail::VertexChain::Link& e = work.horizon[static_cast<std::size_t>(j)];
        Face face = make_face(p, e.from, e.to, k);
        const int outer = renumbered[static_cast<std::size_t>(e.tag)];
        // Edge from -> to faces the old face; to -> k the next face of the fan (the horizon
        // is a chain: it starts at `to`), k -> from the previous one.
        face.across = {outer, first + (j + 1) % loop, first + (j + loop - 1) % loop};
        Face& o = kept[static_cast<std::size_t>(outer)];
        o.across[static_cast<std::size_t>(edge_slot(o, e.to, e.from))] = first + j;
        kept.push_back(face);
    }
    faces.swap(kept);
}

} // namespace

std::pair<Vec3, double> triangle_plane(const Vec3& a, const Vec3& b, const Vec3& c) {
    const Vec3 n = (b - a).cross(c - a).normalized();
    return {n, n.dot(a)};
}

ConvexHull hull_from_triangles(std::vector<Vec3> vertices,
                               std::vector<std::array<int, 3>> triangles) {
    const auto fail = [](const std::string& what) {
        throw std::invalid_argument("convex polyhedron: " + what);
    };
    const std::size_t n = vertices.size();
    if (n < 4 || triangles.size() < 4)
        fail("needs at least 4 vertices and 4 triangles, got " + std::to_string(n) + " and " +
             std::to_string(triangles.size()));
    Vec3 lo = vertices.front(), hi = vertices.front();
    for (std::size_t i = 0; i < n; ++i) {
        if (!vertices[i].allFinite()) fail(point_text(i, vertices[i]) + " is not finite");
        lo = lo.cwiseMin(vertices[i]);
        hi = hi.cwiseMax(vertices[i]);
    }
    const double tol = hull_tolerance * (hi - lo).norm();
    ConvexHull h;
    std::map<std::pair<int, int>, int> directed; // edge -> times met
    std::vector<std::uint8_t> used(n, 0);
    for (std::size_t t = 0; t < triangles.size(); ++t) {
        const auto& f = triangles[t];
        for (int e = 0; e < 3; ++e) {
            if (f[e] < 0 || static_cast<std::size_t>(f[e]) >= n)
                fail("triangle " + std::to_string(t) + " has vertex index " + std::to_string(f[e]) +
                     ", not in 0.." + std::to_string(n - 1));
            used[static_cast<std::size_t>(f[e])] = 1;
            ++directed[{f[e], f[(e + 1) % 3]}];
        }
        const auto [normal, offset] = triangle_plane(vertices[static_cast<std::size_t>(f[0])],
                                                     vertices[static_cast<std::size_t>(f[1])],
                                                     vertices[static_cast<std::size_t>(f[2])]);
        if (!normal.allFinite()) fail("triangle " + std::to_string(t) + " has no area");
        h.normals.push_back(normal);
        h.offsets.push_back(offset);
    }
    for (const auto& [edge, count] : directed)
        if (count != 1 || !directed.contains({edge.second, edge.first}))
            fail("the surface is not closed at the edge from vertex " + std::to_string(edge.first) +
                 " to " + std::to_string(edge.second));
    for (std::size_t i = 0; i < n; ++i)
        if (!used[i]) fail("vertex " + std::to_string(i) + " is on no triangle");
    for (std::size_t t = 0; t < triangles.size(); ++t)
        for (std::size_t i = 0; i < n; ++i)
            if (h.normals[t].dot(vertices[i]) - h.offsets[t] > tol)
                fail(point_text(i, vertices[i]) + " is outside the plane of triangle " +
                     std::to_string(t) + " (not convex, or a triangle turned inwards)");
    h.vertices = std::move(vertices);
    h.faces = std::move(triangles);
    return h;
}

ConvexHull convex_hull(const std::vector<Vec3>& p) {
    if (p.size() < 4)
        throw std::invalid_argument("convex hull: needs at least 4 points, got " +
                                    std::to_string(p.size()));
    Vec3 lo = p.front(), hi = p.front();
    for (const Vec3& x : p) {
        lo = lo.cwiseMin(x);
        hi = hi.cwiseMax(x);
    }
    const double extent = (hi - lo).norm();
    const double tol = hull_tolerance * (std::isfinite(extent) ? extent : 0.0);
    check_points(p, tol);
    const auto [a, b, c, d] = initial_simplex(p, tol);
    std::vector<Face> faces;
    const Vec3 inside = 0.25 * (p[a] + p[b] + p[c] + p[d]);
    for (const auto& f :
         {std::array{a, b, c}, std::array{a, b, d}, std::array{a, c, d}, std::array{b, c, d}}) {
        Face face = make_face(p, f[0], f[1], f[2]);
        if (face.normal.dot(inside) > face.offset) face = make_face(p, f[0], f[2], f[1]);
        faces.push_back(face);
    }
    for (Face& f : faces) // each edge of the tetrahedron has its reverse in one other face
        for (int e = 0; e < 3; ++e)
            for (std::size_t g = 0; g < faces.size(); ++g)
                for (int r = 0; r < 3; ++r)
                    if (faces[g].v[r] == f.v[(e + 1) % 3] && faces[g].v[(r + 1) % 3] == f.v[e])
                        f.across[e] = static_cast<int>(g);
    HullWork work;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const int k = static_cast<int>(i);
        if (k == a || k == b || k == c || k == d) continue;
        if (visible_region(faces, p[i], tol, work)) insert_point(p, k, faces, work);
    }
    // Points inserted before the corners that later enclose them stay on the faces (the
    // horizon step removes only faces that see a point beyond tol). A vertex is a corner when
    // its triangles lie on at least three planes; without the others the hull is built again,
    // now of corners only, so that faces are convex polygons without straight angles.
    std::vector<std::vector<std::size_t>> around(p.size());
    for (std::size_t f = 0; f < faces.size(); ++f)
        for (int k : faces[f].v)
            around[static_cast<std::size_t>(k)].push_back(f);
    std::vector<Vec3> corners;
    for (std::size_t i = 0; i < p.size(); ++i) {
        std::vector<std::size_t> planes; // one triangle per distinct plane
        for (std::size_t f : around[i]) {
            const auto same_plane = [&](std::size_t g) {
                return std::all_of(faces[f].v.begin(), faces[f].v.end(), [&](int k) {
                    return std::abs(faces[g].normal.dot(p[static_cast<std::size_t>(k)]) -
                                    faces[g].offset) <= tol;
                });
            };
            if (std::none_of(planes.begin(), planes.end(), same_plane)) planes.push_back(f);
        }
        if (planes.size() >= 3) corners.push_back(p[i]);
    }
    std::size_t on_hull = 0;
    for (const auto& list : around)
        on_hull += list.empty() ? 0 : 1;
    if (corners.size() < on_hull) return convex_hull(corners);

    ConvexHull h;
    std::vector<int> index(p.size(), -1);
    for (const Face& f : faces) {
        std::array<int, 3> v{};
        for (int e = 0; e < 3; ++e) {
            int& j = index[static_cast<std::size_t>(f.v[e])];
            if (j < 0) {
                j = static_cast<int>(h.vertices.size());
                h.vertices.push_back(p[static_cast<std::size_t>(f.v[e])]);
            }
            v[e] = j;
        }
        h.faces.push_back(v);
        h.normals.push_back(f.normal);
        h.offsets.push_back(f.offset);
    }
    return h;
}

double plane_distance(const ConvexHull& hull, const Vec3& x) {
    double d = -std::numeric_limits<double>::infinity();
    for (std::size_t f = 0; f < hull.faces.size(); ++f)
        d = std::max(d, hull.normals[f].dot(x) - hull.offsets[f]);
    return d;
}

ConvexHull scaled(const ConvexHull& hull, double a, const Vec3& b) {
    ConvexHull h = hull;
    for (Vec3& v : h.vertices)
        v = a * v + b;
    for (std::size_t f = 0; f < h.faces.size(); ++f)
        h.offsets[f] = a * hull.offsets[f] + hull.normals[f].dot(b);
    return h;
}

} // namespace rubble::shapes
