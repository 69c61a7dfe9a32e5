// SPDX-License-Identifier: MIT
#include "rubble/polyhedra/manifold.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

namespace rubble::polyhedra {
namespace {

using shapes::Polyhedron;

// The clipped polygon gains at most one vertex per side plane of a convex reference face.
constexpr int clip_capacity = 2 * manifold_max_face_vertices;

std::size_t at(int i) {
    return static_cast<std::size_t>(i);
}

// A feature of one shape. No default values: the clipping's arrays of them are left
// uninitialised, every entry being written before it is read.
struct Tag {
    FeatureKind kind;
    int index;
};

// A vertex of the polygon being clipped, in the reference body's frame, with the features of
// the incident and reference shapes it lies on, and those of the polygon's side from it to the
// next vertex: an intersection with a side plane lies on that side's incident feature and on
// the meeting of its reference feature with the plane (feature tracking as in Box2D's
// b2ClipSegmentToLine, Catto; Gregorius 2015).
struct ClipVertex {
    Vec3 x;
    Tag inc, ref;
    Tag side_inc, side_ref;
};

struct ClipPolygon {
    std::array<ClipVertex, clip_capacity> v;
    int count = 0;
    // A convex polygon cut by a plane gains one vertex at most; only round-off on a polygon
    // with many nearly collinear vertices could fill the array, and then the rest is dropped.
    void push(const ClipVertex& c) {
        if (count < clip_capacity) v[at(count++)] = c;
    }
};

// A side plane of the reference face: outward unit normal and offset in the reference frame,
// and the reference edge it runs along with that edge's vertices.
struct Side {
    Vec3 normal = Vec3::Zero();
    double offset = 0.0;
    int edge = -1;
    std::array<int, 2> ends{};
};

void check_face_size(const Polyhedron& p, int f) {
    const int n = p.face_start[at(f) + 1] - p.face_start[at(f)];
    if (n > manifold_max_face_vertices)
        throw std::invalid_argument("contact manifold: face " + std::to_string(f) + " has " +
                                    std::to_string(n) + " vertices, more than the " +
                                    std::to_string(manifold_max_face_vertices) + " allowed");
}

// The vertex of p farthest along u (body frame), ties to the lowest index.
int support_vertex(const Polyhedron& p, const Vec3& u) {
    int best = 0;
    double reach = u.dot(p.vertex(0));
    for (int v = 1; v < static_cast<int>(p.vertex_count()); ++v) {
        const double r = u.dot(p.vertex(v));
        if (r > reach) {
            reach = r;
            best = v;
        }
    }
    return best;
}

struct FaceChoice {
    int face = -1;
    double cos = -2.0;
};

// Of the faces of p around vertex v, the one whose outward normal is closest to the unit u
// (largest cosine), ties to the lowest index.
FaceChoice face_towards(const Polyhedron& p, int v, const Vec3& u) {
    FaceChoice best;
    const auto vertex = static_cast<std::size_t>(v);
    for (int k = p.vertex_face_start[vertex]; k < p.vertex_face_start[vertex + 1]; ++k) {
        const int f = p.vertex_faces[static_cast<std::size_t>(k)];
        const double c = p.face_normals[static_cast<std::size_t>(f)].dot(u);
        if (c > best.cos) best = FaceChoice{f, c};
    }
    return best;
}

// The index of the edge joining v and w. make_polyhedron lists edges sorted, so a binary search
// finds it; a scan covers polyhedra built otherwise.
int edge_index(const Polyhedron& p, int v, int w) {
    const std::array<int, 2> key{std::min(v, w), std::max(v, w)};
    const auto it = std::lower_bound(p.edges.begin(), p.edges.end(), key);
    if (it != p.edges.end() && *it == key) return static_cast<int>(it - p.edges.begin());
    const auto found = std::find(p.edges.begin(), p.edges.end(), key);
    return found != p.edges.end() ? static_cast<int>(found - p.edges.begin()) : -1;
}

// The reference feature where a polygon side lying on reference feature `along` meets side
// plane s: the side's edge when the polygon side lies on the face, their common vertex when
// it runs along another side plane (a corner of the reference face).
Tag crossing_ref(const Tag& along, const Side& s, const Polyhedron& ref) {
    if (along.kind == FeatureKind::edge && along.index >= 0) {
        const auto& e = ref.edges[at(along.index)];
        for (const int end : s.ends)
            if (end == e[0] || end == e[1]) return Tag{FeatureKind::vertex, end};
    }
    return Tag{FeatureKind::edge, s.edge};
}

// One step of Sutherland & Hodgman (1974): the part of `in` on the inner side of plane s.
// Points within tol of the plane count as on it: they are kept, and no intersection is made
// next to them (a polygon that touches the plane there is not split into near copies).
void clip_by_side(const ClipPolygon& in, const Side& s, double tol, const Tag& incident_face,
                  const Polyhedron& ref, ClipPolygon& out) {
    std::array<double, clip_capacity> d;
    for (int k = 0; k < in.count; ++k)
        d[at(k)] = s.normal.dot(in.v[at(k)].x) - s.offset;
    out.count = 0;
    for (int k = 0; k < in.count; ++k) {
        const int j = (k + 1) % in.count;
        const ClipVertex& p = in.v[at(k)];
        const double dp = d[at(k)], dq = d[at(j)];
        const bool p_in = dp <= tol, q_in = dq <= tol;
        if (p_in != q_in && (p_in ? dp < -tol : dq < -tol)) {
            ClipVertex c;
            c.x = p.x + (dp / (dp - dq)) * (in.v[at(j)].x - p.x);
            c.inc = p.side_inc;
            c.ref = crossing_ref(p.side_ref, s, ref);
            // Leaving, the polygon runs along the plane (inside the incident face) to where it
            // comes back; entering, it goes on along the side it came in by.
            c.side_inc = p_in ? incident_face : p.side_inc;
            c.side_ref = p_in ? Tag{FeatureKind::edge, s.edge} : p.side_ref;
            out.push(c);
        }
        if (q_in) {
            ClipVertex q = in.v[at(j)];
            if (dq >= -tol && d[at((j + 1) % in.count)] > tol) { // leaves along the plane
                q.side_inc = incident_face;
                q.side_ref = Tag{FeatureKind::edge, s.edge};
            }
            out.push(q);
        }
    }
}

// The relative pose of the incident body in the reference body's frame: x_ref = r x_inc + t.
struct Relative {
    Mat3 r;
    Vec3 t;
};

Relative relative(const Pose& ref, const Pose& inc) {
    return Relative{ref.rotation.transpose() * inc.rotation,
                    ref.rotation.transpose() * (inc.position - ref.position)};
}

// Face g of the incident shape in the reference frame, every vertex on its own vertex and on
// reference face f, every side on its incident edge and on face f.
void incident_polygon(const Polyhedron& inc, int g, const Relative& rel, int f, ClipPolygon& poly) {
    check_face_size(inc, g);
    const int first = inc.face_start[at(g)], n = inc.face_start[at(g) + 1] - first;
    poly.count = 0;
    for (int k = 0; k < n; ++k) {
        const int v = inc.face_vertices[at(first + k)];
        const int w = inc.face_vertices[at(first + (k + 1) % n)];
        ClipVertex c;
        c.x = rel.r * inc.vertex(v) + rel.t;
        c.inc = Tag{FeatureKind::vertex, v};
        c.ref = c.side_ref = Tag{FeatureKind::face, f};
        c.side_inc = Tag{FeatureKind::edge, edge_index(inc, v, w)};
        poly.push(c);
    }
}

// The polygon clipped by every side plane of reference face f (in place); `apart` (m) is the
// distance of the two bodies' origins, part of the size of the coordinates.
void clip_to_face(const Polyhedron& ref, int f, const Tag& incident_face, double apart,
                  ClipPolygon& poly) {
    check_face_size(ref, f);
    const int first = ref.face_start[at(f)], n = ref.face_start[at(f) + 1] - first;
    const Vec3& normal = ref.face_normals[at(f)];
    double reach = 0.0;
    for (int k = 0; k < n; ++k)
        reach = std::max(reach, ref.vertex(ref.face_vertices[at(first + k)]).norm());
    const double tol = clip_tolerance * (reach + apart);
    ClipPolygon other;
    ClipPolygon* src = &poly;
    ClipPolygon* dst = &other;
    for (int k = 0; k < n && src->count > 0; ++k) {
        const int v = ref.face_vertices[at(first + k)];
        const int w = ref.face_vertices[at(first + (k + 1) % n)];
        // Counter-clockwise seen from outside, so the edge direction crossed with the normal
        // points out of the polygon.
        Side s;
        s.normal = (ref.vertex(w) - ref.vertex(v)).cross(normal).normalized();
        s.offset = s.normal.dot(ref.vertex(v));
        s.edge = edge_index(ref, v, w);
        s.ends = {v, w};
        clip_by_side(*src, s, tol, incident_face, ref, *dst);
        std::swap(src, dst);
    }
    if (src != &poly) {
        std::copy_n(src->v.begin(), src->count, poly.v.begin());
        poly.count = src->count;
    }
}

// Which of the candidates (reference frame) with heights h to keep, at most four, the deepest
// first: all of four or fewer, from the deepest on in polygon order; otherwise the deepest, the
// one farthest from it, the one making the largest triangle with those two, and the one adding
// the most area to that triangle (Gregorius 2015: the deepest point bounds the penetration, the
// others span the largest support area). The candidates are corners of a convex polygon, so a
// fourth point lies beyond one side of the triangle, and the area it adds is minus its signed
// area with that side. Ties to the lowest index; repeated or collinear candidates give fewer.
int reduce_to_four(const ClipVertex* c, const double* h, int count, const Vec3& normal,
                   std::array<int, 4>& keep) {
    int first = 0;
    for (int k = 1; k < count; ++k)
        if (h[k] < h[first]) first = k;
    if (count <= 4) {
        for (int k = 0; k < count; ++k)
            keep[at(k)] = (first + k) % count;
        return count;
    }
    const auto area = [&](int a, int b, int x) {
        return (c[b].x - c[a].x).cross(c[x].x - c[a].x).dot(normal);
    };
    keep = {first, -1, -1, -1};
    double best = 0.0;
    for (int k = 0; k < count; ++k)
        if (const double d2 = (c[k].x - c[first].x).squaredNorm(); d2 > best) {
            best = d2;
            keep[1] = k;
        }
    if (keep[1] < 0) return 1;
    best = 0.0;
    for (int k = 0; k < count; ++k)
        if (const double a = std::abs(area(first, keep[1], k)); a > best) {
            best = a;
            keep[2] = k;
        }
    if (keep[2] < 0) return 2;
    const double turn = area(first, keep[1], keep[2]) > 0.0 ? 1.0 : -1.0;
    best = 0.0;
    for (int k = 0; k < count; ++k) {
        const double beyond =
            std::min({turn * area(first, keep[1], k), turn * area(keep[1], keep[2], k),
                      turn * area(keep[2], first, k)});
        if (-beyond > best) {
            best = -beyond;
            keep[3] = k;
        }
    }
    return keep[3] < 0 ? 3 : 4;
}

// The face manifold with face f of `ref` as the reference and the face of `inc` most
// anti-parallel to it around inc's deepest vertex as the incident face. False when no clipped
// point is within max_gap.
bool face_manifold(const PlacedPolyhedron& ref, const PlacedPolyhedron& inc, int f, bool ref_is_a,
                   double max_gap, ContactManifold& m) {
    const Polyhedron& rp = ref.core;
    const Vec3& nf = rp.face_normals[at(f)];
    const double offset = rp.face_offsets[at(f)];
    const Relative rel = relative(ref.pose, inc.pose);
    const Vec3 down = -(rel.r.transpose() * nf); // towards the reference face, incident frame
    const int g = face_towards(inc.core, support_vertex(inc.core, down), down).face;
    ClipPolygon poly;
    incident_polygon(inc.core, g, rel, f, poly);
    clip_to_face(rp, f, Tag{FeatureKind::face, g}, rel.t.norm(), poly);

    // The candidates within max_gap of the grown reference face, compacted in order.
    const double margins = ref.margin + inc.margin;
    std::array<double, clip_capacity> h;
    int count = 0;
    for (int k = 0; k < poly.count; ++k) {
        const double height = nf.dot(poly.v[at(k)].x) - offset;
        if (height - margins <= max_gap) {
            poly.v[at(count)] = poly.v[at(k)];
            h[at(count++)] = height;
        }
    }
    if (count == 0) return false;
    std::array<int, 4> keep{};
    const int kept = reduce_to_four(poly.v.data(), h.data(), count, nf, keep);

    const Mat3& rot = ref.pose.rotation;
    const Vec3& pos = ref.pose.position;
    m.normal = ref_is_a ? Vec3(-(rot * nf)) : Vec3(rot * nf);
    m.type = ref_is_a ? ContactType::face_a : ContactType::face_b;
    m.reference_face = f;
    m.count = kept;
    for (int k = 0; k < kept; ++k) {
        const ClipVertex& c = poly.v[at(keep[at(k)])];
        const double height = h[at(keep[at(k)])];
        const Vec3 on_inc = pos + rot * c.x, on_ref = pos + rot * (c.x - height * nf);
        ContactPoint& p = m.points[at(k)];
        p.on_a = (ref_is_a ? on_ref : on_inc) - (ref_is_a ? ref.margin : inc.margin) * m.normal;
        p.on_b = (ref_is_a ? on_inc : on_ref) + (ref_is_a ? inc.margin : ref.margin) * m.normal;
        p.gap = height - margins;
        const Tag ta = ref_is_a ? c.ref : c.inc, tb = ref_is_a ? c.inc : c.ref;
        p.id = FeatureId{ta.kind, ta.index, tb.kind, tb.index};
    }
    return true;
}

// A vertex (p0 == p1) or an edge of a shape.
struct Segment {
    Vec3 p0 = Vec3::Zero(), p1 = Vec3::Zero();
    Tag tag;
};

// The supporting feature of p along the unit u (body frame) at its support vertex v: the edge
// from v most nearly perpendicular to u when within edge_contact_sin of it, else v itself.
Segment supporting_feature(const Polyhedron& p, int v, const Vec3& u) {
    int best = -1;
    double sine = edge_contact_sin;
    for (int k = p.neighbour_start[at(v)]; k < p.neighbour_start[at(v) + 1]; ++k) {
        const int w = p.neighbours[at(k)];
        const Vec3 e = p.vertex(v) - p.vertex(w);
        if (const double s = u.dot(e) / e.norm(); s <= sine) {
            sine = s;
            best = w;
        }
    }
    if (best < 0) return Segment{p.vertex(v), p.vertex(v), Tag{FeatureKind::vertex, v}};
    return Segment{p.vertex(v), p.vertex(best), Tag{FeatureKind::edge, edge_index(p, v, best)}};
}

// The parameters (s, t) of the closest points p0 + s (p1 - p0) and q0 + t (q1 - q0) of two
// segments, either of which may be a point (Ericson 2005, Real-Time Collision Detection,
// sec. 5.1.9): those of the lines, each clamped to its segment and the other recomputed and
// clamped again.
std::pair<double, double> closest_parameters(const Segment& p, const Segment& q) {
    const Vec3 d1 = p.p1 - p.p0, d2 = q.p1 - q.p0, r = p.p0 - q.p0;
    const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
    double s = 0.0, t = 0.0;
    if (a == 0.0) {
        t = e > 0.0 ? std::clamp(f / e, 0.0, 1.0) : 0.0;
    } else {
        const double c = d1.dot(r);
        if (e == 0.0) {
            s = std::clamp(-c / a, 0.0, 1.0);
        } else {
            const double b = d1.dot(d2), denom = a * e - b * b;
            s = denom > 0.0 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
            t = (b * s + f) / e;
            if (t < 0.0 || t > 1.0) {
                t = std::clamp(t, 0.0, 1.0);
                s = std::clamp((b * t - c) / a, 0.0, 1.0);
            }
        }
    }
    return {s, t};
}

// The one point of an edge or vertex contact, from the features of A and B supporting the
// normal n (world, B to A) at their support vertices va and vb, in A's frame: the points of the
// two that are closest seen along n (projected on the plane normal to it), so that on_a - on_b
// lies along n wherever the features cross in that view, whether the shapes are apart or
// overlap (the closest points in space would turn sideways once edges pass each other). For
// disjoint shapes and the normal of their closest points, these are the closest points.
void feature_manifold(const PlacedPolyhedron& a, const PlacedPolyhedron& b, const Vec3& n, int va,
                      int vb, double max_gap, ContactManifold& m) {
    m.normal = n;
    m.type = ContactType::features;
    m.reference_face = -1;
    m.count = 0;
    const Mat3& rot = a.pose.rotation;
    const Vec3 n_a = rot.transpose() * n; // A's frame
    const Relative rel = relative(a.pose, b.pose);
    const Segment fa = supporting_feature(a.core, va, -n_a);
    Segment fb = supporting_feature(b.core, vb, rel.r.transpose() * n_a);
    fb.p0 = rel.r * fb.p0 + rel.t;
    fb.p1 = rel.r * fb.p1 + rel.t;
    const auto flat = [&n_a](const Segment& x) {
        return Segment{x.p0 - n_a.dot(x.p0) * n_a, x.p1 - n_a.dot(x.p1) * n_a, x.tag};
    };
    const auto [s, t] = closest_parameters(flat(fa), flat(fb));
    const Vec3 ca = fa.p0 + s * (fa.p1 - fa.p0), cb = fb.p0 + t * (fb.p1 - fb.p0);
    const double gap = (ca - cb).dot(n_a) - a.margin - b.margin;
    if (!(gap <= max_gap)) return;
    ContactPoint& p = m.points[0];
    p.on_a = a.pose.position + rot * ca - a.margin * n;
    p.on_b = a.pose.position + rot * cb + b.margin * n;
    p.gap = gap;
    p.id = FeatureId{fa.tag.kind, fa.tag.index, fb.tag.kind, fb.tag.index};
    m.count = 1;
}

// The face manifold with the better aligned of A's face fa and B's face fb as the reference
// (A's unless B's is closer to the normal by more than reference_tie). False when no clipped
// point is within max_gap.
bool aligned_face_manifold(const PlacedPolyhedron& a, const PlacedPolyhedron& b,
                           const FaceChoice& fa, const FaceChoice& fb, double max_gap,
                           ContactManifold& m) {
    return fa.cos >= fb.cos - reference_tie ? face_manifold(a, b, fa.face, true, max_gap, m)
                                            : face_manifold(b, a, fb.face, false, max_gap, m);
}

// The speculative face points of an edge or vertex contact m (contact_manifold): the face
// manifold of the better aligned of A's and B's faces, its points within max_gap with positive
// gaps no smaller than m's point's (a deeper one would say more than the shapes' separation,
// and a face point already in the other grain is no longer speculative: the feature point
// holds that overlap, and a second push along a normal up to 25 degrees off would only turn
// the pair).
void add_face_points(const PlacedPolyhedron& a, const PlacedPolyhedron& b, const FaceChoice& fa,
                     const FaceChoice& fb, double max_gap, ContactManifold& m) {
    ContactManifold faces;
    if (!aligned_face_manifold(a, b, fa, fb, max_gap, faces)) return;
    m.face.normal = faces.normal;
    for (int k = 0; k < faces.count; ++k)
        if (faces.points[at(k)].gap >= std::max(0.0, m.points[0].gap))
            m.face.points[at(m.face.count++)] = faces.points[at(k)];
}

} // namespace

ContactManifold contact_manifold(const PlacedPolyhedron& a, const PlacedPolyhedron& b,
                                 const Vec3& normal, double max_gap, double separation,
                                 bool speculative_faces) {
    const double length = normal.norm();
    if (!(length > 0.0) || !std::isfinite(length))
        throw std::invalid_argument("contact manifold: the normal must have a finite, non-zero "
                                    "length");
    for (const double margin : {a.margin, b.margin})
        if (!(margin >= 0.0) || !std::isfinite(margin))
            throw std::invalid_argument("contact manifold: margin " + std::to_string(margin) +
                                        " m must be finite and >= 0");
    const Vec3 n = normal / length;
    // The faces facing each other: A's outward normals near -n, B's near +n.
    const Vec3 ua = -(a.pose.rotation.transpose() * n), ub = b.pose.rotation.transpose() * n;
    const int va = support_vertex(a.core, ua), vb = support_vertex(b.core, ub);
    const FaceChoice fa = face_towards(a.core, va, ua), fb = face_towards(b.core, vb, ub);
    ContactManifold m;
    if (std::max(fa.cos, fb.cos) >= face_contact_cos) {
        if (aligned_face_manifold(a, b, fa, fb, max_gap, m)) {
            // Deep in, the support vertex can lie outside the reference face's prism and the
            // clipped points all be shallower than the shapes are: then the supporting
            // features' point, as deep as they are, goes first (the other points after it).
            double shallowest = m.points[0].gap;
            for (int k = 1; k < m.count; ++k)
                shallowest = std::min(shallowest, m.points[at(k)].gap);
            if (std::isfinite(separation) && shallowest > separation + a.margin + b.margin) {
                ContactManifold deep;
                feature_manifold(a, b, n, va, vb, max_gap, deep);
                if (deep.count == 1 && deep.points[0].gap < shallowest) {
                    for (int k = std::min(m.count, 3); k > 0; --k)
                        m.points[at(k)] = m.points[at(k - 1)];
                    m.points[0] = deep.points[0];
                    m.count = std::min(m.count + 1, 4);
                }
            }
            return m;
        }
    }
    // No face close enough to the normal, or none of its clipped points within max_gap (the
    // incident face does not reach over the reference face): the supporting features.
    feature_manifold(a, b, n, va, vb, max_gap, m);
    if (speculative_faces && m.count == 1 && std::max(fa.cos, fb.cos) >= speculative_face_cos)
        add_face_points(a, b, fa, fb, max_gap, m);
    return m;
}

} // namespace rubble::polyhedra
