// SPDX-License-Identifier: MIT
// Exact mass properties of convex polyhedra against closed forms, to round-off: a sum over F
// faces of terms of ~20 operations each (test::summation_bound(20 F)).
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "rubble/core/polyhedron_mass.hpp"
#include "rubble/ic/aggregates.hpp"
#include "tolerances.hpp"

using namespace rubble;

namespace {

double bound(const shapes::ConvexHull& h) {
    return test::summation_bound(20.0 * static_cast<double>(h.faces.size()));
}

void expect_tensor(const Mat3& got, const Mat3& want, double rel) {
    const double scale = want.cwiseAbs().maxCoeff();
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            EXPECT_NEAR(got(i, j), want(i, j), rel * scale) << i << "," << j;
}

} // namespace

TEST(PolyhedronMass, BoxAgainstClosedForm) {
    const Vec3 e(3.0, 2.0, 0.5), shift(10.0, -4.0, 7.0);
    const double rho = 2500.0;
    const shapes::ConvexHull h = shapes::scaled(ic::box_hull(e), 1.0, shift);
    const MassProperties p = shapes::polyhedron_mass_properties(h, rho);
    const double m = rho * e.prod();
    EXPECT_NEAR(p.mass, m, bound(h) * m);
    EXPECT_NEAR((p.centre - shift).norm(), 0.0, bound(h) * shift.norm());
    // I_x = m (b^2 + c^2) / 12 for a box of edges a, b, c.
    const Mat3 want =
        Vec3(m * (e.y() * e.y() + e.z() * e.z()) / 12.0, m * (e.x() * e.x() + e.z() * e.z()) / 12.0,
             m * (e.x() * e.x() + e.y() * e.y()) / 12.0)
            .asDiagonal();
    // Moments about the centre of mass from moments about a point ~10 box sizes away: the
    // parallel-axis subtraction loses log10(100) digits.
    expect_tensor(p.inertia, want, 100 * bound(h));
    EXPECT_NEAR(p.bounding_radius, 0.5 * e.norm(), 100 * bound(h) * e.norm());
}

TEST(PolyhedronMass, CubeIsIsotropic) {
    const shapes::ConvexHull h = ic::box_hull(Vec3::Constant(2.0));
    const MassProperties p = shapes::polyhedron_mass_properties(h, 1.0);
    EXPECT_NEAR(p.mass, 8.0, bound(h) * 8.0);
    for (int k = 0; k < 3; ++k) // m a^2 / 6
        EXPECT_NEAR(p.moments[k], 8.0 * 4.0 / 6.0, bound(h) * 8.0);
}

TEST(PolyhedronMass, RegularTetrahedronAgainstClosedForm) {
    const double r = 1.7, rho = 3.0;
    const shapes::ConvexHull h = ic::tetrahedron_hull(r);
    const MassProperties p = shapes::polyhedron_mass_properties(h, rho);
    const double edge = r * std::sqrt(8.0 / 3.0);
    const double m = rho * edge * edge * edge / (6.0 * std::sqrt(2.0)); // V = a^3 / (6 sqrt 2)
    EXPECT_NEAR(p.mass, m, bound(h) * m);
    EXPECT_NEAR(p.centre.norm(), 0.0, bound(h) * r);
    expect_tensor(p.inertia, Mat3::Identity() * m * edge * edge / 20.0, bound(h)); // m a^2 / 20
    EXPECT_NEAR(p.bounding_radius, r, bound(h) * r);
}

TEST(PolyhedronMass, CornerTetrahedronFullTensor) {
    // Vertices 0, e_x, e_y, e_z: V = 1/6, centroid (1/4, 1/4, 1/4); about it the second
    // moments are int x^2 = 1/60 - V/16 = 1/160 and int x y = 1/120 - V/16 = -1/480, so
    // I_xx = 2/160 = 1/80 and I_xy = +1/480.
    const shapes::ConvexHull h =
        shapes::convex_hull({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)});
    const MassProperties p = shapes::polyhedron_mass_properties(h, 1.0);
    EXPECT_NEAR(p.mass, 1.0 / 6.0, bound(h));
    EXPECT_NEAR((p.centre - Vec3::Constant(0.25)).norm(), 0.0, bound(h));
    Mat3 want = Mat3::Constant(1.0 / 480.0);
    want.diagonal().setConstant(1.0 / 80.0);
    expect_tensor(p.inertia, want, bound(h));
    // Principal axes diagonalise it.
    const Mat3 r = p.axes.toRotationMatrix();
    expect_tensor(r.transpose() * p.inertia * r, Mat3(p.moments.asDiagonal()), bound(h));
}
