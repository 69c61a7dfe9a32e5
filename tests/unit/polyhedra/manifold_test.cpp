// SPDX-License-Identifier: MIT
// Contact manifolds of convex polyhedra (polyhedra/manifold.hpp; issue 21, item 2): boxes and a
// tetrahedron resting on a face, on an edge, on a corner and crossing edges, against their
// analytic contact points; margins; feature ids; and random pairs of hulls and boxes, touching
// or slightly overlapping along the normal GJK finds, against the planes of both shapes and the
// exact distance by exhaustion over features (tests/support/polytope_reference.hpp).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "deep_pair_fixture.hpp"
#include "polytope_reference.hpp"
#include "rubble/core/polyhedron.hpp"
#include "rubble/core/random.hpp"
#include "rubble/ic/aggregates.hpp"
#include "rubble/polyhedra/epa.hpp"
#include "rubble/polyhedra/gjk.hpp"
#include "rubble/polyhedra/manifold.hpp"
#include "rubble/polyhedra/point3_eigen.hpp"
#include "rubble/polyhedra/support.hpp"
#include "tolerances.hpp"

using namespace rubble;
using polyhedra::ContactManifold;
using polyhedra::ContactType;
using polyhedra::FeatureKind;
using polyhedra::PlacedPolyhedron;
using polyhedra::Pose;
using shapes::Polyhedron;

