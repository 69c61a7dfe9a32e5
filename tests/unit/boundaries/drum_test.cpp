// SPDX-License-Identifier: MIT
// A Taylor-Couette cell (an inner cylinder turning inside a fixed outer one, closed by two
// planes): the bodies' angular momentum changes by exactly the angular impulse the walls gave
// (the drum's budget), and smooth walls (eps_t = 1) exert no torque about the axis.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "rubble/boundaries/wall.hpp"
#include "rubble/collisions/event_drift.hpp"
#include "rubble/core/random.hpp"
#include "tolerances.hpp"

namespace rubble::boundaries {
namespace {

using collisions::WallImpulse;

Wall cylinder(double radius, bool inside, double omega) {
    Wall w;
    w.shape = WallShape::cylinder;
    w.normal = Vec3::UnitZ();
    w.radius = radius;
    w.inside = inside;
    w.angular_velocity = omega;
    w.name = inside ? "outer" : "inner";
    return w;
}

Wall plane(double z, double nz) {
    Wall w;
    w.shape = WallShape::plane;
    w.point = Vec3(0, 0, z);
    w.normal = Vec3(0, 0, nz);
    w.name = "lid";
    return w;
}

// 60 spheres of radius 0.1 on three rings in the gap between r = 1 and r = 3, |z| < 0.5,
// random velocities of about 1 m/s, no spin.
Bodies annulus(std::uint64_t seed) {
    Rng rng(seed);
    Bodies b;
    int id = 0;
    for (const double r : {1.5, 2.0, 2.5})
        for (int k = 0; k < 20; ++k) {
            const double phi = 2 * pi * k / 20;
            const Vec3 x(r * std::cos(phi), r * std::sin(phi), rng.uniform(-0.3, 0.3));
            b.add_sphere(id++, 1.0 + rng.uniform(), 0.1, x, rng.in_ball(1.0), Vec3::Zero());
        }
    return b;
}

Vec3 angular_momentum(const Bodies& b) {
    Vec3 l = Vec3::Zero();
    for (std::size_t i = 0; i < b.size(); ++i)
        l += b.mass[i] * b.pos[i].cross(b.vel[i]) + b.inertia[i].x() * b.spin[i];
    return l;
}

double angular_scale(const Bodies& b) {
    double s = 0.0;
    for (std::size_t i = 0; i < b.size(); ++i)
        s += b.mass[i] * b.pos[i].norm() * b.vel[i].norm() + b.inertia[i].x() * b.spin[i].norm();
    return s;
}

struct Budget {
    Vec3 change, given;
    double scale;
    std::int64_t collisions, on_walls;
};

Budget run_cell(double eps_t) {
    collisions::CollisionConfig c;
    c.eps_n = 0.9;
    c.eps_t = eps_t;
    c.walls = {cylinder(1.0, false, 2.0), cylinder(3.0, true, 0.0), plane(-0.5, 1), plane(0.5, -1)};
    collisions::EventDrivenDrift drift(c);
    Bodies b = annulus(11);
    const Vec3 l0 = angular_momentum(b);
    double scale = angular_scale(b);
    Budget out{Vec3::Zero(), Vec3::Zero(), 0.0, 0, 0};
    for (int step = 0; step < 200; ++step) {
        const auto s = drift.drift(b, 0.05, 0.05 * step);
        out.collisions += s.collisions;
        out.on_walls += s.wall_collisions;
        scale = std::max(scale, angular_scale(b));
    }
    out.change = angular_momentum(b) - l0;
    for (const WallImpulse& w : drift.wall_impulses())
        out.given += w.angular;
    out.scale = scale;
    return out;
}

// Each contact changes the bodies' angular momentum about the origin by contact x J (pairs:
// by nothing), computed from the same numbers to a few ulps of the bodies' own |x||m v|, so
// over n contacts the budget closes to about 4 n eps times the largest such scale
// (test::summation_bound).
TEST(Drum, AngularMomentumChangesByTheWallsAngularImpulse) {
    const Budget r = run_cell(0.5);
    EXPECT_GT(r.on_walls, 200);
    EXPECT_GT(r.change.z(), 0.0) << "the turning inner cylinder drags the bodies along";
    const double bound = test::summation_bound(static_cast<double>(r.collisions)) * r.scale;
    EXPECT_LT((r.change - r.given).norm(), bound)
        << "change " << r.change.transpose() << ", given " << r.given.transpose();
}

// Smooth walls push along their normals: radial for the cylinders, along z for the lids, so no
// impulse has a moment about the z axis, and L_z is kept to round-off.
TEST(Drum, SmoothWallsExertNoTorqueAboutTheAxis) {
    const Budget r = run_cell(1.0);
    EXPECT_GT(r.on_walls, 200);
    const double bound = test::summation_bound(static_cast<double>(r.collisions)) * r.scale;
    EXPECT_LT(std::abs(r.change.z()), bound);
    EXPECT_LT(std::abs(r.given.z()), bound);
}

} // namespace
} // namespace rubble::boundaries
