// SPDX-License-Identifier: MIT
#pragma once
// The distance between two convex shapes from their support functions: the GJK algorithm
// (Gilbert, Johnson & Keerthi 1988, IEEE J. Robotics Autom. 4, 193), host and device (C++17,
// no Eigen: point3.hpp), templated on the two support functors (support.hpp), so that a GPU
// narrow phase runs the same code as the CPU.
//
// GJK walks a simplex of points of the configuration-space obstacle C = A - B (Minkowski
// difference) towards the origin. Each step takes the point v of the simplex closest to the
// origin, asks both shapes for the support point w = s_A(-v) - s_B(v) of C along -v, and keeps
// the smallest face of simplex + w that holds the new closest point. Two certified bounds
// bracket the distance at every step: |v| (a point of C) from above, and v.w / |v| (the plane
// through w normal to v bounds C) from below. The search stops when they agree to
// gjk_tolerance (relative), so the distance returned is within that of the exact one, up to
// the round-off of v itself (Gilbert et al. 1988, sec. V; van den Bergen 1999, J. Graphics
// Tools 4(2), 7, for the stopping rule).
//
// The closest point of a segment, triangle or tetrahedron to the origin comes from its Voronoi
// regions (Ericson 2005, Real-Time Collision Detection, sec. 5.1.2 to 5.1.6), with the face
// case taken as the projection on the face's plane, whose round-off is relative to the
// distance itself rather than to the face's size. For polytopes the supports are vertices, so
// the walk ends in finitely many steps at the exact closest features; round-off only decides
// the last bits. A simplex that makes no progress (round-off near degenerate faces) ends the
// walk with the best simplex found; a tetrahedron holding the origin, or a simplex reaching
// it to round-off, means the shapes overlap (distance 0).
#include "rubble/polyhedra/point3.hpp"

