// SPDX-License-Identifier: MIT
// Finite cylinders inside the event-driven drift: an elastic gas in a turning closed can keeps
// its energy and its angular momentum about the axis to round-off over thousands of wall
// contacts; a turning can's cap drags a sphere as the restitution model says (the caps turn
// too); overlaps at the start of a drift are handled on every face (side, discs, rims).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "rubble/boundaries/wall.hpp"
#include "rubble/collisions/event_drift.hpp"
#include "rubble/core/random.hpp"
#include "tolerances.hpp"

namespace rubble::boundaries {
namespace {

using collisions::CollisionConfig;
using collisions::EventDrivenDrift;
using test::eps;

Wall can_like(bool inside, bool caps, double omega) {
    Wall w;
    w.shape = WallShape::cylinder;
    w.normal = Vec3::UnitZ();
    w.radius = 1.0;
    w.length = 2.0;
    w.inside = inside;
    w.caps = caps;
    w.angular_velocity = omega;
    w.name = "walls[0]";
    return w;
}

double energy(const Bodies& b) {
    double e = 0.0;
    for (std::size_t i = 0; i < b.size(); ++i)
        e += 0.5 * b.mass[i] * b.vel[i].squaredNorm() +
             0.5 * b.inertia[i].x() * b.spin[i].squaredNorm();
    return e;
}

double angular_momentum_z(const Bodies& b) {
    double l = 0.0;
    for (std::size_t i = 0; i < b.size(); ++i)
        l += b.mass[i] * b.pos[i].cross(b.vel[i]).z() + b.inertia[i].x() * b.spin[i].z();
    return l;
}

// Elastic and smooth (eps_n = eps_t = 1): each contact reverses the normal velocity relative to
// a surface whose velocity is tangential (the side's and the caps' alike turn about the axis),
// so kinetic energy is kept to a few ulps per contact (test::summation_bound), and the
// impulses, along radii and along the axis, have no moment about it.
TEST(FiniteCylinderDrift, ElasticGasInATurningCanKeepsEnergyAndAxialMomentum) {
    CollisionConfig c;
    c.eps_n = 1.0;
    c.eps_t = 1.0;
    c.walls = {can_like(true, true, 3.0)};
    EventDrivenDrift drift(c);
    Rng rng(7);
    Bodies b;
    for (int k = 0; k < 30; ++k) {
        const double z = 0.2 + 0.2 * (k / 6), phi = 2 * pi * (k % 6) / 6;
        b.add_sphere(k, 1.0 + rng.uniform(), 0.08,
                     Vec3(0.6 * std::cos(phi), 0.6 * std::sin(phi), z), rng.in_ball(20.0),
                     Vec3::Zero());
    }
    const double e0 = energy(b), l0 = angular_momentum_z(b);
    double l_scale = 0.0;
    for (std::size_t i = 0; i < b.size(); ++i)
        l_scale += b.mass[i] * b.vel[i].norm() * 1.5;
    std::int64_t collisions = 0, on_walls = 0;
    for (int step = 0; step < 400; ++step) {
        const auto s = drift.drift(b, 0.05, 0.05 * step);
        collisions += s.collisions;
        on_walls += s.wall_collisions;
    }
    EXPECT_GT(on_walls, 2000);
    const double bound = test::summation_bound(static_cast<double>(collisions));
    EXPECT_NEAR(energy(b), e0, bound * e0);
    EXPECT_NEAR(angular_momentum_z(b), l0, bound * l_scale);
    for (std::size_t i = 0; i < b.size(); ++i)
        EXPECT_GT(wall_gap(c.walls[0], c.walls[0].point, b.pos[i], b.radius[i]).gap,
                  -c.overlap_tolerance * b.radius[i]);
}

// A sphere rising into the top cap of a can turning at Omega about z, hitting it at distance
// 0.5 from the axis: the cap's surface moves at Omega z x (0.5, 0, 0) = (0, 0.5 Omega, 0) there,
// and the contact point's tangential velocity relative to it ends at eps_t times its start.
TEST(FiniteCylinderDrift, TurningCapDragsTheSphere) {
    const double omega = 2.0, r = 0.1, et = 0.5;
    CollisionConfig c;
    c.eps_n = 1.0;
    c.eps_t = et;
    c.walls = {can_like(true, true, omega)};
    EventDrivenDrift drift(c);
    Bodies b;
    b.add_sphere(1, 1.0, r, Vec3(0.5, 0, 1.5), Vec3(0, 0, 1), Vec3::Zero());
    const auto s = drift.drift(b, 0.5, 0.0);
    ASSERT_EQ(s.wall_collisions, 1);
    const Vec3 n = -Vec3::UnitZ(), wall(0, 0.5 * omega, 0);
    const Vec3 u = b.vel[0] + b.spin[0].cross(-r * n) - wall;
    EXPECT_NEAR(u.y(), et * -wall.y(), 16 * eps);
    EXPECT_NEAR(u.x(), 0.0, 16 * eps);
    EXPECT_NEAR(b.vel[0].z(), -1.0, 16 * eps);
    EXPECT_GT(b.vel[0].y(), 0.0) << "dragged along with the cap";
}

struct Face {
    const char* name;
    bool inside, caps;
    Vec3 centre, into; // into: unit, towards the wall
};

// A sphere of radius 0.1 overlapping each face by 0.01 and moving into it: every strategy
// clears it (trace_back and push_apart then bounce it off; repulse leaves it touching).
TEST(FiniteCylinderDrift, OverlapsAtStartOnEveryFace) {
    const double r = 0.1, d = 0.01;
    const Vec3 up_out(0.6, 0, 0.8), up_in(-0.6, 0, 0.8), down_out(0.6, 0, -0.8);
    const std::vector<Face> faces = {
        {"can side", true, true, Vec3(1 - r + d, 0, 1), Vec3::UnitX()},
        {"can bottom", true, true, Vec3(0.3, 0, r - d), -Vec3::UnitZ()},
        {"can top", true, true, Vec3(0.3, 0, 2 - r + d), Vec3::UnitZ()},
        {"tube inner face", true, false, Vec3(1 - r + d, 0, 1), Vec3::UnitX()},
        {"tube outer face", true, false, Vec3(1 + r - d, 0, 1), -Vec3::UnitX()},
        {"tube rim, outside", true, false, Vec3(1, 0, 2) + (r - d) * up_out, -up_out},
        {"tube rim, inside", true, false, Vec3(1, 0, 2) + (r - d) * up_in, -up_in},
        {"post side", false, true, Vec3(1 + r - d, 0, 1), -Vec3::UnitX()},
        {"post top", false, true, Vec3(0.3, 0, 2 + r - d), -Vec3::UnitZ()},
        {"post top rim", false, true, Vec3(1, 0, 2) + (r - d) * up_out, -up_out},
        {"post bottom rim", false, true, Vec3(1, 0, 0) + (r - d) * down_out, -down_out},
    };
    for (const auto strategy :
         {collisions::OverlapStrategy::trace_back, collisions::OverlapStrategy::push_apart,
          collisions::OverlapStrategy::repulse}) {
        for (const Face& f : faces) {
            SCOPED_TRACE(std::string(f.name) + ", strategy " +
                         std::to_string(static_cast<int>(strategy)));
            CollisionConfig c;
            c.eps_n = 1.0;
            c.eps_t = 1.0;
            c.overlaps = strategy;
            c.walls = {can_like(f.inside, f.caps, 0.5)};
            EventDrivenDrift drift(c);
            Bodies b;
            b.add_sphere(1, 1.0, r, f.centre, f.into, Vec3::Zero());
            const WallGap g0 = wall_gap(c.walls[0], c.walls[0].point, f.centre, r);
            ASSERT_NEAR(g0.gap, -d, 16 * eps);
            collisions::DriftStats s;
            try {
                s = drift.drift(b, 0.05, 0.0);
            } catch (const std::exception& e) {
                ADD_FAILURE() << e.what();
                continue;
            }
            EXPECT_EQ(s.overlaps, 1);
            const WallGap g = wall_gap(c.walls[0], c.walls[0].point, b.pos[0], r);
            EXPECT_GT(g.gap, -64 * eps) << "still overlapping";
            EXPECT_GE(b.vel[0].dot(g0.normal), 0.0) << "still moving into the wall";
        }
    }
}

} // namespace
} // namespace rubble::boundaries
