// SPDX-License-Identifier: MIT
#pragma once
// Contact manifolds of two convex polyhedra with collision margins (issue 21, item 2): the one
// to four points at which the non-smooth contact solver holds two grains apart, so that a box
// resting on a face is supported at its corners and does not rock on one point.
//
// The caller gives the contact normal (from GJK's closest points, or EPA's when the shapes
// overlap); the manifold comes from the features of both shapes that support that normal:
//   - Face contact. When a face of A or B is within face_contact_cos of the normal, it is the
//     reference face; the incident face is the face of the other shape most anti-parallel to
//     it. The incident polygon is clipped against the side planes of the reference face
//     (Sutherland & Hodgman 1974), and the clipped points no higher above the reference plane
//     than max_gap are the candidates; more than four are cut to the four that keep the
//     deepest point and span the largest area (Gregorius 2015, "Robust Contact Creation for
//     Physics Simulations", GDC; as in Catto's Box2D, which clips an incident edge against a
//     reference edge in 2D). Gaps are measured along the reference face's normal, which is
//     exact for a resting contact, whereas a normal from GJK at a tiny gap is not.
//   - Edge and vertex contacts (no face that close to the normal): one point, the closest
//     points of the two supporting features (a vertex, or an edge nearly perpendicular to the
//     normal), gap measured along the given normal.
//
// Both faces, reference and incident, are sought among the faces around the shape's support
// vertex along the normal, not among all faces: the support vertex is the shape's deepest
// point, so the polygon clipped always holds it, and the smallest gap of a face contact is the
// shapes' separation along the reference normal whenever that vertex projects into the
// reference face; when it does not (shapes deep in each other), the separation the caller
// knows from GJK or EPA brings in the supporting features' point (contact_manifold). Everything is
// computed in the reference body's frame, where its face planes are stored exactly and the other
// body is a relative pose away, so the round-off is that of the grains' sizes, not of their
// distance from the origin.
//
// Each point carries a feature id (which vertex, edge or face of each shape it lies on) for the
// stepper to match points from step to step and warm-start them; persistence itself is the
// stepper's. Deterministic: ties always go to the lowest index. No heap: fixed arrays sized by
// manifold_max_face_vertices.
#include <array>
#include <cstdint>
#include <limits>

#include "rubble/core/polyhedron.hpp"
#include "rubble/core/types.hpp"

namespace rubble::polyhedra {

/// Where a body is: world x = position + rotation * (body-frame x).
struct Pose {
    Vec3 position = Vec3::Zero();     ///< m, world, of the body frame's origin
    Mat3 rotation = Mat3::Identity(); ///< body -> world, orthonormal
};

/// A convex polyhedron placed in the world and grown by a ball of radius `margin` (Minkowski
/// sum): with margin 0 the sharp polyhedron, otherwise `core` is the margin core (shapes::shrunk)
/// and the shape its rounding. The polyhedron stays owned by the caller.
struct PlacedPolyhedron {
    const shapes::Polyhedron& core; ///< body frame, m
    Pose pose;
    double margin = 0.0; ///< m, >= 0
};

/// A feature of a polyhedron: a vertex, an edge (index into Polyhedron::edges) or a face.
enum class FeatureKind : std::uint8_t { vertex, edge, face };

/// The features of A and of B that a contact point lies on, e.g. (face 3 of A, vertex 5 of B)
/// for a corner of B resting on a face of A, or (edge 2, edge 7) where an edge of B crosses a
/// side of A's face. The same contact gets the same id from step to step while the same
/// features touch.
struct FeatureId {
    FeatureKind kind_a = FeatureKind::vertex;
    std::int32_t index_a = -1;
    FeatureKind kind_b = FeatureKind::vertex;
    std::int32_t index_b = -1;

