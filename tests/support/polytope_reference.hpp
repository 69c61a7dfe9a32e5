// SPDX-License-Identifier: MIT
#pragma once
// Exact references for the narrow phase of convex polytopes (tests of polyhedra/gjk.hpp and
// polyhedra/epa.hpp), in long double and by exhaustion over features, independent of GJK and
// EPA:
//   - overlapping or not: two convex polytopes share a point if and only if a vertex of one
//     lies inside the other or an edge of one passes through a face of the other (where their
//     surfaces cross, an edge crosses a face);
//   - the distance of disjoint ones: the closest pair of points lies on a vertex of one and a
//     face of the other, or on an edge of each, so it is the least of all vertex-triangle and
//     edge-edge distances (closed forms of Ericson 2005, Real-Time Collision Detection,
//     sec. 5.1.5 and 5.1.9). O(V F + E F + E^2) per pair: milliseconds at 128 vertices;
//   - the penetration depth of overlapping ones: by the separating-axis theorem (Ericson 2005,
//     sec. 5.2.1), the least overlap of the two projections over the face normals of both and
//     the cross products of an edge of each (less the pairs that cannot span a facet of
//     A - B). O(F V + E^2) per pair: milliseconds at 128 vertices.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <utility>
#include <vector>

#include "rubble/core/types.hpp"

namespace rubble::test {

using Vec3L = Eigen::Matrix<long double, 3, 1>;

/// A placed triangulated convex polytope, in long double.
struct ReferencePolytope {
    std::vector<Vec3L> vertices;
    std::vector<std::array<int, 3>> faces;
    std::vector<std::pair<int, int>> edges;
    /// For each edge, the third vertices of the triangles on either side (-1: not two).
    std::vector<std::array<int, 2>> wings;

    ReferencePolytope(const std::vector<Vec3>& world_vertices,
                      const std::vector<std::array<int, 3>>& triangles)
        : faces(triangles) {
        for (const Vec3& v : world_vertices)
            vertices.push_back(v.cast<long double>());
        std::map<std::pair<int, int>, std::vector<int>> seen;
        for (const auto& f : faces)
            for (std::size_t k = 0; k < 3; ++k)
                seen[std::minmax(f[k], f[(k + 1) % 3])].push_back(f[(k + 2) % 3]);
        for (const auto& [edge, third] : seen) {
            edges.push_back(edge);
            wings.push_back(third.size() == 2 ? std::array<int, 2>{third[0], third[1]}
                                              : std::array<int, 2>{-1, -1});
        }
    }
};

/// Squared distance from p to the triangle a b c (Ericson 2005, ClosestPtPointTriangle).
inline long double point_triangle_distance2(const Vec3L& p, const Vec3L& a, const Vec3L& b,
                                            const Vec3L& c) {
    const Vec3L ab = b - a, ac = c - a, ap = p - a;
    const long double d1 = ab.dot(ap), d2 = ac.dot(ap);
    if (d1 <= 0 && d2 <= 0) return ap.squaredNorm();
    const Vec3L bp = p - b;
    const long double d3 = ab.dot(bp), d4 = ac.dot(bp);
    if (d3 >= 0 && d4 <= d3) return bp.squaredNorm();
    const long double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) return (p - (a + d1 / (d1 - d3) * ab)).squaredNorm();
    const Vec3L cp = p - c;
    const long double d5 = ab.dot(cp), d6 = ac.dot(cp);
    if (d6 >= 0 && d5 <= d6) return cp.squaredNorm();
    const long double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return (p - (a + d2 / (d2 - d6) * ac)).squaredNorm();
    const long double va = d3 * d6 - d5 * d4;
    if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0)
        return (p - (b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b))).squaredNorm();
    const Vec3L n = ab.cross(ac);
    const long double h = n.dot(ap);
    return h * h / n.squaredNorm();
}

/// Squared distance between the segments p1 q1 and p2 q2 (Ericson 2005,
/// ClosestPtSegmentSegment).
inline long double segment_segment_distance2(const Vec3L& p1, const Vec3L& q1, const Vec3L& p2,
                                             const Vec3L& q2) {
    const Vec3L d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
    const long double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
    const long double c = d1.dot(r), b = d1.dot(d2);
    const long double denom = a * e - b * b;
    long double s = denom > 0 ? std::clamp((b * f - c * e) / denom, 0.0L, 1.0L) : 0.0L;
    long double t = (b * s + f) / e;
    if (t < 0) {
        t = 0;
        s = std::clamp(-c / a, 0.0L, 1.0L);
    } else if (t > 1) {
        t = 1;
        s = std::clamp((b - c) / a, 0.0L, 1.0L);
    }
    return ((p1 + s * d1) - (p2 + t * d2)).squaredNorm();
}

