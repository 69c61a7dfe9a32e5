// SPDX-License-Identifier: MIT
// The penetration depth of convex polytopes (polyhedra/epa.hpp) against analytic cases and
// against an exact reference by the separating-axis theorem in long double
// (tests/support/polytope_reference.hpp), on random overlapping hulls of 8 to 128 vertices
// (issue 21, item 2: depth to 1e-10 relative, every boolean overlap right).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "polytope_reference.hpp"
#include "rubble/core/convex_hull.hpp"
#include "rubble/core/random.hpp"
#include "rubble/polyhedra/epa.hpp"
#include "rubble/polyhedra/point3_eigen.hpp"
#include "rubble/polyhedra/support.hpp"
#include "tolerances.hpp"

using namespace rubble;
using polyhedra::Point3;
using polyhedra::PolytopeSupport;

namespace {

// A hull placed in the world: its body-frame vertices, and the support functor over them (as
// in gjk_test.cpp).
struct Placed {
    shapes::ConvexHull hull;
    std::vector<Point3> body;
    Quat q = Quat::Identity();
    Vec3 pos = Vec3::Zero();

    Placed(shapes::ConvexHull h, const Quat& rotation, const Vec3& at)
        : hull(std::move(h)), q(rotation), pos(at) {
        for (const Vec3& v : hull.vertices)
            body.push_back(polyhedra::to_point3(v));
    }
    [[nodiscard]] PolytopeSupport support() const {
        PolytopeSupport s;
        s.vertices = body.data();
        s.count = static_cast<int>(body.size());
        const Mat3 r = q.toRotationMatrix();
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                s.rot[3 * i + j] = r(i, j);
        s.pos = polyhedra::to_point3(pos);
        return s;
    }
    // The world vertices as the support functor computes them (the same rounding).
    [[nodiscard]] std::vector<Vec3> world() const {
        const PolytopeSupport s = support();
        std::vector<Vec3> out;
        for (const Point3& v : body)
            out.push_back(polyhedra::to_vec3(s.to_world(v)));
        return out;
    }
    [[nodiscard]] test::ReferencePolytope reference() const {
        return test::ReferencePolytope(world(), hull.faces);
    }
    // Support extent along a world direction u: max u . x.
    [[nodiscard]] double extent(const Vec3& u) const {
        double e = -1e300;
        for (const Vec3& v : world())
            e = std::max(e, u.dot(v));
        return e;
    }
    // How far the world point x lies outside the hull (<= 0 inside).
    [[nodiscard]] double outside(const Vec3& x) const {
        return shapes::plane_distance(hull, q.conjugate() * (x - pos));
    }
};

shapes::ConvexHull cube(double side) {
    std::vector<Vec3> p;
    for (int k = 0; k < 8; ++k)
        p.emplace_back((k & 1 ? 0.5 : -0.5) * side, (k & 2 ? 0.5 : -0.5) * side,
                       (k & 4 ? 0.5 : -0.5) * side);
    return shapes::convex_hull(p);
}

// n points drawn uniformly on an ellipsoid of semi-axes (1, 0.8, 0.6) r: every one a vertex.
shapes::ConvexHull ellipsoid_hull(int n, double r, Rng& rng) {
    std::vector<Vec3> p;
    for (int k = 0; k < n; ++k)
        p.push_back(rng.unit_vector().cwiseProduct(Vec3(1.0, 0.8, 0.6)) * r);
    return shapes::convex_hull(p);
}

// Uniform on SO(3) (Shoemake 1992, Graphics Gems III, "Uniform random rotations").
Quat random_rotation(Rng& rng) {
    const double u1 = rng.uniform(), u2 = 2 * pi * rng.uniform(), u3 = 2 * pi * rng.uniform();
    const double a = std::sqrt(1 - u1), b = std::sqrt(u1);
    return Quat(a * std::sin(u2), a * std::cos(u2), b * std::sin(u3), b * std::cos(u3));
}

polyhedra::PenetrationResult depth(const Placed& a, const Placed& b) {
    return polyhedra::penetration_depth(a.support(), b.support(),
                                        polyhedra::to_point3(b.pos - a.pos));
}

// h_A(n) + h_B(-n) in long double over the world vertices: the overlap of the shapes'
// projections on n, which the depth's normal must reach.
long double support_overlap(const test::ReferencePolytope& A, const test::ReferencePolytope& B,
                            const Vec3& n) {
    const test::Vec3L m = n.cast<long double>();
    long double a_max = -std::numeric_limits<long double>::infinity(), b_min = -a_max;
    for (const test::Vec3L& v : A.vertices)
        a_max = std::max(a_max, m.dot(v));
    for (const test::Vec3L& v : B.vertices)
        b_min = std::min(b_min, m.dot(v));
    return a_max - b_min;
}

TEST(Epa, FacingCubesPenetrateByTheirOverlap) {
    for (const double overlap : {0.3, 1e-3, 1e-9}) {
        const Placed a(cube(1.0), Quat::Identity(), Vec3::Zero());
        const Placed b(cube(1.0), Quat::Identity(), Vec3(1.0 - overlap, 0.3, -0.2));
        const auto r = depth(a, b);
        SCOPED_TRACE(::testing::Message() << "overlap " << overlap);
        EXPECT_TRUE(r.overlap);
        EXPECT_TRUE(r.converged);
        // The faces' planes sit at x = 0.5 and 1 - overlap - 0.5: their difference is exact to
        // the rounding of 1 - overlap.
        EXPECT_NEAR(r.depth, overlap, 2 * test::eps);
        EXPECT_NEAR(r.normal.x, 1.0, 2 * test::eps);
        EXPECT_NEAR(r.on_a.x - r.on_b.x, overlap, 2 * test::eps);
        EXPECT_NEAR(r.on_a.x, 0.5, 2 * test::eps);
        EXPECT_LE(r.lower_bound, r.upper_bound);
        EXPECT_NEAR(
            static_cast<double>(test::polytope_penetration_depth(a.reference(), b.reference())),
            overlap, 2 * test::eps);
    }
}

TEST(Epa, CornerIntoAFacePenetratesByTheCornerDepth) {
    // A cube turned so that its corner (1,1,1)/2 points along -x, its tip a depth g inside the
    // face x = 0.5 of an unturned cube, near the face's centre: pushing it back along x is
    // the shortest way out.
    const Quat corner_first = Quat::FromTwoVectors(Vec3(1, 1, 1).normalized(), Vec3(-1, 0, 0));
    const double g = 0.1, half_diagonal = std::sqrt(3.0) / 2;
    const Placed a(cube(1.0), Quat::Identity(), Vec3::Zero());
    const Placed b(cube(1.0), corner_first, Vec3(0.5 - g + half_diagonal, 0.1, 0.05));
    const auto r = depth(a, b);
    EXPECT_TRUE(r.overlap);
    EXPECT_TRUE(r.converged);
    EXPECT_NEAR(r.depth, g, 16 * test::eps);
    EXPECT_NEAR(r.normal.x, 1.0, 16 * test::eps);
    EXPECT_NEAR(static_cast<double>(test::polytope_penetration_depth(a.reference(), b.reference())),
                g, 16 * test::eps);
}

TEST(Epa, ContainedCubeLeavesThroughTheNearestFace) {
    // A cube of side 0.2 at (0.1, 0.05, 0) spans x in [0, 0.2] inside the unit cube: it leaves
    // soonest along +x, after 0.5 (along +y 0.55, +z 0.6, -x 0.7).
    const Placed a(cube(1.0), Quat::Identity(), Vec3::Zero());
    const Placed b(cube(0.2), Quat::Identity(), Vec3(0.1, 0.05, 0.0));
    const auto r = depth(a, b);
    EXPECT_TRUE(r.overlap);
    EXPECT_TRUE(r.converged);
    EXPECT_NEAR(r.depth, 0.5, 2 * test::eps);
    EXPECT_NEAR(r.normal.x, 1.0, 2 * test::eps);
    EXPECT_NEAR(r.on_a.x - r.on_b.x, 0.5, 2 * test::eps);
}

TEST(Epa, CoincidentCubesPenetrateByTheirSide) {
    const Placed a(cube(1.0), Quat::Identity(), Vec3::Zero());
    const auto r = depth(a, Placed(cube(1.0), Quat::Identity(), Vec3::Zero()));
    EXPECT_TRUE(r.overlap);
    EXPECT_TRUE(r.converged);
    EXPECT_NEAR(r.depth, 1.0, 2 * test::eps);
    // Six faces tie: any axis.
    EXPECT_NEAR(std::max({std::abs(r.normal.x), std::abs(r.normal.y), std::abs(r.normal.z)}), 1.0,
                2 * test::eps);
}

TEST(Epa, TouchingCubesHaveNoDepthAndApartOnesNoOverlap) {
    const Placed a(cube(1.0), Quat::Identity(), Vec3::Zero());
    const auto touching = depth(a, Placed(cube(1.0), Quat::Identity(), Vec3(1.0, 0.3, -0.2)));
    EXPECT_TRUE(touching.converged);
    EXPECT_LE(touching.depth, 2 * test::eps);
    const auto apart = depth(a, Placed(cube(1.0), Quat::Identity(), Vec3(1.1, 0.3, -0.2)));
    EXPECT_FALSE(apart.overlap);
    EXPECT_EQ(apart.depth, 0.0);
}

// Random hulls of n vertices (n = 8 to 128), randomly turned, B placed from A along a random
// direction u at centre distance (h_A(u) + h_B(-u)) (1 + s): for three pairs in four s is
// uniform in [-1, -0.01] (down to centres together, B often inside A), for the fourth
// log-uniform in [-1e-2, -1e-6] (just touching along u, often apart along another axis).
// Against the reference:
//   - overlap or not exactly as the reference says (a positive least projection overlap; it
//     agrees with the exhaustive overlap test of gjk_test.cpp, checked up to 16 vertices);
//     apart: depth 0;
//   - the depth to 1e-10 relative (the issue), plus round-off: both sides start from the same
//     world vertices, but EPA rounds the points w = a - b of A - B and its faces' normals and
//     offsets (a few eps of |w| each) and stops within epa_round_off = 8 eps of the largest
//     |w|; with |w| <= scale = |pos_a| + |pos_b| + r_a + r_b, 64 eps of scale covers these
//     with room (as in gjk_test.cpp; the worst seen is under 1 eps of scale);
//   - the certified bracket lower_bound <= exact <= upper_bound, to the same round-off;
//   - the normal reaching the depth: h_A(n) + h_B(-n) = depth, to the same tolerance;
//   - the witness points in their shapes, and on_a - on_b = depth * normal.
TEST(Epa, RandomHullsMatchTheExactReference) {
    Rng rng(2027);
    struct Size {
        int vertices, pairs;
    };
    int checked = 0, overlapping = 0, most_iterations = 0;
    double worst_relative = 0.0;
    for (const Size size :
         {Size{8, 800}, Size{16, 500}, Size{32, 300}, Size{64, 120}, Size{128, 40}}) {
        for (int k = 0; k < size.pairs; ++k) {
            const double ra = rng.uniform(0.5, 2.0), rb = rng.uniform(0.5, 2.0);
            const Placed a0(ellipsoid_hull(size.vertices, ra, rng), random_rotation(rng),
                            rng.in_ball(10.0));
            const Placed b0(ellipsoid_hull(size.vertices, rb, rng), random_rotation(rng),
                            Vec3::Zero());
            const Vec3 u = rng.unit_vector();
            const double reach = (a0.extent(u) - u.dot(a0.pos)) + b0.extent(-u);
            const double s =
                k % 4 == 3 ? -std::pow(10.0, rng.uniform(-6.0, -2.0)) : -rng.uniform(0.01, 1.0);
            const Placed b(b0.hull, b0.q, a0.pos + u * reach * (1.0 + s));
            const auto r = depth(a0, b);
            const test::ReferencePolytope A = a0.reference(), B = b.reference();
            const auto exact = static_cast<double>(test::polytope_penetration_depth(A, B));
            const bool overlap = exact > 0.0;
            const double scale = b.pos.norm() + a0.pos.norm() + ra + rb;
            const double roundoff = 64 * test::eps * scale;
            SCOPED_TRACE(::testing::Message()
                         << size.vertices << " vertices, pair " << k << ", s = " << s);
            // The two references agree (the exhaustive overlap test costs O(E F): small hulls).
            if (size.vertices <= 16) {
                ASSERT_EQ(test::polytopes_overlap(A, B), overlap);
            }
            ASSERT_TRUE(r.converged);
            ASSERT_EQ(r.overlap, overlap);
            ++checked;
            most_iterations = std::max(most_iterations, r.iterations);
            if (!overlap) {
                EXPECT_EQ(r.depth, 0.0);
                continue;
            }
            ++overlapping;
            const double tolerance = 1e-10 * exact + roundoff;
            EXPECT_NEAR(r.depth, exact, tolerance);
            EXPECT_LE(r.lower_bound, exact + roundoff);
            EXPECT_GE(r.upper_bound, exact - roundoff);
            EXPECT_NEAR(std::sqrt(polyhedra::norm2(r.normal)), 1.0, 4 * test::eps);
            EXPECT_NEAR(static_cast<double>(support_overlap(A, B, polyhedra::to_vec3(r.normal))),
                        r.depth, tolerance);
            EXPECT_LE((polyhedra::to_vec3(r.on_a) - polyhedra::to_vec3(r.on_b) -
                       r.depth * polyhedra::to_vec3(r.normal))
                          .norm(),
                      roundoff);
            EXPECT_LE(a0.outside(polyhedra::to_vec3(r.on_a)), roundoff);
            EXPECT_LE(b.outside(polyhedra::to_vec3(r.on_b)), roundoff);
            if (exact > 1e3 * roundoff)
                worst_relative = std::max(worst_relative, std::abs(r.depth - exact) / exact);
        }
    }
    EXPECT_GT(overlapping, checked / 2); // mostly overlapping, both outcomes exercised
    EXPECT_LT(overlapping, checked);
    ::testing::Test::RecordProperty("overlapping_pairs", overlapping);
    ::testing::Test::RecordProperty("most_iterations", most_iterations);
    ::testing::Test::RecordProperty("worst_relative_error",
                                    ::testing::PrintToString(worst_relative));
}

} // namespace