namespace {

// The analytic cases have unit-sized shapes near the origin: coordinates of order 1, each a few
// roundings (a rotation, a translation, a projection) from exact.
constexpr double tight = 16 * test::eps;
const Vec3 up(0.0, 0.0, 1.0);

Polyhedron box(const Vec3& edges) {
    return shapes::make_polyhedron(ic::box_hull(edges));
}

Pose place(const Vec3& at, const Quat& q = Quat::Identity()) {
    return Pose{at, q.toRotationMatrix()};
}

Quat about(const Vec3& axis, double angle) {
    return Quat(Eigen::AngleAxisd(angle, axis.normalized()));
}

Vec3 world(const Pose& p, const Vec3& body) {
    return p.position + p.rotation * body;
}

std::vector<Vec3> world_vertices(const Polyhedron& p, const Pose& pose) {
    std::vector<Vec3> out;
    for (const Vec3& v : p.hull.vertices)
        out.push_back(world(pose, v));
    return out;
}

// Largest face-plane distance of a world point from a placed polyhedron (<= 0 inside).
double plane_distance(const Polyhedron& p, const Pose& pose, const Vec3& x) {
    const Vec3 y = pose.rotation.transpose() * (x - pose.position);
    double d = -1e300;
    for (std::size_t f = 0; f < p.face_count(); ++f)
        d = std::max(d, p.face_normals[f].dot(y) - p.face_offsets[f]);
    return d;
}

// Whether each expected point is met by exactly one of the manifold's on_a (or on_b) points.
void expect_points(const ContactManifold& m, bool on_a, std::vector<Vec3> expected, double tol) {
    ASSERT_EQ(m.count, static_cast<int>(expected.size()));
    for (int k = 0; k < m.count; ++k) {
        const Vec3& x = on_a ? m.points[static_cast<std::size_t>(k)].on_a
                             : m.points[static_cast<std::size_t>(k)].on_b;
        const auto hit = std::find_if(expected.begin(), expected.end(),
                                      [&](const Vec3& e) { return (e - x).norm() <= tol; });
        ASSERT_NE(hit, expected.end()) << "point " << k << " at " << x.transpose();
        expected.erase(hit);
    }
}

void expect_gaps(const ContactManifold& m, double gap, double tol) {
    for (int k = 0; k < m.count; ++k) {
        const auto& p = m.points[static_cast<std::size_t>(k)];
        EXPECT_NEAR(p.gap, gap, tol);
        EXPECT_LE((p.on_a - p.on_b - p.gap * m.normal).norm(), tol);
    }
}

// The corners of the face z = -h/2 of a box of edges e, placed.
std::vector<Vec3> bottom_corners(const Vec3& e, const Pose& pose) {
    std::vector<Vec3> out;
    for (const double x : {-0.5, 0.5})
        for (const double y : {-0.5, 0.5})
            out.push_back(world(pose, Vec3(x * e.x(), y * e.y(), -0.5 * e.z())));
    return out;
}

// A unit box resting on a 4 x 4 x 1 slab's top face (z = 0.5) at gap g, turned about the normal:
// held at its four bottom corners, whichever of the two is A.
TEST(ContactManifold, BoxOnALargerBoxIsHeldAtItsFourCorners) {
    const Polyhedron slab = box(Vec3(4, 4, 1)), cube = box(Vec3(1, 1, 1));
    const double g = 1e-3;
    for (const double angle : {0.0, 0.3, pi / 4, 1.2}) {
        SCOPED_TRACE(angle);
        const Pose top = place(Vec3(0.2, -0.3, 1.0 + g), about(up, angle));
        const Pose bottom = place(Vec3::Zero());
        const auto m = polyhedra::contact_manifold({cube, top}, {slab, bottom}, up, 0.01);
        EXPECT_EQ(m.type, ContactType::face_a); // parallel faces: A's is the reference
        EXPECT_LE((m.normal - up).norm(), tight);
        expect_points(m, true, bottom_corners(Vec3(1, 1, 1), top), tight);
        expect_gaps(m, g, tight);
        // The other way round: the slab is A, the normal points down.
        const auto r = polyhedra::contact_manifold({slab, bottom}, {cube, top}, -up, 0.01);
        EXPECT_EQ(r.type, ContactType::face_a);
        expect_points(r, false, bottom_corners(Vec3(1, 1, 1), top), tight);
        expect_gaps(r, g, tight);
    }
}

// A normal off the faces' by 0.01 rad (inside face_contact_cos) still gives the face contact,
// measured along the face's exact normal.
TEST(ContactManifold, ANormalNearTheFaceNormalMeasuresAlongTheFace) {
    const Polyhedron slab = box(Vec3(4, 4, 1)), cube = box(Vec3(1, 1, 1));
    const Pose top = place(Vec3(0.1, 0.0, 1.002), about(up, 0.4));
    const Vec3 tilted = (up + Vec3(0.01, 0.0, 0.0)).normalized();
    const auto m =
        polyhedra::contact_manifold({cube, top}, {slab, place(Vec3::Zero())}, tilted, 0.01);
    EXPECT_LE((m.normal - up).norm(), tight);
    expect_points(m, true, bottom_corners(Vec3(1, 1, 1), top), tight);
    expect_gaps(m, 0.002, tight);
}

// Two unit boxes face to face: aligned, the four corners (each an incident vertex, kept as it
// is on the side planes); turned by 45 degrees, the clipped polygon is a regular octagon of
// eight candidates, cut to the four that span the largest area, every other corner (2 R^2).
TEST(ContactManifold, EqualBoxesTurnedByFortyFiveDegreesKeepTheLargestQuadOfTheOctagon) {
    const Polyhedron cube = box(Vec3(1, 1, 1));
    const double g = 1e-4;
    const Pose bottom = place(Vec3::Zero());
    const auto aligned =
        polyhedra::contact_manifold({cube, place(Vec3(0, 0, 1 + g))}, {cube, bottom}, up, 0.01);
    expect_points(aligned, false, bottom_corners(Vec3(1, 1, 1), place(Vec3(0, 0, 1))), tight);
    expect_gaps(aligned, g, tight);
    for (int k = 0; k < aligned.count; ++k) // corners of B on A's face
        EXPECT_EQ(aligned.points[static_cast<std::size_t>(k)].id.kind_b, FeatureKind::vertex);

    const auto m = polyhedra::contact_manifold({cube, place(Vec3(0, 0, 1 + g), about(up, pi / 4))},
                                               {cube, bottom}, up, 0.01);
    ASSERT_EQ(m.count, 4);
    expect_gaps(m, g, tight);
    const double s = 0.5 * std::sqrt(2.0); // half-diagonal: the turned square is |x| + |y| <= s
    std::vector<Vec3> quad;
    for (int k = 0; k < 4; ++k) {
        const Vec3& x = m.points[static_cast<std::size_t>(k)].on_b;
        EXPECT_NEAR(std::max(std::abs(x.x()), std::abs(x.y())), 0.5, tight); // a corner of
        EXPECT_NEAR(std::abs(x.x()) + std::abs(x.y()), s, tight);            // the octagon
        quad.push_back(x);
    }
    std::sort(quad.begin(), quad.end(), [](const Vec3& a, const Vec3& b) {
        return std::atan2(a.y(), a.x()) < std::atan2(b.y(), b.x());
    });
    double area = 0.0;
    for (std::size_t k = 0; k < 4; ++k)
        area += 0.5 * quad[k].cross(quad[(k + 1) % 4]).z();
    const double r2 = 0.25 + (s - 0.5) * (s - 0.5); // the octagon's circumradius squared
    EXPECT_NEAR(area, 2 * r2, tight);
}

// A unit box turned 45 degrees about x rests on its bottom edge (along x): two points, the
// edge's ends; its other points on the incident face are 0.7 m up, beyond max_gap.
TEST(ContactManifold, BoxOnItsEdgeIsHeldAtTheEdgeEnds) {
    const Polyhedron slab = box(Vec3(4, 4, 1)), cube = box(Vec3(1, 1, 1));
    const double g = 1e-3, h = 0.5 * std::sqrt(2.0);
    const Pose top = place(Vec3(0.3, 0.2, 0.5 + g + h), about(Vec3::UnitX(), pi / 4));
    const auto m = polyhedra::contact_manifold({cube, top}, {slab, place(Vec3::Zero())}, up, 0.01);
    EXPECT_EQ(m.type, ContactType::face_b);
    expect_points(m, true, {Vec3(-0.2, 0.2, 0.5 + g), Vec3(0.8, 0.2, 0.5 + g)}, tight);
    expect_gaps(m, g, tight);
}

// One point under a corner: a cube with its diagonal vertical, a tetrahedron apex down.
TEST(ContactManifold, CornerAndApexDownAreOnePoint) {
    const Polyhedron slab = box(Vec3(4, 4, 1)), cube = box(Vec3(1, 1, 1));
    const Polyhedron tetra = shapes::make_polyhedron(ic::tetrahedron_hull(1.0));
    const double g = 2e-3;
    const Quat corner_down = Quat::FromTwoVectors(Vec3(1, 1, 1).normalized(), -up);
    const Pose c = place(Vec3(-0.4, 0.1, 0.5 + g + 0.5 * std::sqrt(3.0)), corner_down);
    const auto m = polyhedra::contact_manifold({cube, c}, {slab, place(Vec3::Zero())}, up, 0.01);
    expect_points(m, true, {Vec3(-0.4, 0.1, 0.5 + g)}, 4 * tight);
    expect_gaps(m, g, 4 * tight);
    EXPECT_EQ(m.points[0].id.kind_a, FeatureKind::vertex);

    // tetrahedron_hull has its apex on +z at the circumradius: turned over, it points down.
    const Pose t = place(Vec3(0.2, 0.3, 1.5 + g), about(Vec3::UnitX(), pi));
    const auto apex =
        polyhedra::contact_manifold({tetra, t}, {slab, place(Vec3::Zero())}, up, 0.01);
    expect_points(apex, true, {Vec3(0.2, 0.3, 0.5 + g)}, 4 * tight);
    expect_gaps(apex, g, 4 * tight);

    // The right way up it stands on its base: the base triangle's three corners.
    const Pose base = place(Vec3(0.2, 0.3, 0.5 + g + 1.0 / 3.0));
    const auto tripod =
        polyhedra::contact_manifold({tetra, base}, {slab, place(Vec3::Zero())}, up, 0.01);
    std::vector<Vec3> feet;
    for (const Vec3& v : tetra.hull.vertices)
        if (v.z() < 0.0) feet.push_back(world(base, v));
    expect_points(tripod, true, feet, 4 * tight);
    expect_gaps(tripod, g, 4 * tight);
}

// Two edges crossing at right angles: one point, on both edges, with their ids.
TEST(ContactManifold, CrossingEdgesAreOnePointOnBoth) {
    const Polyhedron cube = box(Vec3(1, 1, 1));
    const double g = 1e-3, h = 0.5 * std::sqrt(2.0);
    const Pose low = place(Vec3::Zero(), about(Vec3::UnitY(), pi / 4)); // top edge along y
    const Pose high = place(Vec3(0, 0, 2 * h + g), about(Vec3::UnitX(), pi / 4)); // bottom along x
    const auto m = polyhedra::contact_manifold({cube, high}, {cube, low}, up, 0.01);
    EXPECT_EQ(m.type, ContactType::features);
    expect_points(m, true, {Vec3(0, 0, h + g)}, tight);
    expect_gaps(m, g, tight);
    EXPECT_EQ(m.points[0].id.kind_a, FeatureKind::edge);
    EXPECT_EQ(m.points[0].id.kind_b, FeatureKind::edge);
}

// Shapes grown by margins: the cores 2 margin + g apart give gap g, with the points on the
// grown surfaces (a margin out from the cores' faces).
TEST(ContactManifold, MarginsAreTakenFromTheCoresGap) {
    const Polyhedron slab = box(Vec3(4, 4, 1)), cube = box(Vec3(1, 1, 1));
    const double margin = 0.05, g = 1e-3;
    const Pose top = place(Vec3(0.2, -0.3, 1.0 + 2 * margin + g), about(up, 0.3));
    const auto m = polyhedra::contact_manifold({cube, top, margin},
                                               {slab, place(Vec3::Zero()), margin}, up, 0.01);
    std::vector<Vec3> grown = bottom_corners(Vec3(1, 1, 1), top);
    for (Vec3& x : grown)
        x -= margin * up;
    expect_points(m, true, grown, tight);
    expect_gaps(m, g, tight);
    for (int k = 0; k < m.count; ++k)
        EXPECT_NEAR(m.points[static_cast<std::size_t>(k)].on_b.z(), 0.5 + margin, tight);

    // A corner: the core corner's gap less both margins, which may be negative.
    const Quat corner_down = Quat::FromTwoVectors(Vec3(1, 1, 1).normalized(), -up);
    const Pose c = place(Vec3(0, 0, 0.5 + 0.06 + 0.5 * std::sqrt(3.0)), corner_down);
    const auto one =
        polyhedra::contact_manifold({cube, c, 0.04}, {slab, place(Vec3::Zero()), 0.03}, up, 0.01);
    ASSERT_EQ(one.count, 1);
    EXPECT_NEAR(one.points[0].gap, 0.06 - 0.07, 4 * tight);
    EXPECT_NEAR(one.points[0].on_a.z(), 0.5 + 0.06 - 0.04, 4 * tight);
    EXPECT_NEAR(one.points[0].on_b.z(), 0.5 + 0.03, 4 * tight);
}

// Nothing within max_gap: no points. Bad input: refused.
TEST(ContactManifold, FarShapesGiveNoPointsAndBadInputIsRefused) {
    const Polyhedron slab = box(Vec3(4, 4, 1)), cube = box(Vec3(1, 1, 1));
    const Pose top = place(Vec3(0, 0, 1.1)), bottom = place(Vec3::Zero());
    EXPECT_EQ(polyhedra::contact_manifold({cube, top}, {slab, bottom}, up, 0.01).count, 0);
    EXPECT_EQ(polyhedra::contact_manifold({cube, top}, {slab, bottom}, up, 0.2).count, 4);
    EXPECT_THROW((void)polyhedra::contact_manifold({cube, top}, {slab, bottom}, Vec3::Zero(), 0.1),
                 std::invalid_argument);
    EXPECT_THROW((void)polyhedra::contact_manifold({cube, top, -0.1}, {slab, bottom}, up, 0.1),
                 std::invalid_argument);
}

// The stepper matches points by id: distinct within a manifold, and the same after a small move
// and turn that keeps the same features in touch.
TEST(ContactManifold, FeatureIdsAreDistinctAndSurviveSmallMoves) {
    const Polyhedron slab = box(Vec3(4, 4, 1)), cube = box(Vec3(1, 1, 1));
    const Pose bottom = place(Vec3::Zero());
    const auto before = polyhedra::contact_manifold(
        {cube, place(Vec3(0.2, -0.3, 1.001), about(up, 0.3))}, {slab, bottom}, up, 0.01);
    const auto after = polyhedra::contact_manifold(
        {cube, place(Vec3(0.2005, -0.301, 1.0012), about(up, 0.3002))}, {slab, bottom}, up, 0.01);
    ASSERT_EQ(before.count, 4);
    ASSERT_EQ(after.count, 4);
    std::set<std::uint64_t> keys;
    for (std::size_t k = 0; k < 4; ++k) {
        keys.insert(before.points[k].id.key());
        EXPECT_EQ(before.points[k].id, after.points[k].id);
    }
    EXPECT_EQ(keys.size(), 4U);
}

// Random pairs.

// A placed polyhedron with a margin, and its support functor for GJK.
struct Body {
    Polyhedron core;
    Pose pose;
    double margin = 0.0;
    std::vector<polyhedra::Point3> body; // body-frame vertices for the support functor