    /// One 64-bit key for sorting and hashing (indices below 2^30).
    [[nodiscard]] constexpr std::uint64_t key() const {
        const auto field = [](FeatureKind k, std::int32_t i) {
            return static_cast<std::uint64_t>(k) << 30 |
                   (static_cast<std::uint64_t>(static_cast<std::uint32_t>(i)) & 0x3fffffffU);
        };
        return field(kind_a, index_a) << 32 | field(kind_b, index_b);
    }
    /// The key of a speculative face point (ContactManifold::face): kind 3 in the top field,
    /// which no FeatureKind has, so that it never shares a warm start with the feature point
    /// of the same pair when their features coincide.
    [[nodiscard]] constexpr std::uint64_t speculative_key() const {
        return key() | std::uint64_t{3} << 62;
    }
    friend bool operator==(const FeatureId&, const FeatureId&) = default;
};

/// One point of a manifold.
struct ContactPoint {
    Vec3 on_a = Vec3::Zero(); ///< m, world, on A's grown surface
    Vec3 on_b = Vec3::Zero(); ///< m, world, on B's grown surface
    /// m, (on_a - on_b) . normal: the signed separation of the shapes there, negative when
    /// they overlap; on_a - on_b = gap * normal.
    double gap = 0.0;
    FeatureId id;
};

/// Which features made the manifold.
enum class ContactType : std::uint8_t {
    face_a,  ///< a face of A is the reference, a face of B was clipped against it
    face_b,  ///< a face of B is the reference, a face of A was clipped against it
    features ///< no face close to the normal: one point, closest points of edges or vertices
};

/// Points whose gaps are measured along one normal.
struct ManifoldPoints {
    std::array<ContactPoint, 4> points{};
    int count = 0; ///< 0 to 4
    /// Unit, world, from B towards A.
    Vec3 normal = Vec3::Zero();
};

/// Up to four contact points and the normal their gaps are measured along.
struct ContactManifold {
    std::array<ContactPoint, 4> points{};
    int count = 0; ///< 1 to 4; 0 when nothing is within max_gap
    /// Unit, world, from B towards A: the reference face's outward normal (turned to point from
    /// B to A) for a face contact, the normal given otherwise.
    Vec3 normal = Vec3::Zero();
    ContactType type = ContactType::features;
    int reference_face = -1; ///< face of A (face_a) or of B (face_b); -1 for features
    /// For an edge or vertex contact (type features), the speculative face points: the pair of
    /// faces best aligned with the normal, within speculative_face_cos of it, clipped as a face
    /// contact with the reference face's own normal (see contact_manifold). Empty otherwise.
    ManifoldPoints face;
};

/// A face is the reference when the cosine of its normal with the contact normal is at least
/// this (within 1.15 degrees). Far above the error of a normal from GJK or EPA on shapes with a
/// margin (round-off over the gap, ~1e-13 rad), so a face contact is never missed; an edge-edge
/// contact whose normal is that close to a face is then clipped as a face contact, its gaps
/// measured along a normal at most this far off, and never shorter than the shapes' distance
/// (see contact_manifold).
inline constexpr double face_contact_cos = 0.9998;
/// An edge or vertex contact also gets the clipped points of the faces best aligned with its
/// normal when one is within this cosine of it (25 degrees): one point about which a turning
/// grain pivots cannot stop a face from swinging into the other grain within the step.
inline constexpr double speculative_face_cos = 0.9063;
/// An edge at a support vertex is the supporting feature of an edge or vertex contact when the
/// sine of its angle with the plane normal to the contact normal is at most this (the same
/// 1.15 degrees: 0.9998^2 + 0.02^2 = 1). Taking an edge where the vertex alone supports does
/// no harm (its closest point is then the vertex), so the angle need not be small.
inline constexpr double edge_contact_sin = 0.02;
/// A's face stays the reference unless B's face's cosine with the normal is larger by more than
/// this: a tie rule that keeps faces parallel to round-off on A (deterministic, and the same
/// reference from step to step), while a face of A within sqrt(2e-9) = 4.5e-5 rad of B's
/// further from the normal lengthens the gaps by at most a relative 1e-9.
inline constexpr double reference_tie = 1e-9;
/// Incident points within this times the size of the coordinates (the reference face's
/// farthest vertex from its body origin plus the bodies' distance) of a side plane of the
/// reference face count as on it: kept as they are, never split into a near copy. Far above
/// round-off (1e-16 relative), far below any feature of a grain.
inline constexpr double clip_tolerance = 1e-12;
/// Faces have at most this many vertices (grains' faces have 3 to a few tens): the clipping
/// works in fixed arrays of twice this size. A shape table should refuse larger faces on load.
inline constexpr int manifold_max_face_vertices = 64;

/// The contact manifold of A and B for the unit contact normal `normal` (world, from B towards
/// A; normalised here): up to four points with gap <= max_gap (m), deepest first. Face and
/// edge-face contacts give one to four points clipped from the incident face, edge-edge and
/// vertex contacts one. For disjoint shapes and the normal of their closest points, every
/// gap is at least their distance (a point of the clipped polygon inside the reference face's
/// prism is at least as far from the other shape as from the reference face) and the smallest
/// is their distance when a face of either is the closest feature. Empty when every point found
/// is farther than max_gap (the shapes are then at least about that far apart).
///
/// `separation` (m, optional) is the shapes' signed distance along the normal that the caller
/// knows (GJK's distance, or minus EPA's depth, less both margins). Deep in, the deepest vertex
/// can lie outside the reference face's prism, and every clipped point be shallower than the
/// shapes are: a solver given only those would let them sink further (seen in a 1e4-grain
/// collapse: clipped gaps of +0.24 m where the grains overlapped by 0.19 m). When the smallest
/// gap exceeds `separation` by more than both margins, the supporting features' point (the
/// edge or vertex contact's, as deep as the shapes) is put first.
///
/// An edge or vertex contact has one point, about which grains turning into each other pivot:
/// a face that swings into the other grain within the step has no constraint until the next
/// step finds it, already overlapping (seen in a 1e4-grain collapse at dt = 8 s: faces 0.5 m
/// into each other about one edge contact). When a face of A or B is within
/// speculative_face_cos of the normal, its face manifold (with its own normal) is kept beside
/// the point as `face` when `speculative_faces` is set: the points within max_gap, with
/// positive gaps no smaller than the feature point's. Their gaps are positive while the faces are
/// apart, so they act only when the faces would close within the step (speculative contacts, Catto
/// 2013, GDC, "Continuous collision"). Throws std::invalid_argument for a normal of zero or
/// non-finite length, a negative or non-finite margin, or a face of more than
/// manifold_max_face_vertices vertices.
[[nodiscard]] ContactManifold
contact_manifold(const PlacedPolyhedron& a, const PlacedPolyhedron& b, const Vec3& normal,
                 double max_gap, double separation = std::numeric_limits<double>::quiet_NaN(),
                 bool speculative_faces = false);

} // namespace rubble::polyhedra
