// SPDX-License-Identifier: MIT
// Sphere-wall contact prediction (boundaries/wall_predict.hpp): exact roots for planes and
// cylinders (inside and outside, moving), the now/never rules that keep round-off from letting
// a sphere through, and 1000 random cylinder cases against a long-double reference.
#include <gtest/gtest.h>

#include <cmath>

#include "rubble/boundaries/wall.hpp"
#include "rubble/boundaries/wall_predict.hpp"
#include "rubble/core/random.hpp"
#include "tolerances.hpp"

namespace rubble::boundaries {
namespace {

using test::eps;

Wall plane(const Vec3& point, const Vec3& normal, const Vec3& velocity = Vec3::Zero()) {
    Wall w;
    w.shape = WallShape::plane;
    w.point = point;
    w.normal = normal.normalized();
    w.velocity = velocity;
    return w;
}

Wall cylinder(double radius, bool inside, const Vec3& axis = Vec3::UnitZ()) {
    Wall w;
    w.shape = WallShape::cylinder;
    w.normal = axis.normalized();
    w.radius = radius;
    w.inside = inside;
    return w;
}

TEST(WallPredict, PlaneExactRoot) {
    // Centre 3 m above the plane, radius 1, falling at 4 m/s: gap 2 m, t = 0.5 s.
    const Wall w = plane(Vec3::Zero(), Vec3::UnitZ());
    const auto t = predict_wall_contact(w, w.point, Vec3(5, -2, 3), Vec3(1, 7, -4), 1.0);
    ASSERT_TRUE(t);
    EXPECT_EQ(*t, 0.5);
}

TEST(WallPredict, PlaneMovingAwayParallelOrBehind) {
    const Wall w = plane(Vec3::Zero(), Vec3::UnitZ());
    EXPECT_FALSE(predict_wall_contact(w, w.point, Vec3(0, 0, 3), Vec3(0, 0, 1), 1.0));
    EXPECT_FALSE(predict_wall_contact(w, w.point, Vec3(0, 0, 3), Vec3(1, 0, 0), 1.0));
    EXPECT_FALSE(predict_wall_contact(w, w.point, Vec3(0, 0, 1), Vec3::Zero(), 1.0));
}

TEST(WallPredict, PlaneTouchingOrOverlappingAndApproachingIsNow) {
    const Wall w = plane(Vec3::Zero(), Vec3::UnitZ());
    EXPECT_EQ(*predict_wall_contact(w, w.point, Vec3(0, 0, 1), Vec3(0, 0, -1), 1.0), 0.0);
    EXPECT_EQ(*predict_wall_contact(w, w.point, Vec3(0, 0, 0.5), Vec3(0, 0, -1e-30), 1.0), 0.0);
    // Overlapping but leaving: no contact.
    EXPECT_FALSE(predict_wall_contact(w, w.point, Vec3(0, 0, 0.5), Vec3(0, 0, 1), 1.0));
}

TEST(WallPredict, MovingPlaneUsesTheRelativeVelocity) {
    // A piston rising at 1 m/s under a sphere falling at 1 m/s: closing at 2 m/s over 3 m.
    const Wall w = plane(Vec3::Zero(), Vec3::UnitZ(), Vec3(0, 0, 1));
    EXPECT_EQ(*predict_wall_contact(w, w.point, Vec3(0, 0, 4), Vec3(0, 0, -1), 1.0), 1.5);
    // Receding faster than the sphere falls: never.
    const Wall away = plane(Vec3::Zero(), Vec3::UnitZ(), Vec3(0, 0, -2));
    EXPECT_FALSE(predict_wall_contact(away, away.point, Vec3(0, 0, 4), Vec3(0, 0, -1), 1.0));
}

TEST(WallPredict, CylinderInsideExactRoot) {
    // Radius 5, sphere radius 1 on the axis moving radially at 2 m/s (and along the axis,
    // which does not matter): reaches rho = 4 at t = 2.
    const Wall w = cylinder(5.0, true);
    const auto t = predict_wall_contact(w, w.point, Vec3(0, 0, 7), Vec3(2, 0, 100), 1.0);
    ASSERT_TRUE(t);
    EXPECT_EQ(*t, 2.0);
    // From rho = 3 moving outwards at 1 (b > 0 branch) and inwards at 1 (b < 0 branch):
    EXPECT_EQ(*predict_wall_contact(w, w.point, Vec3(3, 0, 0), Vec3(1, 0, 0), 1.0), 1.0);
    EXPECT_EQ(*predict_wall_contact(w, w.point, Vec3(3, 0, 0), Vec3(-1, 0, 0), 1.0), 7.0);
    // A chord: from (0, -3) along +x at 1: x^2 + 9 = 16, t = sqrt(7).
    EXPECT_NEAR(*predict_wall_contact(w, w.point, Vec3(0, -3, 0), Vec3(1, 0, 0), 1.0),
                std::sqrt(7.0), 4 * eps * std::sqrt(7.0));
}

TEST(WallPredict, CylinderInsideRules) {
    const Wall w = cylinder(5.0, true);
    // Along the axis only: never.
    EXPECT_FALSE(predict_wall_contact(w, w.point, Vec3(1, 1, 0), Vec3(0, 0, 3), 1.0));
    // At or beyond the surface moving out: now; moving in (as just after a contact, touching
    // to round-off): the far side, through the disc of radius s = 4 (here 8 s at 1 m/s).
    EXPECT_EQ(*predict_wall_contact(w, w.point, Vec3(4, 0, 0), Vec3(1e-20, 0, 0), 1.0), 0.0);
    EXPECT_EQ(*predict_wall_contact(w, w.point, Vec3(4.5, 0, 0), Vec3(0.5, 1, 0), 1.0), 0.0);
    EXPECT_EQ(*predict_wall_contact(w, w.point, Vec3(4, 0, 0), Vec3(-1, 0, 0), 1.0), 8.0);
    // Beyond s = 4 at (4.5, 0) moving along (-1, 1): |q + w t|^2 = 16 at the larger root of
    // 2 t^2 - 9 t + 4.25 = 0.
    EXPECT_NEAR(*predict_wall_contact(w, w.point, Vec3(4.5, 0, 0), Vec3(-1, 1, 0), 1.0),
                (9.0 + std::sqrt(81.0 - 34.0)) / 4.0, 8 * eps);
    // Exactly tangential (b = 0) counts as not moving out, as pairs at rest relative to each
    // other: a contact could not change its normal velocity, which is zero.
    EXPECT_FALSE(predict_wall_contact(w, w.point, Vec3(4.5, 0, 0), Vec3(0, 1, 0), 1.0));
    // Beyond the surface moving inwards on a line that never enters the disc: nothing.
    EXPECT_FALSE(predict_wall_contact(w, w.point, Vec3(4.5, 0, 0), Vec3(-0.1, 1, 0), 1.0));
}

TEST(WallPredict, CylinderOutsideExactRootAndMiss) {
    // Radius 2, sphere radius 1 at x = 10 moving at -1 along x: touches at rho = 3, t = 7.
    const Wall w = cylinder(2.0, false);
    EXPECT_EQ(*predict_wall_contact(w, w.point, Vec3(10, 0, 4), Vec3(-1, 0, 9), 1.0), 7.0);
    // Passing at a distance 3.5 > 3: never.
    EXPECT_FALSE(predict_wall_contact(w, w.point, Vec3(10, 3.5, 0), Vec3(-1, 0, 0), 1.0));
    // Receding: never; overlapping and approaching: now.
    EXPECT_FALSE(predict_wall_contact(w, w.point, Vec3(10, 0, 0), Vec3(1, 0, 0), 1.0));
    EXPECT_EQ(*predict_wall_contact(w, w.point, Vec3(2.5, 0, 0), Vec3(-1, 0, 0), 1.0), 0.0);
}

TEST(WallPredict, TiltedTranslatingCylinder) {
    // The same geometry as CylinderInsideExactRoot turned onto the axis (1, 1, 1) and carried
    // with a drift along it and across it: the root depends only on the relative motion.
    const Vec3 a = Vec3(1, 1, 1).normalized();
    const Vec3 e1 = a.unitOrthogonal();
    Wall w = cylinder(5.0, true, a);
    w.velocity = 0.5 * e1 + 3.0 * a;
    const Vec3 p(1, 2, 3);
    const auto t = predict_wall_contact(w, p, p + 3.0 * e1, w.velocity + e1 + 4.0 * a, 1.0);
    ASSERT_TRUE(t);
    EXPECT_NEAR(*t, 1.0, 16 * eps);
}

// Long-double reference root of |q + w t| = s (the right branch for inside or outside).
long double reference_root(const Vec3& q3, const Vec3& w3, double s, bool inside) {
    const long double qx = q3.x(), qy = q3.y(), wx = w3.x(), wy = w3.y(), sl = s;
    const long double a = wx * wx + wy * wy, b = qx * wx + qy * wy, c = qx * qx + qy * qy - sl * sl;
    const long double d = std::sqrt(b * b - a * c);
    return inside ? (-b + d) / a : (-b - d) / a;
}

TEST(WallPredict, RandomCylindersAgainstLongDouble) {
    // Small spheres far from the surface, where a naive quadratic loses digits.
    Rng rng(7);
    int checked = 0;
    for (int k = 0; k < 1000; ++k) {
        const bool inside = k % 2 == 0;
        const double R = 1e3 * (1.0 + rng.uniform());
        const double r = 1e-3 * (1.0 + rng.uniform());
        // (Inside, within 0.9 of the surface: nearer, q.q - s^2 itself cancels, in any form.)
        const double rho =
            inside ? 0.9 * (R - r) * rng.uniform() : (R + r) * (1.5 + 1e3 * rng.uniform());
        const double phi = 2 * pi * rng.uniform();
        const Vec3 q(rho * std::cos(phi), rho * std::sin(phi), 0.0);
        // Aimed near the axis from outside so that most of them hit.
        const Vec3 target = inside ? Vec3(rng.in_ball(R)) : Vec3((R + r) * 0.9 * rng.in_ball(1.0));
        Vec3 w = Vec3(target.x(), target.y(), 0.0) - q;
        w *= (1.0 + rng.uniform());
        const Wall wall = cylinder(R, inside);
        const auto t = predict_wall_contact(wall, wall.point, q, w, r);
        if (!t) {
            EXPECT_FALSE(inside) << k; // from inside every non-axial path leaves
            continue;
        }
        const long double ref = reference_root(q, w, inside ? R - r : R + r, inside);
        EXPECT_NEAR(*t, static_cast<double>(ref), 64 * eps * static_cast<double>(ref)) << k;
        ++checked;
    }
    EXPECT_GT(checked, 900);
}

TEST(WallPredict, ContactAgoInvertsTheOverlap) {
    // Plane: 0.25 m into the floor moving down at 0.5 m/s: touched 0.5 s ago.
    const Wall floor = plane(Vec3::Zero(), Vec3::UnitZ());
    EXPECT_EQ(*wall_contact_ago(floor, floor.point, Vec3(0, 0, 0.75), Vec3(0, 0, -0.5), 1.0), 0.5);
    EXPECT_FALSE(wall_contact_ago(floor, floor.point, Vec3(0, 0, 0.75), Vec3(0, 0, 0.5), 1.0));
    // Inside a cylinder of radius 5 at rho = 4.5 (radius 1) moving out at 1 m/s: 0.5 s ago.
    EXPECT_EQ(
        *wall_contact_ago(cylinder(5.0, true), Vec3::Zero(), Vec3(4.5, 0, 0), Vec3(1, 0, 0), 1.0),
        0.5);
    // Outside a cylinder of radius 2 at rho = 2.5 moving in at 1 m/s: 0.5 s ago.
    EXPECT_EQ(
        *wall_contact_ago(cylinder(2.0, false), Vec3::Zero(), Vec3(2.5, 0, 0), Vec3(-1, 0, 0), 1.0),
        0.5);
}

TEST(WallGeometry, GapsNormalsAndSurfaceVelocity) {
    const Wall floor = plane(Vec3(0, 0, 1), Vec3::UnitZ());
    const WallGap g = wall_gap(floor, floor.point, Vec3(3, 4, 3), 0.5);
    EXPECT_EQ(g.gap, 1.5);
    EXPECT_EQ(g.normal, Vec3::UnitZ());
    const WallGap in = wall_gap(cylinder(5.0, true), Vec3::Zero(), Vec3(0, 3, 9), 1.0);
    EXPECT_EQ(in.gap, 1.0);
    EXPECT_EQ(in.normal, Vec3(0, -1, 0));
    const WallGap out = wall_gap(cylinder(5.0, false), Vec3::Zero(), Vec3(0, 7, 9), 1.0);
    EXPECT_EQ(out.gap, 1.0);
    EXPECT_EQ(out.normal, Vec3(0, 1, 0));
    Wall drum = cylinder(5.0, true);
    drum.angular_velocity = 2.0;
    EXPECT_EQ(surface_velocity(drum, Vec3::Zero(), Vec3(5, 0, 3)), Vec3(0, 10, 0));
    const auto box = box_walls(Vec3(-1, -2, -3), Vec3(1, 2, 3), Vec3::Zero(), "walls[0]");
    ASSERT_EQ(box.size(), 6u);
    EXPECT_EQ(box[5].name, "walls[0] (box, face +z)");
    for (const Wall& w : box)
        EXPECT_EQ(wall_gap(w, w.point, Vec3::Zero(), 0.5).gap,
                  std::abs(w.point.dot(w.normal)) - 0.5);
}

} // namespace
} // namespace rubble::boundaries
