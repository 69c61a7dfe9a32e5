// SPDX-License-Identifier: MIT
// Convex hulls against their defining properties (every input point inside or on, every face
// a supporting plane, Euler's formula), and the refusal of degenerate inputs.
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "rubble/core/convex_hull.hpp"
#include "rubble/core/random.hpp"
#include "rubble/ic/aggregates.hpp"
#include "tolerances.hpp"

using namespace rubble;
using rubble::shapes::ConvexHull;

namespace {

// A hull of triangles: V - E + F = 2 with E = 3F/2 (every edge in two triangles).
void expect_closed_convex(const ConvexHull& h, const std::vector<Vec3>& points, double scale) {
    EXPECT_EQ(2 * static_cast<int>(h.vertices.size()) - static_cast<int>(h.faces.size()), 4);
    const double tol = shapes::hull_tolerance * scale;
    for (std::size_t f = 0; f < h.faces.size(); ++f) {
        EXPECT_NEAR(h.normals[f].norm(), 1.0, 4 * test::eps);
        for (int k : h.faces[f]) // the face's own vertices lie on its plane
            EXPECT_NEAR(h.normals[f].dot(h.vertices[static_cast<std::size_t>(k)]), h.offsets[f],
                        8 * test::eps * scale);
    }
    for (const Vec3& p : points) // a supporting plane: nothing outside any face
        EXPECT_LE(shapes::plane_distance(h, p), tol);
}

void expect_refused(const std::vector<Vec3>& points, const std::string& what) {
    try {
        (void)shapes::convex_hull(points);
        ADD_FAILURE() << "expected a refusal mentioning '" << what << "'";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
}

} // namespace

TEST(ConvexHull, CubeWithInteriorAndFacePointsKeepsItsEightCorners) {
    std::vector<Vec3> p;
    for (int i = 0; i < 8; ++i)
        p.emplace_back(i & 1 ? 1.0 : -1.0, i & 2 ? 1.0 : -1.0, i & 4 ? 1.0 : -1.0);
    p.emplace_back(0.0, 0.0, 0.0);
    p.emplace_back(1.0, 0.2, -0.3); // on a face
    p.emplace_back(0.1, -0.5, 0.7);
    const ConvexHull h = shapes::convex_hull(p);
    EXPECT_EQ(h.vertices.size(), 8u);
    EXPECT_EQ(h.faces.size(), 12u);
    expect_closed_convex(h, p, 2.0);
    for (std::size_t f = 0; f < h.faces.size(); ++f) // axis-aligned faces at distance 1
        EXPECT_NEAR(h.offsets[f], 1.0, 8 * test::eps);
}

// Points wherever a file puts them: every x beyond 1 (the search for the first corner once
// took no point at all there, and the hull failed).
TEST(ConvexHull, PointsFarFromTheOriginMakeTheirHull) {
    const std::vector<Vec3> p{{5.0, 5.0, 5.0}, {6.0, 5.0, 5.0}, {5.0, 6.0, 5.0}, {5.0, 5.0, 6.0}};
    const ConvexHull h = shapes::convex_hull(p);
    EXPECT_EQ(h.vertices.size(), 4u);
    EXPECT_EQ(h.faces.size(), 4u);
    expect_closed_convex(h, p, 1.0);
}

TEST(ConvexHull, RandomPointsInABall) {
    Rng rng(3);
    std::vector<Vec3> p;
    for (int i = 0; i < 500; ++i)
        p.push_back(rng.in_ball(2.0));
    const ConvexHull h = shapes::convex_hull(p);
    expect_closed_convex(h, p, 4.0);
    for (const Vec3& v : h.vertices) // every vertex is an input point
        EXPECT_NE(std::find(p.begin(), p.end(), v), p.end());
}

TEST(ConvexHull, RandomEllipsoidHullHasItsVerticesOnTheJitteredShell) {
    Rng rng(8);
    const Vec3 axes(3.0, 2.0, 1.0);
    for (int trial = 0; trial < 50; ++trial) {
        const ConvexHull h = ic::random_ellipsoid_hull(axes, rng);
        EXPECT_LE(h.vertices.size(), static_cast<std::size_t>(ic::hull_points));
        expect_closed_convex(h, h.vertices, 6.0);
        for (const Vec3& v : h.vertices) {
            const double r = v.cwiseQuotient(axes).norm();
            EXPECT_GE(r, 1.0 - ic::hull_jitter - 4 * test::eps);
            EXPECT_LE(r, 1.0 + ic::hull_jitter + 4 * test::eps);
        }
    }
}

TEST(ConvexHull, DegenerateInputsAreRefusedByName) {
    expect_refused({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)}, "at least 4 points, got 3");
    expect_refused({Vec3(0, 0, 0), Vec3(0, 0, 0), Vec3(0, 0, 0), Vec3(0, 0, 0)}, "coincide");
    expect_refused({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 0, 0), Vec3(0, 0, 1)},
                   "point 1 (1.000000, 0.000000, 0.000000) and point 3 coincide");
    expect_refused({Vec3(0, 0, 0), Vec3(1, 1, 1), Vec3(2, 2, 2), Vec3(-3, -3, -3)}, "collinear");
    expect_refused({Vec3(0, 0, 1), Vec3(1, 0, 1), Vec3(0, 1, 1), Vec3(1, 1, 1), Vec3(0.5, 0.2, 1)},
                   "coplanar");
    expect_refused({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, NAN)},
                   "point 3 (0.000000, 0.000000, nan) is not finite");
}