    Body(Polyhedron p, const Pose& at) : core(std::move(p)), pose(at) {
        for (const Vec3& v : core.hull.vertices)
            body.push_back(polyhedra::to_point3(v));
    }
    [[nodiscard]] PlacedPolyhedron placed() const { return {core, pose, margin}; }
    [[nodiscard]] polyhedra::PolytopeSupport support() const {
        polyhedra::PolytopeSupport s;
        s.vertices = body.data();
        s.count = static_cast<int>(body.size());
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                s.rot[3 * i + j] = pose.rotation(i, j);
        s.pos = polyhedra::to_point3(pose.position);
        return s;
    }
    [[nodiscard]] std::vector<Vec3> world() const { return world_vertices(core, pose); }
    [[nodiscard]] test::ReferencePolytope reference() const {
        return test::ReferencePolytope(world(), core.hull.faces);
    }
    // Support extent of the core along a world direction u: max u . x.
    [[nodiscard]] double extent(const Vec3& u) const {
        double e = -1e300;
        for (const Vec3& v : world())
            e = std::max(e, u.dot(v));
        return e;
    }
};

// Uniform on SO(3) (Shoemake 1992, Graphics Gems III, "Uniform random rotations").
Quat random_manifold_rotation(Rng& rng) {
    const double u1 = rng.uniform(), u2 = 2 * pi * rng.uniform(), u3 = 2 * pi * rng.uniform();
    const double a = std::sqrt(1 - u1), b = std::sqrt(u1);
    return Quat(a * std::sin(u2), a * std::cos(u2), b * std::sin(u3), b * std::cos(u3));
}

Polyhedron random_shape(bool is_box, Rng& rng) {
    if (is_box)
        return box(Vec3(rng.uniform(0.5, 2.0), rng.uniform(0.5, 2.0), rng.uniform(0.5, 2.0)));
    return shapes::make_polyhedron(
        ic::random_ellipsoid_hull(Vec3(1.0, 0.8, 0.6) * rng.uniform(0.5, 2.0), rng));
}

// The largest separation of the cores along a face normal of either: the exact distance when
// (and only when) a face of either holds the closest points, less otherwise.
double face_separation(const Body& a, const Body& b) {
    double best = -1e300;
    for (const auto& [p, q] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
        const std::vector<Vec3> other = q->world();
        for (std::size_t f = 0; f < p->core.face_count(); ++f) {
            const Vec3 n = p->pose.rotation * p->core.face_normals[f];
            const double offset = p->core.face_offsets[f] + n.dot(p->pose.position);
            double low = 1e300;
            for (const Vec3& x : other)
                low = std::min(low, n.dot(x));
            best = std::max(best, low - offset);
        }
    }
    return best;
}

// Two random shapes of the kind (0: hulls, 1: box and hull, 2: boxes, 3: boxes with parallel
// faces, B on a face of A turned about its normal and shifted along it), A up to 10 m from the
// origin, B touching it from 1e-6 to 1e-2 of their reach away.
std::pair<Body, Body> random_pair(int kind, Rng& rng) {
    Body a(random_shape(kind >= 1, rng), place(rng.in_ball(10.0), random_manifold_rotation(rng)));
    const double s = std::pow(10.0, rng.uniform(-6.0, -2.0));
    if (kind == 3) {
        Body b(random_shape(true, rng), Pose{});
        const Vec3 ea = a.core.hull.vertices[7] - a.core.hull.vertices[0]; // box_hull's corners
        const Vec3 eb = b.core.hull.vertices[7] - b.core.hull.vertices[0];
        const Vec3 side(rng.uniform(-0.4, 0.4) * ea.x(), rng.uniform(-0.4, 0.4) * ea.y(),
                        0.5 * (ea.z() + eb.z()) * (1.0 + s));
        b.pose.rotation = a.pose.rotation * about(up, rng.uniform(0.0, 2 * pi)).toRotationMatrix();
        b.pose.position = world(a.pose, side);
        return {std::move(a), std::move(b)};
    }
    Body b(random_shape(kind >= 2, rng), place(Vec3::Zero(), random_manifold_rotation(rng)));
    const Vec3 u = rng.unit_vector();
    const double reach = (a.extent(u) - u.dot(a.pose.position)) + b.extent(-u);
    b.pose.position = a.pose.position + u * reach * (1.0 + s);
    return {std::move(a), std::move(b)};
}

// Random pairs, a third of them with margins, 30 % of them pushed into each other along the
// normal by 1e-6 to 1e-2 of their size; the normal from GJK's closest points. Tolerances: the
// round-off of world coordinates, 64 eps of their size (|positions| + circumradii, as in the GJK
// test), which covers the few roundings between the shapes' vertices, the manifold's points and
// the reference's world vertices; on the surfaces, also the clipping band (clip_tolerance times
// the same size) within which a point beyond a side plane counts as on it. For every point:
//   - gap <= max_gap, and on_a - on_b = gap * normal;
//   - on_a on A's grown surface and on_b on B's (a margin out along the normal from the
//     cores' face planes);
//   - on_b on or inside A grown by max_gap, on_a in B grown by max_gap (face planes);
//   - gap >= the cores' separation along the normal less the margins (no point of either
//     core is nearer the other along it), and, for disjoint cores, >= their exact distance
//     less the margins: no point claims a smaller separation than the shapes have.
// For every manifold 1 to 4 points; when a face of either holds the closest points, the smallest
// gap is the exact distance (less what the pair was pushed in), and equals GJK's distance.
// The speculative face points of edge and vertex contacts: only beside one feature point, with
// a normal within speculative_face_cos of the contact's, positive gaps no smaller than the
// feature point's, and the same conditions on the surfaces and distances along their normal.
TEST(ContactManifold, RandomPairsAreOnTheirShapesAndNeverCloserThanTheShapes) {
    Rng rng(2111);
    std::array<int, 5> counts{};
    int face_closest = 0, pairs = 0, overlapping = 0, speculative = 0;
    double worst_face = 0.0, worst_below = 0.0; // in units of eps times the coordinates' size
    for (int k = 0; k < 1200; ++k) {
        auto [a, b] = random_pair(k % 4, rng);
        const double size = std::min(shapes::circumradius(a.core), shapes::circumradius(b.core));
        if ((k / 4) % 3 == 1) {
            a.margin = rng.uniform(0.0, 0.05) * size;
            b.margin = rng.uniform(0.0, 0.05) * size;
        }
        const auto r = polyhedra::gjk_distance(
            a.support(), b.support(), polyhedra::to_point3(b.pose.position - a.pose.position));
        ASSERT_TRUE(r.converged);
        ASSERT_FALSE(r.overlap);
        const Vec3 n = (polyhedra::to_vec3(r.on_a) - polyhedra::to_vec3(r.on_b)).normalized();
        const double exact =
            static_cast<double>(test::polytope_distance(a.reference(), b.reference()));
        const bool face =
            face_separation(a, b) >=
            exact - 64 * test::eps * (a.pose.position.norm() + b.pose.position.norm() + 2 * size);
        const double margins = a.margin + b.margin;
        double max_gap = exact - margins + 0.05 * size, pushed = 0.0;
        const bool overlap = rng.uniform() < 0.3;
        if (overlap) {
            pushed = r.distance + std::pow(10.0, rng.uniform(-6.0, -2.0)) * size;
            b.pose.position += pushed * n;
            max_gap = 0.05 * size;
            ++overlapping;
        }
        const double scale = a.pose.position.norm() + b.pose.position.norm() +
                             shapes::circumradius(a.core) + shapes::circumradius(b.core);
        const double tol = 64 * test::eps * scale;
        const double surface = tol + polyhedra::clip_tolerance * scale;
        SCOPED_TRACE(::testing::Message() << "pair " << k << ", kind " << k % 4 << ", overlap "
                                          << overlap << ", distance " << exact);

        const ContactManifold m = polyhedra::contact_manifold(
            a.placed(), b.placed(), n, max_gap, std::numeric_limits<double>::quiet_NaN(), true);
        // Without the face points (the default) the same manifold and nothing beside it.
        const ContactManifold plain =
            polyhedra::contact_manifold(a.placed(), b.placed(), n, max_gap);
        EXPECT_EQ(plain.face.count, 0);
        ASSERT_EQ(plain.count, m.count);
        for (int i = 0; i < m.count; ++i)
            EXPECT_EQ(plain.points[static_cast<std::size_t>(i)].gap,
                      m.points[static_cast<std::size_t>(i)].gap);
        ASSERT_GE(m.count, 1);
        ASSERT_LE(m.count, 4);
        ++counts[static_cast<std::size_t>(m.count)];
        ++pairs;
        EXPECT_NEAR(m.normal.norm(), 1.0, 4 * test::eps);
        const Vec3& mn = m.normal;
        const double along = a.extent(-mn) * -1.0 - b.extent(mn); // min_A mn.x - max_B mn.x
        double smallest = 1e300;
        for (int i = 0; i < m.count; ++i) {
            const auto& p = m.points[static_cast<std::size_t>(i)];
            smallest = std::min(smallest, p.gap);
            EXPECT_LE(p.gap, max_gap + tol);
            EXPECT_LE((p.on_a - p.on_b - p.gap * mn).norm(), tol);
            EXPECT_NEAR(plane_distance(a.core, a.pose, p.on_a + a.margin * mn), 0.0, surface);
            EXPECT_NEAR(plane_distance(b.core, b.pose, p.on_b - b.margin * mn), 0.0, surface);
            EXPECT_LE(plane_distance(a.core, a.pose, p.on_b), a.margin + max_gap + surface);
            EXPECT_LE(plane_distance(b.core, b.pose, p.on_a), b.margin + max_gap + surface);
            EXPECT_GE(p.gap, along - margins - tol);
            if (!overlap) {
                EXPECT_GE(p.gap, exact - margins - tol);
                worst_below =
                    std::max(worst_below, (exact - margins - p.gap) / (test::eps * scale));
            }
        }
        if (m.face.count > 0) {
            ++speculative;
            EXPECT_EQ(m.type, ContactType::features);
            EXPECT_EQ(m.count, 1);
            EXPECT_LE(m.face.count, 4);
            const Vec3& fn = m.face.normal;
            EXPECT_NEAR(fn.norm(), 1.0, 4 * test::eps);
            EXPECT_GE(fn.dot(mn), polyhedra::speculative_face_cos);
            EXPECT_LT(fn.dot(mn), polyhedra::face_contact_cos);
            for (int i = 0; i < m.face.count; ++i) {
                const auto& p = m.face.points[static_cast<std::size_t>(i)];
                EXPECT_GE(p.gap, std::max(0.0, m.points[0].gap));
                EXPECT_LE(p.gap, max_gap + tol);
                EXPECT_LE((p.on_a - p.on_b - p.gap * fn).norm(), tol);
                EXPECT_NEAR(plane_distance(a.core, a.pose, p.on_a + a.margin * fn), 0.0, surface);
                EXPECT_NEAR(plane_distance(b.core, b.pose, p.on_b - b.margin * fn), 0.0, surface);
                if (!overlap) {
                    EXPECT_GE(p.gap, exact - margins - tol);
                }
            }
        }
        if (face) {
            ++face_closest;
            EXPECT_NE(m.type, ContactType::features);
            EXPECT_NEAR(smallest, exact - pushed - margins, tol);
            EXPECT_NEAR(smallest, r.distance - pushed - margins, tol);
            worst_face = std::max(worst_face, std::abs(smallest - (exact - pushed - margins)) /
                                                  (test::eps * scale));
        }
    }
    EXPECT_EQ(counts[0], 0);
    EXPECT_GT(counts[1], pairs / 10); // single points and full quads both exercised
    EXPECT_GT(counts[4], pairs / 20);
    EXPECT_GT(face_closest, pairs / 4);
    EXPECT_GT(overlapping, pairs / 5);
    EXPECT_GT(speculative, pairs / 50); // the face points are exercised
    ::testing::Test::RecordProperty("speculative_face_points", speculative);
    ::testing::Test::RecordProperty("points_1_2_3_4", ::testing::PrintToString(std::vector<int>(
                                                          counts.begin() + 1, counts.end())));
    ::testing::Test::RecordProperty("face_closest", face_closest);
    ::testing::Test::RecordProperty("worst_face_gap_error_eps",
                                    ::testing::PrintToString(worst_face));
    ::testing::Test::RecordProperty("worst_gap_below_distance_eps",
                                    ::testing::PrintToString(worst_below));
}

// The smallest gap of a manifold's points (m; +infinity without points).
double smallest_gap(const ContactManifold& m) {
    double s = std::numeric_limits<double>::infinity();
    for (int i = 0; i < m.count; ++i)
        s = std::min(s, m.points[static_cast<std::size_t>(i)].gap);
    return s;
}

TEST(ContactManifold, DeepOverlapsKeepAPointAsDeepAsTheShapes) {
    // Random hulls, boxes and the margin cores of hulls (shapes::shrunk: many small faces, as
    // a run's grains have), turned at random and overlapping deeply (centres 55 % to 95 % of
    // the sum of their circumradii apart): EPA gives the normal and the depth, as the NSC
    // stepper takes them. Deep in, the support vertex can lie outside the reference face's
    // prism and every clipped point be shallower than the shapes are (seen in a 1e4-grain
    // collapse); with the depth given, the manifold then leads with the supporting features'
    // point (DeepPairFromACollapse shows the failure without it).
    Rng rng(2113);
    int checked = 0;
    const auto shape = [&](int kind) {
        if (kind != 2) return random_shape(kind == 1, rng);
        const Polyhedron raw = random_shape(false, rng);
        Vec3 centre = Vec3::Zero(); // inside: a mean of its vertices
        for (const Vec3& v : raw.hull.vertices)
            centre += v / static_cast<double>(raw.hull.vertices.size());
        const Polyhedron hull = shapes::translated(raw, -centre);
        return shapes::shrunk(hull, 0.01 * shapes::inradius_about_origin(hull));
    };
    for (int k = 0; k < 900; ++k) {
        Body a(shape(k % 3), place(rng.in_ball(10.0), random_manifold_rotation(rng)));
        Body b(shape((k / 3) % 3), place(Vec3::Zero(), random_manifold_rotation(rng)));
        const double reach = shapes::circumradius(a.core) + shapes::circumradius(b.core);
        b.pose.position = a.pose.position + rng.uniform(0.55, 0.95) * reach * rng.unit_vector();
        const double size = std::min(shapes::circumradius(a.core), shapes::circumradius(b.core));
        if (k % 2 == 1) {
            a.margin = rng.uniform(0.0, 0.02) * size;
            b.margin = rng.uniform(0.0, 0.02) * size;
        }
        const auto e = polyhedra::penetration_depth(
            a.support(), b.support(), polyhedra::to_point3(b.pose.position - a.pose.position));
        if (!e.overlap || !e.converged) continue;
        const double depth =
            static_cast<double>(test::polytope_penetration_depth(a.reference(), b.reference()));
        const double scale = a.pose.position.norm() + b.pose.position.norm() + 2 * size;
        const double tol = 1e-9 * scale; // EPA's bracket, far below the depths here
        ASSERT_NEAR(e.depth, depth, tol);
        const double margins = a.margin + b.margin;
        const double separation = -e.depth - margins;
        const Vec3 normal = -polyhedra::to_vec3(e.normal);
        SCOPED_TRACE(::testing::Message() << "pair " << k << ", depth " << depth);
        const ContactManifold m =
            polyhedra::contact_manifold(a.placed(), b.placed(), normal, 0.05 * size, separation);
        ASSERT_GE(m.count, 1);
        const double smallest = smallest_gap(m);
        EXPECT_LE(smallest, separation + margins + tol);
        EXPECT_EQ(m.points[0].gap, smallest); // the deepest first
        ++checked;
    }
    EXPECT_GT(checked, 200);
}

TEST(ContactManifold, DeepPairFromACollapse) {
    // The pair of tests/support/deep_pair_fixture.hpp, as the stepper saw it: EPA's normal and
    // depth (the exact one), and the manifold with and without that depth.
    std::vector<Body> cores;
    for (const test::deep_pair::Core& c : test::deep_pair::cores()) {
        std::vector<Vec3> v;
        for (const auto& x : c.vertices)
            v.emplace_back(x[0], x[1], x[2]);
        const Quat q(c.orientation[0], c.orientation[1], c.orientation[2], c.orientation[3]);
        cores.emplace_back(shapes::make_polyhedron(shapes::convex_hull(v)),
                           place(Vec3(c.position[0], c.position[1], c.position[2]), q));
        cores.back().margin = test::deep_pair::margin;
    }
    const Body &a = cores[0], &b = cores[1];
    const auto e = polyhedra::penetration_depth(
        a.support(), b.support(), polyhedra::to_point3(b.pose.position - a.pose.position));
    ASSERT_TRUE(e.overlap);
    const double depth =
        static_cast<double>(test::polytope_penetration_depth(a.reference(), b.reference()));
    const double tol = 1e-9 * (a.pose.position.norm() + b.pose.position.norm());
    ASSERT_NEAR(e.depth, depth, tol);
    EXPECT_GT(depth, 0.1); // m, deep: several margins
    const double margins = a.margin + b.margin, separation = -e.depth - margins;
    const Vec3 normal = -polyhedra::to_vec3(e.normal);
    const ContactManifold with =
        polyhedra::contact_manifold(a.placed(), b.placed(), normal, 1.0, separation);
    EXPECT_NEAR(smallest_gap(with), separation, tol);
    EXPECT_EQ(with.points[0].gap, smallest_gap(with));
    const ContactManifold without =
        polyhedra::contact_manifold(a.placed(), b.placed(), normal, 1.0);
    EXPECT_GT(smallest_gap(without), 0.0); // every point "apart" while the grains overlap
}

} // namespace
