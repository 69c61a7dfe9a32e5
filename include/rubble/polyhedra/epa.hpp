// SPDX-License-Identifier: MIT
#pragma once
// The penetration depth of two overlapping convex shapes from their support functions: the
// Expanding Polytope Algorithm (EPA; van den Bergen 2001, "Proximity queries and penetration
// depth computation on 3D game objects", Game Developers Conference; van den Bergen 2003,
// Collision Detection in Interactive 3D Environments, Morgan Kaufmann), host and device (C++17,
// no Eigen: point3.hpp; no heap: fixed capacity), templated on the two support functors like
// gjk_distance (gjk.hpp), so that a GPU narrow phase runs the same code as the CPU.
//
// The shapes overlap when the origin lies in C = A - B (Minkowski difference), and the
// penetration depth is the distance from the origin to the boundary of C: the length of the
// shortest translation of B after which the shapes only touch. It is the least of
// h_C(n) = h_A(n) + h_B(-n) over unit n (h: support distance, max n . x over the shape).
//
// EPA keeps a convex polytope P whose vertices are support points of C, so P lies in C, and
// which holds the origin. Each face f, with outward unit normal n_f and plane n_f . x = d_f,
// gives two bounds: depth >= min_f d_f (P lies in C, so C's boundary is no closer than P's),
// and depth <= h_C(n_f) (true of every unit n: the plane n . x = h_C(n) supports C and the
// origin lies behind it). Each step takes the closest face, asks for the support point w of C
// along its normal (h_C(n_f) = n_f . w), stops when the bounds agree to epa_tolerance, and
// otherwise adds w to P: the faces w sees are removed and the horizon they leave is joined to
// w. For polytopes C is a polytope and the supports are its vertices, so EPA ends in finitely
// many steps on a face of P lying in C's closest facet; round-off decides the last bits.
//
// The start is a tetrahedron of support points along directions of its own (the guess, its
// opposite, and normals of what is found so far), not GJK's final simplex, so that EPA needs
// nothing from GJK. The origin need not lie inside it: while the closest face has the origin in
// front of it (d_f < 0), the support along its normal lies beyond it whenever the origin is in
// C (h_C(n_f) >= 0 > d_f), so the same step grows P towards the origin; a support with
// h_C(n_f) < 0 instead proves the shapes apart (a separating plane).
//
// The faces w sees are found by a flood over face adjacency from the closest face, which it
// sees by construction (van den Bergen's silhouette traversal), so they are connected. A face
// counts as seen only when w lies beyond its plane by more than the round-off of the planes
// (epa_round_off of the size of C): points of C on a facet of P's, or on its edges (C's flat
// facets hold many, and coincident ones too: cubes give both), then leave that face alone
// rather than tear P or make faces without area. The step is taken only when the boundary of
// the seen faces, the horizon, is one simple loop: then they form a disk (Jordan curve theorem
// on the sphere), and joining the loop to w leaves a closed triangulated surface. Should
// round-off break this, EPA stops with the bracket found so far and reports it as not
// converged, instead of corrupting P.
#include <limits>

#include "rubble/polyhedra/point3.hpp"