namespace rubble::polyhedra {

/// Relative agreement of the upper and lower bounds on the distance at which GJK stops.
inline constexpr double gjk_tolerance = 1e-14;
/// Steps before GJK gives up (counted in GjkResult::converged): polytopes of 128 vertices take
/// under 20.
inline constexpr int gjk_max_iterations = 64;

/// What gjk_distance finds.
struct GjkResult {
    double distance = 0.0;    ///< m, between the shapes; 0 when they overlap or touch
    double lower_bound = 0.0; ///< m, certified: the exact distance is at least this
    Point3 on_a, on_b;        ///< the closest points of A and B (distance > 0)
    bool overlap = false;     ///< the shapes share a point (to round-off)
    bool converged = true;    ///< false: stopped at gjk_max_iterations
    int iterations = 0;
};

namespace detail {

// A point of C = A - B with the support points of A and B it came from and their ids.
struct GjkVertex {
    Point3 w, a, b;
    int ia = -1, ib = -1;
};

// Up to four points of C, with the weights (barycentric, summing to 1) of the point closest to
// the origin.
struct GjkSimplex {
    GjkVertex v[4];
    double weight[4] = {0, 0, 0, 0};
    int count = 0;
};

// The smallest face of a simplex holding its point closest to the origin: which vertices
// (indices into the simplex), their weights, and the point.
struct GjkFeature {
    int count = 0;
    int index[3] = {0, 0, 0};
    double weight[3] = {0, 0, 0};
    Point3 v;
};

RUBBLE_HD RUBBLE_INLINE GjkFeature gjk_vertex_feature(const GjkVertex* s, int i) {
    GjkFeature f;
    f.count = 1;
    f.index[0] = i;
    f.weight[0] = 1.0;
    f.v = s[i].w;
    return f;
}

// The closest point to the origin of the segment s[i] s[j].
RUBBLE_HD inline GjkFeature gjk_segment(const GjkVertex* s, int i, int j) {
    const Point3 a = s[i].w, ab = s[j].w - a;
    const double len2 = norm2(ab);
    const double t = len2 > 0.0 ? -dot(a, ab) / len2 : 0.0;
    if (t <= 0.0) return gjk_vertex_feature(s, i);
    if (t >= 1.0) return gjk_vertex_feature(s, j);
    GjkFeature f;
    f.count = 2;
    f.index[0] = i;
    f.index[1] = j;
    f.weight[0] = 1.0 - t;
    f.weight[1] = t;
    f.v = a + t * ab;
    return f;
}

// The closest point to the origin of the triangle s[i] s[j] s[k] (Ericson 2005,
// ClosestPtPointTriangle with p = 0).
RUBBLE_HD inline GjkFeature gjk_triangle(const GjkVertex* s, int i, int j, int k) {
    const Point3 a = s[i].w, b = s[j].w, c = s[k].w;
    const Point3 ab = b - a, ac = c - a;
    const double d1 = -dot(ab, a), d2 = -dot(ac, a);
    if (d1 <= 0.0 && d2 <= 0.0) return gjk_vertex_feature(s, i);
    const double d3 = -dot(ab, b), d4 = -dot(ac, b);
    if (d3 >= 0.0 && d4 <= d3) return gjk_vertex_feature(s, j);
    const double vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return gjk_segment(s, i, j);
    const double d5 = -dot(ab, c), d6 = -dot(ac, c);
    if (d6 >= 0.0 && d5 <= d6) return gjk_vertex_feature(s, k);
    const double vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return gjk_segment(s, i, k);
    const double va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0) return gjk_segment(s, j, k);
    // Inside the face: the projection of the origin on its plane, n (n.a) / |n|^2.
    const Point3 n = cross(ab, ac);
    const double nn = norm2(n);
    const double denom = va + vb + vc;
    if (!(nn > 0.0) || !(denom > 0.0)) return gjk_segment(s, i, j); // (degenerate: an edge)
    GjkFeature f;
    f.count = 3;
    f.index[0] = i;
    f.index[1] = j;
    f.index[2] = k;
    f.weight[0] = va / denom;
    f.weight[1] = vb / denom;
    f.weight[2] = vc / denom;
    f.v = (dot(n, a) / nn) * n;
    return f;
}

// Whether the origin and p lie on opposite sides of the plane through a, b, c (a degenerate
// face counts as separating, so that it is searched).
RUBBLE_HD RUBBLE_INLINE bool gjk_separates(const Point3& a, const Point3& b, const Point3& c,
                                           const Point3& p) {
    const Point3 n = cross(b - a, c - a);
    const double side_p = dot(p - a, n), side_o = -dot(a, n);
    return side_p == 0.0 || side_o * side_p < 0.0;
}

// The feature of the simplex s[0..count) (1 to 4 points) closest to the origin. Returns false
// when s is a tetrahedron holding the origin.
RUBBLE_HD inline bool gjk_closest(const GjkVertex* s, int count, GjkFeature& out) {
    if (count == 1) {
        out = gjk_vertex_feature(s, 0);
        return true;
    }
    if (count == 2) {
        out = gjk_segment(s, 0, 1);
        return true;
    }
    if (count == 3) {
        out = gjk_triangle(s, 0, 1, 2);
        return true;
    }
    // A tetrahedron: the closest point lies on a face that separates the origin from the
    // opposite vertex; none does when the origin is inside.
    static constexpr int faces[4][4] = {{0, 1, 2, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {1, 3, 2, 0}};
    bool outside = false;
    double best = 0.0;
    for (int f = 0; f < 4; ++f) {
        const int* q = faces[f];
        if (!gjk_separates(s[q[0]].w, s[q[1]].w, s[q[2]].w, s[q[3]].w)) continue;
        const GjkFeature t = gjk_triangle(s, q[0], q[1], q[2]);
        const double d = norm2(t.v);
        if (!outside || d < best) {
            outside = true;
            best = d;
            out = t;
        }
    }
    return outside;
}

// Keeps the feature's vertices of s, with their weights.
RUBBLE_HD RUBBLE_INLINE void gjk_keep(GjkSimplex& s, const GjkFeature& f) {
    GjkVertex kept[3];
    for (int k = 0; k < f.count; ++k)
        kept[k] = s.v[f.index[k]];
    for (int k = 0; k < f.count; ++k) {
        s.v[k] = kept[k];
        s.weight[k] = f.weight[k];
    }
    s.count = f.count;
}

RUBBLE_HD RUBBLE_INLINE bool gjk_holds(const GjkSimplex& s, const GjkVertex& x) {
    for (int k = 0; k < s.count; ++k)
        if (s.v[k].ia == x.ia && s.v[k].ib == x.ib) return true;
    return false;
}

template <class SupportA, class SupportB>
RUBBLE_HD GjkVertex gjk_support(const SupportA& sa, const SupportB& sb, const Point3& d) {
    GjkVertex x;
    x.a = sa(d, x.ia);
    x.b = sb(-d, x.ib);
    x.w = x.a - x.b;
    return x;
}

} // namespace detail

/// The distance between convex shapes A and B, given as support functors
/// `Point3 operator()(const Point3& d, int& id) const` (the farthest point along d, and an id
/// of it that is the same whenever the point is: a vertex index for polytopes). `towards_b` is
/// a first guess of the direction from A to B (the centres' difference); any non-zero vector
/// works, a good one saves steps.
template <class SupportA, class SupportB>
RUBBLE_HD GjkResult gjk_distance(const SupportA& sa, const SupportB& sb, Point3 towards_b) {
    GjkResult r;
    if (!(norm2(towards_b) > 0.0)) towards_b = Point3{1.0, 0.0, 0.0};
    detail::GjkSimplex s;
    s.v[0] = detail::gjk_support(sa, sb, towards_b);
    s.weight[0] = 1.0;
    s.count = 1;
    Point3 v = s.v[0].w;
    double vv = norm2(v);
    // The size of C seen so far: the origin is reached when |v| is round-off of it.
    double scale2 = vv;
    double lower2 = 0.0; // m^2, the lower bound squared
    for (r.iterations = 1;; ++r.iterations) {
        if (vv <= 1e-28 * scale2) {
            r.overlap = true;
            break;
        }
        if (r.iterations > gjk_max_iterations) {
            r.converged = false;
            break;
        }
        const detail::GjkVertex x = detail::gjk_support(sa, sb, -v);
        const double vw = dot(v, x.w);
        scale2 = scale2 > norm2(x.w) ? scale2 : norm2(x.w);
        // C lies beyond the plane v.y = v.w: the distance is at least v.w / |v| (kept squared).
        if (vw > 0.0 && vw * vw > lower2 * vv) lower2 = vw * vw / vv;
        if (vv - vw <= gjk_tolerance * vv) break; // the bounds agree
        if (detail::gjk_holds(s, x)) break;       // nothing new: the features are final
        // The new point goes in the free slot; the simplex changes only if it brings v closer.
        s.v[s.count] = x;
        detail::GjkFeature f;
        if (!detail::gjk_closest(s.v, s.count + 1, f)) {
            r.overlap = true; // the origin is inside the tetrahedron
            break;
        }
        const double nn = norm2(f.v);
        if (!(nn < vv)) break; // no progress (round-off): the simplex before is the best
        ++s.count;
        detail::gjk_keep(s, f);
        v = f.v;
        vv = nn;
    }
    if (r.overlap) {
        r.distance = 0.0;
        r.lower_bound = 0.0;
        return r;
    }
    r.distance = std::sqrt(vv);
    r.lower_bound = lower2 < vv ? std::sqrt(lower2) : r.distance;
    for (int k = 0; k < s.count; ++k) {
        r.on_a = r.on_a + s.weight[k] * s.v[k].a;
        r.on_b = r.on_b + s.weight[k] * s.v[k].b;
    }
    return r;
}

} // namespace rubble::polyhedra