/// Whether x lies inside or on P (every face counter-clockwise seen from outside).
inline bool inside(const ReferencePolytope& P, const Vec3L& x) {
    for (const auto& f : P.faces) {
        const Vec3L& a = P.vertices[static_cast<std::size_t>(f[0])];
        const Vec3L n = (P.vertices[static_cast<std::size_t>(f[1])] - a)
                            .cross(P.vertices[static_cast<std::size_t>(f[2])] - a);
        if (n.dot(x - a) > 0) return false;
    }
    return true;
}

/// Whether the segment p q meets the triangle a b c: p and q on opposite sides of its plane
/// (or on it), and the line through them passing on the same side of its three edges (signed
/// volumes).
inline bool segment_meets_triangle(const Vec3L& p, const Vec3L& q, const Vec3L& a, const Vec3L& b,
                                   const Vec3L& c) {
    const auto volume = [](const Vec3L& o, const Vec3L& x, const Vec3L& y, const Vec3L& z) {
        return (x - o).dot((y - o).cross(z - o));
    };
    const long double sp = volume(p, a, b, c), sq = volume(q, a, b, c);
    if ((sp > 0 && sq > 0) || (sp < 0 && sq < 0)) return false;
    const long double e1 = volume(p, q, a, b), e2 = volume(p, q, b, c), e3 = volume(p, q, c, a);
    return (e1 >= 0 && e2 >= 0 && e3 >= 0) || (e1 <= 0 && e2 <= 0 && e3 <= 0);
}

/// Whether two convex polytopes share a point: a vertex of one inside the other, or an edge of
/// one through a face of the other (otherwise their surfaces do not meet and neither holds
/// the other).
inline bool polytopes_overlap(const ReferencePolytope& A, const ReferencePolytope& B) {
    const auto any_inside = [](const ReferencePolytope& P, const ReferencePolytope& Q) {
        return std::any_of(P.vertices.begin(), P.vertices.end(),
                           [&Q](const Vec3L& v) { return inside(Q, v); });
    };
    if (any_inside(A, B) || any_inside(B, A)) return true;
    const auto edge_through_face = [](const ReferencePolytope& P, const ReferencePolytope& Q) {
        for (const auto& [e0, e1] : P.edges)
            for (const auto& f : Q.faces)
                if (segment_meets_triangle(P.vertices[static_cast<std::size_t>(e0)],
                                           P.vertices[static_cast<std::size_t>(e1)],
                                           Q.vertices[static_cast<std::size_t>(f[0])],
                                           Q.vertices[static_cast<std::size_t>(f[1])],
                                           Q.vertices[static_cast<std::size_t>(f[2])]))
                    return true;
        return false;
    };
    return edge_through_face(A, B) || edge_through_face(B, A);
}

/// The distance between disjoint polytopes: the least vertex-triangle and edge-edge distance.
inline long double polytope_distance(const ReferencePolytope& A, const ReferencePolytope& B) {
    long double best = std::numeric_limits<long double>::infinity();
    const auto vertex_faces = [&best](const ReferencePolytope& P, const ReferencePolytope& Q) {
        for (const Vec3L& p : P.vertices)
            for (const auto& f : Q.faces)
                best = std::min(
                    best, point_triangle_distance2(p, Q.vertices[static_cast<std::size_t>(f[0])],
                                                   Q.vertices[static_cast<std::size_t>(f[1])],
                                                   Q.vertices[static_cast<std::size_t>(f[2])]));
    };
    vertex_faces(A, B);
    vertex_faces(B, A);
    for (const auto& [a0, a1] : A.edges)
        for (const auto& [b0, b1] : B.edges)
            best =
                std::min(best, segment_segment_distance2(A.vertices[static_cast<std::size_t>(a0)],
                                                         A.vertices[static_cast<std::size_t>(a1)],
                                                         B.vertices[static_cast<std::size_t>(b0)],
                                                         B.vertices[static_cast<std::size_t>(b1)]));
    return std::sqrt(best);
}

/// The overlap of the projections of A and B on the unit axis n: the shorter of the
/// translations of B along n or -n after which they only touch (negative: n separates them).
/// Both only grow as vertices are added, so the scan stops once both reach `cutoff`, and then
/// returns it.
inline long double projection_overlap(const ReferencePolytope& A, const ReferencePolytope& B,
                                      const Vec3L& n, long double cutoff) {
    long double a_min = std::numeric_limits<long double>::infinity(), a_max = -a_min;
    long double b_min = a_min, b_max = -a_min;
    const std::size_t count = std::max(A.vertices.size(), B.vertices.size());
    for (std::size_t k = 0; k < count; ++k) {
        if (k < A.vertices.size()) {
            const long double x = n.dot(A.vertices[k]);
            a_min = std::min(a_min, x);
            a_max = std::max(a_max, x);
        }
        if (k < B.vertices.size()) {
            const long double x = n.dot(B.vertices[k]);
            b_min = std::min(b_min, x);
            b_max = std::max(b_max, x);
        }
        if (a_max - b_min >= cutoff && b_max - a_min >= cutoff) return cutoff;
    }
    return std::min(a_max - b_min, b_max - a_min);
}