namespace rubble::polyhedra {

/// Relative agreement of the upper and lower bounds on the depth at which EPA stops.
inline constexpr double epa_tolerance = 1e-14;
/// Absolute slack of that agreement, in units of the size of C (the largest |w| seen): the
/// round-off of the dot products that give both bounds, so that depths near 0 (touching
/// shapes) end too.
inline constexpr double epa_round_off = 8.0 * std::numeric_limits<double>::epsilon();
/// Default capacity of EPA's polytope in vertices (start and one per step); faces are at most
/// twice as many (a closed triangulated surface of V vertices has 2 V - 4). Random polytopes of
/// 128 vertices each need under 50 (tests/unit/polyhedra/epa_test.cpp); running out is
/// reported in PenetrationResult::converged. The polytope takes 288 bytes a vertex (37 KB at
/// this cap) on the stack, local memory on the device: a GPU caller with small grains can pass
/// a smaller cap.
inline constexpr int epa_max_vertices = 128;

/// What penetration_depth finds. The normal is C's outward normal at its boundary point
/// closest to the origin: moving B by depth * normal (or A by -depth * normal) leaves the
/// shapes touching.
struct PenetrationResult {
    double depth = 0.0;       ///< m, >= 0: the shortest separating translation; 0 unless overlap
    double lower_bound = 0.0; ///< m, certified to round-off: the exact depth is at least this
    double upper_bound = 0.0; ///< m, certified to round-off: the exact depth is at most this
    Point3 normal;            ///< unit, world; when !overlap, one from A to B that separates them
    Point3 on_a, on_b;        ///< m, world (overlap): on_a - on_b = depth * normal
    bool overlap = false;     ///< the shapes share a point (to round-off)
    bool converged = true;    ///< false: out of capacity or round-off broke the polytope (the
                              ///< bracket holds), or C is flat (shapes without volume)
    int iterations = 0;       ///< support queries after the starting tetrahedron
};

namespace detail {

// A point of C with the support points of A and B it came from and their ids; stamp and edge
// mark the horizon edge leaving it during a step.
struct EpaVertex {
    Point3 w, a, b;
    int ia, ib;
    int stamp, edge;
};

// A face of P: vertices counter-clockwise seen from outside, adj[k] the face across the edge
// v[k] -> v[k + 1], the plane n . x = d, and the step that last found it visible.
struct EpaFace {
    int v[3], adj[3];
    Point3 n;
    double d;
    int stamp;
    bool alive;
};

// An edge of the horizon, from -> to as the visible face holding it runs, the face beyond it
// and that face's index of the edge, and the plane of the new face from -> to -> w.
struct EpaEdge {
    int from, to, outer, outer_edge, face;
    Point3 n;
    double d;
};

template <int MaxVertices> struct EpaPolytope {
    static constexpr int max_faces = 2 * MaxVertices;
    EpaVertex vert[MaxVertices];
    EpaFace face[max_faces];
    int free_face[max_faces]; // slots of removed faces, reused first
    int list[max_faces];      // the faces visible in a step
    EpaEdge horizon[MaxVertices];
    int vertices = 0, top = 0, free_count = 0;
};

template <class SupportA, class SupportB>
RUBBLE_HD EpaVertex epa_support(const SupportA& sa, const SupportB& sb, const Point3& d) {
    EpaVertex x;
    x.a = sa(d, x.ia);
    x.b = sb(-d, x.ib);
    x.w = x.a - x.b;
    x.stamp = 0;
    x.edge = 0;
    return x;
}

// The plane of the triangle a b c, counter-clockwise seen from its outer side: unit normal and
// offset. False when the triangle has no area.
RUBBLE_HD inline bool epa_plane(const Point3& a, const Point3& b, const Point3& c, Point3& n,
                                double& d) {
    const Point3 m = cross(b - a, c - a);
    const double mm = norm2(m);
    if (!(mm > 0.0)) return false;
    n = (1.0 / std::sqrt(mm)) * m;
    d = dot(n, a);
    return true;
}

// The support point of C along n or -n that lies farther from the plane n . x = n . origin,
// which is where a new point of a full-dimensional C is sure to be found. False when both
// lie on the plane (C flat).
template <class SupportA, class SupportB>
RUBBLE_HD bool epa_off_plane(const SupportA& sa, const SupportB& sb, const Point3& n,
                             const Point3& origin, EpaVertex& out) {
    const EpaVertex up = epa_support(sa, sb, n), down = epa_support(sa, sb, -n);
    const double hu = dot(n, up.w - origin), hd = -dot(n, down.w - origin);
    out = hu >= hd ? up : down;
    return hu > 0.0 || hd > 0.0;
}

// The starting tetrahedron: the supports along d and -d, then off the line they span, then
// off the plane of the three; faces turned outwards. False when C is flat.
template <class SupportA, class SupportB, int MaxVertices>
RUBBLE_HD bool epa_start(EpaPolytope<MaxVertices>& p, const SupportA& sa, const SupportB& sb,
                         Point3 d) {
    if (!(norm2(d) > 0.0)) d = Point3{1.0, 0.0, 0.0};
    EpaVertex* s = p.vert;
    s[0] = epa_support(sa, sb, d);
    s[1] = epa_support(sa, sb, -d);
    const Point3 e = s[1].w - s[0].w;
    if (!(norm2(e) > 0.0)) return false;
    // Off the line: along e x (the axis least aligned with e), perpendicular to it.
    const double ex = std::fabs(e.x), ey = std::fabs(e.y), ez = std::fabs(e.z);
    const Point3 axis = ex <= ey && ex <= ez ? Point3{1.0, 0.0, 0.0}
                        : ey <= ez           ? Point3{0.0, 1.0, 0.0}
                                             : Point3{0.0, 0.0, 1.0};
    if (!epa_off_plane(sa, sb, cross(e, axis), s[0].w, s[2])) return false;
    if (!epa_off_plane(sa, sb, cross(e, s[2].w - s[0].w), s[0].w, s[3])) return false;
    // With (w1 - w0) x (w2 - w0) . (w3 - w0) < 0, the faces below are counter-clockwise seen
    // from outside.
    if (dot(cross(s[1].w - s[0].w, s[2].w - s[0].w), s[3].w - s[0].w) > 0.0) {
        const EpaVertex t = s[1];
        s[1] = s[2];
        s[2] = t;
    }
    p.vertices = 4;
    static constexpr int faces[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
    for (int f = 0; f < 4; ++f) {
        EpaFace& x = p.face[f];
        for (int k = 0; k < 3; ++k)
            x.v[k] = faces[f][k];
        if (!epa_plane(s[x.v[0]].w, s[x.v[1]].w, s[x.v[2]].w, x.n, x.d)) return false;
        x.stamp = 0;
        x.alive = true;
    }
    // Each edge u -> v of a face meets the face holding v -> u.
    for (int f = 0; f < 4; ++f)
        for (int k = 0; k < 3; ++k) {
            const int u = p.face[f].v[k], v = p.face[f].v[(k + 1) % 3];
            for (int g = 0; g < 4; ++g)
                for (int j = 0; j < 3; ++j)
                    if (p.face[g].v[j] == v && p.face[g].v[(j + 1) % 3] == u) p.face[f].adj[k] = g;
        }
    p.top = 4;
    return true;
}

// The living face closest to the origin (least d; ties to the lowest slot).
template <int MaxVertices> RUBBLE_HD int epa_closest(const EpaPolytope<MaxVertices>& p) {
    int best = -1;
    double d = 0.0;
    for (int f = 0; f < p.top; ++f)
        if (p.face[f].alive && (best < 0 || p.face[f].d < d)) {
            best = f;
            d = p.face[f].d;
        }
    return best;
}

template <int MaxVertices>
RUBBLE_HD bool epa_holds(const EpaPolytope<MaxVertices>& p, const EpaVertex& x) {
    for (int k = 0; k < p.vertices; ++k)
        if (p.vert[k].ia == x.ia && p.vert[k].ib == x.ib) return true;
    return false;
}

// The faces that vertex wi sees, flooded over adjacency from seed (which it sees), and the
// horizon around them, each edge with the plane of its new face. False when the horizon is not
// one simple loop or a new face would have no area; P is left unchanged then (but for the
// marks of this step, which later steps do not read).
template <int MaxVertices>
RUBBLE_HD bool epa_horizon(EpaPolytope<MaxVertices>& p, int seed, int wi, int stamp, double margin,
                           int& visible, int& nh) {
    const Point3 w = p.vert[wi].w;
    visible = 0;
    p.list[visible++] = seed;
    p.face[seed].stamp = stamp;
    for (int i = 0; i < visible; ++i)
        for (int k = 0; k < 3; ++k) {
            const int g = p.face[p.list[i]].adj[k];
            EpaFace& h = p.face[g];
            if (h.stamp != stamp && dot(h.n, w) - h.d > margin) {
                h.stamp = stamp;
                p.list[visible++] = g;
            }
        }
    nh = 0;
    for (int i = 0; i < visible; ++i) {
        const EpaFace& f = p.face[p.list[i]];
        for (int k = 0; k < 3; ++k) {
            const EpaFace& g = p.face[f.adj[k]];
            if (g.stamp == stamp) continue;
            EpaVertex& from = p.vert[f.v[k]];
            if (from.stamp == stamp) return false; // the horizon passes twice through a vertex
            from.stamp = stamp;
            from.edge = nh;
            EpaEdge& e = p.horizon[nh++];
            e.from = f.v[k];
            e.to = f.v[(k + 1) % 3];
            e.outer = f.adj[k];
            e.outer_edge = -1;
            for (int j = 0; j < 3; ++j)
                if (g.v[j] == e.to && g.v[(j + 1) % 3] == e.from) e.outer_edge = j;
            if (e.outer_edge < 0) return false;
            if (!epa_plane(from.w, p.vert[e.to].w, w, e.n, e.d)) return false;
        }
    }
    // One loop: following each edge to the one leaving its end returns to the first after
    // exactly nh edges.
    if (nh < 3) return false;
    int e = 0, steps = 0;
    do {
        const EpaVertex& v = p.vert[p.horizon[e].to];
        if (v.stamp != stamp) return false;
        e = v.edge;
        ++steps;
    } while (e != 0 && steps < nh);
    return e == 0 && steps == nh;
}

// Adds vertex wi (seen from face seed) to P: the faces it sees go, and a fan of faces joins the
// horizon to it. False, with P unchanged, when the horizon is broken or the faces would not fit.
template <int MaxVertices>
RUBBLE_HD bool epa_expand(EpaPolytope<MaxVertices>& p, int seed, int wi, int stamp, double margin) {
    int visible = 0, nh = 0;
    if (!epa_horizon(p, seed, wi, stamp, margin, visible, nh)) return false;
    if (nh > p.free_count + visible + (EpaPolytope<MaxVertices>::max_faces - p.top)) return false;
    for (int i = 0; i < visible; ++i) {
        p.face[p.list[i]].alive = false;
        p.free_face[p.free_count++] = p.list[i];
    }
    for (int j = 0; j < nh; ++j) {
        EpaEdge& e = p.horizon[j];
        const int fi = p.free_count > 0 ? p.free_face[--p.free_count] : p.top++;
        EpaFace& f = p.face[fi];
        f.v[0] = e.from;
        f.v[1] = e.to;
        f.v[2] = wi;
        f.adj[0] = e.outer;
        f.n = e.n;
        f.d = e.d;
        f.stamp = 0;
        f.alive = true;
        p.face[e.outer].adj[e.outer_edge] = fi;
        e.face = fi;
    }
    // The edge to -> w of each new face is the edge w -> to of the next one, which starts there.
    for (int j = 0; j < nh; ++j) {
        const EpaEdge& e = p.horizon[j];
        const int next = p.horizon[p.vert[e.to].edge].face;
        p.face[e.face].adj[1] = next;
        p.face[next].adj[2] = e.face;
    }
    return true;
}

// The barycentric weights in face f of the origin's projection on its plane, d n, and the least
// of them (negative: the projection lies outside f).
template <int MaxVertices>
RUBBLE_HD double epa_weights(const EpaPolytope<MaxVertices>& p, const EpaFace& f, double* w) {
    const Point3 &a = p.vert[f.v[0]].w, &b = p.vert[f.v[1]].w, &c = p.vert[f.v[2]].w;
    const Point3 q = f.d * f.n, m = cross(b - a, c - a);
    const double mm = norm2(m);
    w[0] = dot(cross(b - q, c - q), m) / mm;
    w[1] = dot(cross(c - q, a - q), m) / mm;
    w[2] = dot(cross(a - q, b - q), m) / mm;
    return std::fmin(w[0], std::fmin(w[1], w[2]));
}

// Depth, normal and witness points from P's closest face `best`. The origin's projection on
// its plane, d n, is C's closest boundary point, and it lies in P; but when C's closest facet
// is made of several coplanar faces of P (their d within `coplanar` by round-off), not
// necessarily in that one. The face holding it is the one of those whose barycentric weights
// of the projection are least negative; the weights (clamped, so that the witnesses stay in
// their shapes) carry it to A and B.
template <int MaxVertices>
RUBBLE_HD void epa_witnesses(const EpaPolytope<MaxVertices>& p, int best, double coplanar,
                             PenetrationResult& r) {
    double weights[3];
    double held = epa_weights(p, p.face[best], weights);
    int face = best;
    for (int g = 0; g < p.top; ++g) {
        if (g == best || !p.face[g].alive || p.face[g].d > coplanar) continue;
        double w[3];
        const double least = epa_weights(p, p.face[g], w);
        if (least > held) {
            face = g;
            held = least;
            for (int k = 0; k < 3; ++k)
                weights[k] = w[k];
        }
    }
    for (int k = 0; k < 3; ++k)
        weights[k] = std::fmax(weights[k], 0.0);
    if (!(weights[0] + weights[1] + weights[2] > 0.0)) weights[0] = 1.0; // (a sliver face)
    const double sum = weights[0] + weights[1] + weights[2];
    const EpaFace& f = p.face[face];
    r.depth = std::fmax(f.d, 0.0);
    r.normal = f.n;
    for (int k = 0; k < 3; ++k) {
        r.on_a = r.on_a + (weights[k] / sum) * p.vert[f.v[k]].a;
        r.on_b = r.on_b + (weights[k] / sum) * p.vert[f.v[k]].b;
    }
}

} // namespace detail

/// The penetration depth of convex shapes A and B, given as support functors like those of
/// gjk_distance (`Point3 operator()(const Point3& d, int& id) const`, the id the same whenever
/// the point is). `towards_b` is a first guess of the direction from A to B (the centres'
/// difference); any non-zero vector works. Meant for shapes that GJK finds overlapping; for
/// shapes apart it reports !overlap once a support plane separates them. `MaxVertices` is the
/// capacity of the polytope (epa_max_vertices).
template <class SupportA, class SupportB, int MaxVertices = epa_max_vertices>
RUBBLE_HD PenetrationResult penetration_depth(const SupportA& sa, const SupportB& sb,
                                              Point3 towards_b) {
    static_assert(MaxVertices >= 8, "EPA needs room beyond its starting tetrahedron");
    PenetrationResult r;
    detail::EpaPolytope<MaxVertices> p;
    if (!detail::epa_start(p, sa, sb, towards_b)) {
        r.converged = false; // C is flat: no interior, so no depth
        return r;
    }
    double scale = 0.0; // m, the size of C seen so far: the largest |w|
    for (int k = 0; k < 4; ++k)
        scale = std::fmax(scale, std::sqrt(norm2(p.vert[k].w)));
    double upper = -1.0; // the least h_C(n_f) met (none yet)
    int best = detail::epa_closest(p);
    for (int stamp = 1;; ++stamp) {
        const detail::EpaFace& f = p.face[best];
        const detail::EpaVertex x = detail::epa_support(sa, sb, f.n);
        const double h = dot(f.n, x.w);
        ++r.iterations;
        if (h < 0.0) { // the plane normal to f.n through x separates the shapes
            r.overlap = false;
            r.normal = f.n;
            return r;
        }
        if (upper < 0.0 || h < upper) upper = h;
        scale = std::fmax(scale, std::sqrt(norm2(x.w)));
        if (h - f.d <= epa_tolerance * std::fmax(f.d, 0.0) + epa_round_off * scale) break;
        // x is already in P yet beyond f beyond round-off: P has lost convexity.
        if (detail::epa_holds(p, x) || p.vertices == MaxVertices) {
            r.converged = false;
            break;
        }
        p.vert[p.vertices] = x;
        if (!detail::epa_expand(p, best, p.vertices, stamp, epa_round_off * scale)) {
            r.converged = false;
            break;
        }
        ++p.vertices;
        best = detail::epa_closest(p);
    }
    const double d_min = p.face[best].d;
    r.overlap = true;
    r.lower_bound = std::fmax(d_min, 0.0);
    r.upper_bound = std::fmax(upper, 0.0);
    detail::epa_witnesses(p, best,
                          d_min + epa_tolerance * std::fmax(d_min, 0.0) + epa_round_off * scale, r);
    return r;
}

} // namespace rubble::polyhedra
