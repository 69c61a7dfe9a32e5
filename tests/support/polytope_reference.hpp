// SPDX-License-Identifier: MIT
#pragma once
// Exact references for the narrow phase of convex polytopes (tests of polyhedra/gjk.hpp), in
// long double and by exhaustion over features, independent of GJK:
//   - overlapping or not: two convex polytopes share a point if and only if a vertex of one
//     lies inside the other or an edge of one passes through a face of the other (where their
//     surfaces cross, an edge crosses a face);
//   - the distance of disjoint ones: the closest pair of points lies on a vertex of one and a
//     face of the other, or on an edge of each, so it is the least of all vertex-triangle and
//     edge-edge distances (closed forms of Ericson 2005, Real-Time Collision Detection,
//     sec. 5.1.5 and 5.1.9).
// O(V F + E F + E^2) per pair: milliseconds at 128 vertices.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <set>
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

    ReferencePolytope(const std::vector<Vec3>& world_vertices,
                      const std::vector<std::array<int, 3>>& triangles)
        : faces(triangles) {
        for (const Vec3& v : world_vertices)
            vertices.push_back(v.cast<long double>());
        std::set<std::pair<int, int>> seen;
        for (const auto& f : faces)
            for (int k = 0; k < 3; ++k)
                seen.insert(std::minmax(f[static_cast<std::size_t>(k)],
                                        f[static_cast<std::size_t>((k + 1) % 3)]));
        edges.assign(seen.begin(), seen.end());
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

} // namespace rubble::test