/// An edge p0 p1 of a polytope with what the edge-pair axes need: its direction d = p1 - p0
/// and, for the third vertex x of each triangle beside it, k = (x - p0) x d, so that for the
/// axis m = d x e with an edge e of the other shape, m . (x - p0) = e . k (triple product), and
/// for m = e x d it is -e . k.
struct ReferenceEdge {
    Vec3L d;
    std::array<Vec3L, 2> k;
    bool sided = false; // two triangles beside it
};

inline std::vector<ReferenceEdge> reference_edges(const ReferencePolytope& P) {
    std::vector<ReferenceEdge> out;
    for (std::size_t e = 0; e < P.edges.size(); ++e) {
        const Vec3L& p0 = P.vertices[static_cast<std::size_t>(P.edges[e].first)];
        ReferenceEdge r;
        r.d = P.vertices[static_cast<std::size_t>(P.edges[e].second)] - p0;
        r.sided = P.wings[e][0] >= 0;
        for (std::size_t s = 0; r.sided && s < 2; ++s)
            r.k[s] = (P.vertices[static_cast<std::size_t>(P.wings[e][s])] - p0).cross(r.d);
        out.push_back(r);
    }
    return out;
}

/// Along which signs of an axis m an edge supports its polytope (its points reach h_P), from
/// s0 and s1 = m . (x - p0) for the third vertices x of the triangles beside it: bit 1 for +m
/// when neither x lies beyond the edge along m, bit 2 for -m likewise. Local, and exact for
/// convex polytopes. Both bits when the sides are unknown.
inline int edge_supports(bool sided, long double s0, long double s1) {
    if (!sided) return 3;
    return (s0 <= 0 && s1 <= 0 ? 1 : 0) | (s0 >= 0 && s1 >= 0 ? 2 : 0);
}

/// The penetration depth of overlapping polytopes: the length of the shortest translation of B
/// after which they only touch, the distance from the origin to the boundary of C = A - B. That
/// is the least of h_C(n) = h_A(n) + h_B(-n) over unit n, reached at a facet normal of C; every
/// facet of C is a face of A, a face of B turned over, or spanned by an edge of A and an edge of
/// B (Ericson 2005, sec. 5.2.1), so the least projection overlap over those axes (either sign)
/// is exact. Axes beyond these only give upper bounds, since h_C(n) >= depth for every n: so
/// the triangulated faces and their coplanar diagonals (counted as edges) are harmless. For
/// disjoint polytopes it is negative (C is the intersection of its facets' half-spaces, so one
/// of them leaves the origin out): its sign says whether they overlap.
///
/// An edge pair spans a facet of C with normal n only when the edge of A supports A along n and
/// the edge of B supports B along -n (the facet is the sum of A's and -B's features along n);
/// pairs that do not, for either sign, only give upper bounds and are skipped, so that the
/// O(E^2) pairs need no O(V) scan each. Parallel edges span no facet and are skipped too (their
/// cross product has no direction); random hulls have none nearly parallel.
inline long double polytope_penetration_depth(const ReferencePolytope& A,
                                              const ReferencePolytope& B) {
    long double best = std::numeric_limits<long double>::infinity();
    const auto axis = [&](const Vec3L& m) {
        const long double len = m.norm();
        if (len > 0) best = std::min(best, projection_overlap(A, B, m / len, best));
    };
    for (const ReferencePolytope* P : {&A, &B})
        for (const auto& f : P->faces) {
            const Vec3L& a = P->vertices[static_cast<std::size_t>(f[0])];
            axis((P->vertices[static_cast<std::size_t>(f[1])] - a)
                     .cross(P->vertices[static_cast<std::size_t>(f[2])] - a));
        }
    const std::vector<ReferenceEdge> ea = reference_edges(A), eb = reference_edges(B);
    for (const ReferenceEdge& a : ea)
        for (const ReferenceEdge& b : eb) {
            // The axis m = a.d x b.d.
            const int on_a = edge_supports(a.sided, b.d.dot(a.k[0]), b.d.dot(a.k[1]));
            if (on_a == 0) continue;
            const int on_b = edge_supports(b.sided, -a.d.dot(b.k[0]), -a.d.dot(b.k[1]));
            if (!((on_a & 1) && (on_b & 2)) && !((on_a & 2) && (on_b & 1))) continue;
            const Vec3L m = a.d.cross(b.d);
            if (m.squaredNorm() > 1e-24L * a.d.squaredNorm() * b.d.squaredNorm()) axis(m);
        }
    return best;
}

} // namespace rubble::test
