// SPDX-License-Identifier: MIT
// A sphere's contact with a wall of infinite mass (collisions/wall_resolve.hpp): the contact
// velocity relative to the (moving, turning) wall restituted as specified, the energy lost in
// the wall's frame equal to the formula, the angular momentum about the contact point kept
// (the impulse acts there), beta = 2/7, and a smooth wall leaving the spin alone.
#include <gtest/gtest.h>

#include <cmath>

#include "rubble/collisions/wall_resolve.hpp"
#include "rubble/core/bodies.hpp"
#include "rubble/core/random.hpp"
#include "tolerances.hpp"

namespace rubble::collisions {
namespace {

using test::eps;

struct Case {
    SphereState s;
    Vec3 n, wall_velocity;
};

// A sphere touching a wall whose surface moves with a random velocity, approaching it.
Case random_case(Rng& rng) {
    const double m = rng.uniform(1.0, 100.0), r = rng.uniform(0.1, 3.0);
    const Vec3 n = rng.unit_vector();
    const Vec3 x = rng.in_ball(10.0), v = rng.in_ball(1.0), w = rng.in_ball(2.0);
    const Vec3 wall = rng.in_ball(1.0);
    const Vec3 approaching = v + wall - (2.0 + std::abs(v.dot(n))) * n;
    return Case{SphereState{m, r, solid_sphere_inertia(m, r), x, approaching, w}, n, wall};
}

Vec3 contact_velocity(const SphereState& s, const Vec3& v, const Vec3& w, const Vec3& n) {
    return v + w.cross(-s.radius * n);
}

TEST(WallResolve, BetaIsTwoSeventhsForASolidSphere) {
    Rng rng(1);
    for (int k = 0; k < 100; ++k)
        EXPECT_NEAR(wall_beta(random_case(rng).s), 2.0 / 7.0, 8 * eps);
}

TEST(WallResolve, RestitutesTheContactVelocityRelativeToTheWall) {
    Rng rng(2);
    for (int k = 0; k < 500; ++k) {
        const Case c = random_case(rng);
        const Restitution e{rng.uniform(0.0, 1.0), rng.uniform(-1.0, 1.0)};
        const WallOutcome o = resolve_wall_contact(c.s, c.n, c.wall_velocity, e);
        const Vec3 u0 = contact_velocity(c.s, c.s.vel, c.s.spin, c.n) - c.wall_velocity;
        const Vec3 u1 = contact_velocity(c.s, o.vel, o.spin, c.n) - c.wall_velocity;
        const Vec3 un0 = u0.dot(c.n) * c.n, ut0 = u0 - un0;
        const Vec3 un1 = u1.dot(c.n) * c.n, ut1 = u1 - un1;
        const double scale = 32 * eps * (u0.norm() + c.wall_velocity.norm());
        EXPECT_LT((un1 + e.normal * un0).norm(), scale) << k;
        EXPECT_LT((ut1 - e.tangential * ut0).norm(), scale) << k;
        // The energy lost in the frame of the wall's surface point.
        const auto kinetic = [&](const Vec3& v, const Vec3& w) {
            return 0.5 * c.s.mass * (v - c.wall_velocity).squaredNorm() +
                   0.5 * c.s.inertia * w.squaredNorm();
        };
        const double e0 = kinetic(c.s.vel, c.s.spin);
        EXPECT_NEAR(e0 - kinetic(o.vel, o.spin),
                    wall_contact_energy_loss(c.s, c.n, c.wall_velocity, e), 64 * eps * e0)
            << k;
        // The impulse acts at the contact point: angular momentum about it is kept.
        const Vec3 contact = c.s.pos - c.s.radius * c.n;
        const auto l = [&](const Vec3& v, const Vec3& w) -> Vec3 {
            return c.s.mass * (c.s.pos - contact).cross(v) + c.s.inertia * w;
        };
        const double l_scale =
            c.s.mass * c.s.radius * (c.s.vel.norm() + o.vel.norm()) + c.s.inertia * c.s.spin.norm();
        EXPECT_LT((l(o.vel, o.spin) - l(c.s.vel, c.s.spin)).norm(), 64 * eps * l_scale) << k;
        EXPECT_LT((o.impulse - c.s.mass * (o.vel - c.s.vel)).norm(),
                  16 * eps * c.s.mass * (o.vel.norm() + c.s.vel.norm()));
    }
}

TEST(WallResolve, SmoothElasticWallReflectsAndLeavesTheSpin) {
    const double m = 2.0, r = 0.5;
    const SphereState s{
        m, r, solid_sphere_inertia(m, r), Vec3(0, 0, r), Vec3(3, -1, -4), Vec3(0.3, 0.2, 0.1)};
    const WallOutcome o = resolve_wall_contact(s, Vec3::UnitZ(), Vec3::Zero(), Restitution{1, 1});
    EXPECT_EQ(o.vel, Vec3(3, -1, 4));
    EXPECT_EQ(o.spin, s.spin);
}

TEST(WallResolve, StickingContactRollsAtFiveSevenths) {
    // eps_t = 0 on a fixed floor: the contact point stops; a sphere sliding at v0 without spin
    // leaves rolling at 5/7 v0 (angular momentum about the contact point m R v0 = (I + m R^2) w).
    const double m = 1.0, r = 1.0;
    const SphereState s{m,           r, solid_sphere_inertia(m, r), Vec3(0, 0, r), Vec3(7, 0, -1),
                        Vec3::Zero()};
    const WallOutcome o = resolve_wall_contact(s, Vec3::UnitZ(), Vec3::Zero(), Restitution{0, 0});
    EXPECT_NEAR(o.vel.x(), 5.0, 8 * eps * 7);
    EXPECT_NEAR(o.spin.y() * r, 5.0, 8 * eps * 7);
    EXPECT_EQ(o.vel.z(), 0.0);
}

} // namespace
} // namespace rubble::collisions
