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
// distance itself rather than to the face's size. Of a tetrahedron only the three faces
// through the new point are searched: a closer point than the old triangle's lies on one of
// them (as in openGJK's signed-volume sub-algorithm, Montanari, Petrinic & Barbieri 2017, ACM
// TOG 36(3), 30, which starts every test from the newest point). For polytopes the supports are
// vertices, so the walk ends in finitely many steps at the exact closest features; round-off only
// decides the last bits. A simplex that makes no progress (round-off near degenerate faces) ends
// the walk with the best simplex found; a tetrahedron holding the origin, or a simplex reaching it
// to round-off, means the shapes overlap (distance 0).
#include <type_traits>
#include <utility>

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
    /// Stopped early because lower_bound exceeded the caller's `beyond`: the shapes are
    /// certainly farther apart than that; distance and the points are then only an upper bound
    /// and the points of the last simplex.
    bool beyond = false;
    int iterations = 0;
};

namespace detail {

// A point of C = A - B with the support points of A and B it came from and their ids.
struct GjkVertex {
    Point3 w, a, b;
    int ia = -1, ib = -1;
};

// Up to four points of C, each in a fixed slot: a new point takes a free slot and a shrinking
// simplex only forgets slots, so no point is copied (as in van den Bergen 1999). `slot`
// lists the kept ones, newest last, with the weights (barycentric, summing to 1) of the point
// closest to the origin.
struct GjkSimplex {
    GjkVertex v[4];
    int slot[4] = {0, 0, 0, 0};
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

RUBBLE_HD RUBBLE_INLINE GjkFeature gjk_vertex_feature(const Point3* s, int i) {
    GjkFeature f;
    f.count = 1;
    f.index[0] = i;
    f.weight[0] = 1.0;
    f.v = s[i];
    return f;
}

// The closest point to the origin of the segment s[i] s[j].
RUBBLE_HD RUBBLE_INLINE GjkFeature gjk_segment(const Point3* s, int i, int j) {
    const Point3 a = s[i], ab = s[j] - a;
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
RUBBLE_HD inline GjkFeature gjk_triangle(const Point3* s, int i, int j, int k) {
    const Point3 a = s[i], b = s[j], c = s[k];
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

// The closest feature of the tetrahedron s[0..3] to the origin when the triangle s[0..2] was
// the last simplex and s[3] the new support point. GJK's step makes the new closest point
// closer than the triangle's, so it lies on a face through s[3]: one that separates the origin
// from the opposite vertex (a degenerate tetrahedron counts as separating, so that its faces
// are searched). The three faces share the tetrahedron's volume as the opposite vertex's side.
// Returns 0 when the origin is inside (overlap), 1 with `out` set, and 2 when only the old
// triangle separates: no progress (round-off), the old simplex stays.
RUBBLE_HD inline int gjk_tetrahedron(const Point3* s, GjkFeature& out) {
    const Point3 d = s[3];
    const Point3 da = s[0] - d, db = s[1] - d, dc = s[2] - d;
    const Point3 n_ab = cross(da, db), n_bc = cross(db, dc), n_ca = cross(dc, da);
    const double volume = dot(dc, n_ab); // the opposite vertex's side, the same for each face
    const double side[3] = {-dot(d, n_ab), -dot(d, n_bc), -dot(d, n_ca)};
    static constexpr int faces[3][3] = {{0, 1, 3}, {1, 2, 3}, {2, 0, 3}};
    bool outside = false;
    double best = 0.0;
    for (int f = 0; f < 3; ++f) {
        if (!(volume == 0.0 || side[f] * volume < 0.0)) continue;
        const GjkFeature t = gjk_triangle(s, faces[f][0], faces[f][1], faces[f][2]);
        const double dist2 = norm2(t.v);
        if (!outside || dist2 < best) {
            outside = true;
            best = dist2;
            out = t;
        }
    }
    if (outside) return 1;
    // The old face: its side of the origin against s[3]'s.
    const Point3 n = cross(s[1] - s[0], s[2] - s[0]);
    const double side_d = dot(d - s[0], n), side_o = -dot(s[0], n);
    return side_d == 0.0 || side_o * side_d < 0.0 ? 2 : 0;
}

// The feature of the simplex s[0..count) (2 to 4 points, s[count - 1] the new one) closest to
// the origin. Returns 0 when s is a tetrahedron holding the origin, 2 when no feature through
// the new point is closer than the old simplex, 1 otherwise.
RUBBLE_HD RUBBLE_INLINE int gjk_closest(const Point3* s, int count, GjkFeature& out) {
    if (count == 2) {
        out = gjk_segment(s, 0, 1);
        return 1;
    }
    if (count == 3) {
        out = gjk_triangle(s, 0, 1, 2);
        return 1;
    }
    return gjk_tetrahedron(s, out);
}

// Whether a support functor names its points by id (`Point3 vertex(int id) const`).
template <class S, class = void> struct gjk_has_vertex : std::false_type {};
template <class S>
struct gjk_has_vertex<S, std::void_t<decltype(std::declval<const S&>().vertex(0))>>
    : std::true_type {};

// Whether x is a point of the simplex s (1 to 3 points), by ids. Bitwise operators, so that the
// compiler makes no branches of the compares.
RUBBLE_HD RUBBLE_INLINE bool gjk_holds(const GjkSimplex& s, const GjkVertex& x) {
    bool holds = false;
    for (int k = 0; k < 3; ++k) {
        const GjkVertex& y = s.v[s.slot[k]];
        holds |= (k < s.count) & (y.ia == x.ia) & (y.ib == x.ib);
    }
    return holds;
}

// A slot that the simplex s (1 to 3 points) does not use: the lowest clear bit of the used
// ones' mask, found with bit arithmetic rather than a loop of branches.
RUBBLE_HD RUBBLE_INLINE int gjk_free_slot(const GjkSimplex& s) {
    const int used =
        (1 << s.slot[0]) | (s.count > 1 ? 1 << s.slot[1] : 0) | (s.count > 2 ? 1 << s.slot[2] : 0);
    const int lowest_clear = ~used & (used + 1); // 1, 2, 4 or 8
    return (lowest_clear >> 1) - (lowest_clear >> 3);
}

template <class SupportA, class SupportB>
RUBBLE_HD RUBBLE_INLINE void gjk_support(const SupportA& sa, const SupportB& sb, const Point3& d,
                                         GjkVertex& x) {
    x.a = sa(d, x.ia);
    x.b = sb(-d, x.ib);
    x.w = x.a - x.b;
}

} // namespace detail

/// The distance between convex shapes A and B, given as support functors
/// `Point3 operator()(const Point3& d, int& id) const` (the farthest point along d, and an id
/// of it that is the same whenever the point is: a vertex index for polytopes). `towards_b` is
/// a first guess of the direction from A to B (the centres' difference); any non-zero vector
/// works, a good one saves steps. Functors that also have `Point3 vertex(int id) const` (the
/// point with that id; PolytopeSupport, WorldPolytopeSupport) give the walk the difference of
/// their vertices 0 as a second starting point for free. With `beyond` >= 0 the walk stops as
/// soon as the certified lower bound exceeds it (GjkResult::beyond): a contact search that only
/// needs the pairs within some distance saves the steps that would refine the distance of the
/// others, and the answer does not depend on anything but the two shapes and `beyond`.
template <class SupportA, class SupportB>
RUBBLE_HD GjkResult gjk_distance(const SupportA& sa, const SupportB& sb, Point3 towards_b,
                                 double beyond = -1.0) {
    GjkResult r;
    if (!(norm2(towards_b) > 0.0)) towards_b = Point3{1.0, 0.0, 0.0};
    detail::GjkSimplex s;
    detail::gjk_support(sa, sb, towards_b, s.v[0]);
    s.slot[0] = 0;
    s.weight[0] = 1.0;
    s.count = 1;
    Point3 v = s.v[0].w;
    double vv = norm2(v);
    if constexpr (detail::gjk_has_vertex<SupportA>::value &&
                  detail::gjk_has_vertex<SupportB>::value) {
        // A second point of C for free: the first vertices' difference (openGJK starts there,
        // Montanari et al. 2017). The first step then starts from a segment, which saves about
        // half a step on average.
        detail::GjkVertex& x = s.v[1];
        x.ia = 0;
        x.ib = 0;
        x.a = sa.vertex(0);
        x.b = sb.vertex(0);
        x.w = x.a - x.b;
        if (!detail::gjk_holds(s, x)) {
            const Point3 p[2] = {s.v[0].w, x.w};
            const detail::GjkFeature f = detail::gjk_segment(p, 0, 1);
            s.count = f.count;
            s.slot[0] = f.index[0];
            s.slot[1] = f.index[1];
            s.weight[0] = f.weight[0];
            s.weight[1] = f.weight[1];
            v = f.v;
            vv = norm2(v);
        }
    }
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
        // The new point goes in a free slot; the simplex changes only if it brings v closer.
        const int free = detail::gjk_free_slot(s);
        detail::GjkVertex& x = s.v[free];
        detail::gjk_support(sa, sb, -v, x);
        const double vw = dot(v, x.w);
        scale2 = scale2 > norm2(x.w) ? scale2 : norm2(x.w);
        // C lies beyond the plane v.y = v.w: the distance is at least v.w / |v| (kept squared).
        // (A select, not a branch: the division is off the critical path, a mispredict is not.)
        const double bound2 = vw > 0.0 ? vw * vw / vv : 0.0;
        lower2 = bound2 > lower2 ? bound2 : lower2;
        if (vv - vw <= gjk_tolerance * vv) break; // the bounds agree
        if (beyond >= 0.0 && lower2 > beyond * beyond) {
            r.beyond = true;
            break;
        }
        if (detail::gjk_holds(s, x)) break; // nothing new: the features are final
        Point3 p[4];
        for (int k = 0; k < 3; ++k)
            p[k] = s.v[s.slot[k]].w; // (beyond count: stale slots, overwritten or unused)
        p[s.count] = x.w;
        detail::GjkFeature f;
        const int found = detail::gjk_closest(p, s.count + 1, f);
        if (found == 0) {
            r.overlap = true; // the origin is inside the tetrahedron
            break;
        }
        const double nn = norm2(f.v);
        if (found == 2 || !(nn < vv)) break; // no progress (round-off): the simplex before is best
        // All three entries, used or not: a copy of a variable count becomes a call to memcpy.
        int slot[3];
        for (int k = 0; k < 3; ++k)
            slot[k] = f.index[k] < s.count ? s.slot[f.index[k]] : free;
        for (int k = 0; k < 3; ++k) {
            s.slot[k] = slot[k];
            s.weight[k] = f.weight[k];
        }
        s.count = f.count;
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
        r.on_a = r.on_a + s.weight[k] * s.v[s.slot[k]].a;
        r.on_b = r.on_b + s.weight[k] * s.v[s.slot[k]].b;
    }
    return r;
}

} // namespace rubble::polyhedra
