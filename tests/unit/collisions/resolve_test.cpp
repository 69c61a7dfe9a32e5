// SPDX-License-Identifier: MIT
// Restitution with spin: conservation to round-off, the analytic energy loss, the restitution
// of the contact velocity, and beta = 2/7 for solid spheres.
#include <cmath>

#include <gtest/gtest.h>

#include "rubble/collisions/resolve.hpp"
#include "rubble/core/bodies.hpp"
#include "rubble/core/random.hpp"
#include "tolerances.hpp"

using namespace rubble;
using namespace rubble::collisions;
using rubble::test::eps;

namespace {

SphereState sphere(double m, double r, const Vec3& x, const Vec3& v, const Vec3& w) {
    return {m, r, solid_sphere_inertia(m, r), x, v, w};
}

// A random touching pair whose surfaces approach.
std::pair<SphereState, SphereState> random_contact(Rng& rng) {
    const double r1 = rng.uniform(0.1, 3.0), r2 = rng.uniform(0.1, 3.0);
    const Vec3 n = rng.unit_vector();
    const Vec3 x1 = rng.in_ball(10.0);
    SphereState a = sphere(rng.uniform(1.0, 100.0), r1, x1, rng.in_ball(1.0), rng.in_ball(2.0));
    SphereState b =
        sphere(rng.uniform(1.0, 100.0), r2, x1 + (r1 + r2) * n, rng.in_ball(1.0), rng.in_ball(2.0));
    b.vel -= 2.0 * n; // make the normal relative velocity negative
    return {a, b};
}

double kinetic(const SphereState& s, const Vec3& v, const Vec3& w) {
    return 0.5 * s.mass * v.squaredNorm() + 0.5 * s.inertia * w.squaredNorm();
}

Vec3 angular_momentum(const SphereState& s, const Vec3& v, const Vec3& w) {
    return s.mass * s.pos.cross(v) + s.inertia * w;
}

// Kinetic energy (J) a collision takes away, from the formula of resolve.hpp (Richardson,
// PiTP lectures): mu/2 [(1 - eps_n^2) |u_n|^2 + beta (1 - eps_t^2) |u_t|^2], with u the
// relative velocity of the contact points. Written here from the contact geometry, apart
// from the code under test.
double energy_loss(const SphereState& s1, const SphereState& s2, const Restitution& e) {
    const Vec3 n = (s2.pos - s1.pos).normalized();
    const Vec3 u =
        (s2.vel + s2.spin.cross(-s2.radius * n)) - (s1.vel + s1.spin.cross(s1.radius * n));
    const Vec3 un = u.dot(n) * n, ut = u - un;
    const double mu = s1.mass * s2.mass / (s1.mass + s2.mass);
    return 0.5 * mu *
           ((1.0 - e.normal * e.normal) * un.squaredNorm() +
            tangential_beta(s1, s2) * (1.0 - e.tangential * e.tangential) * ut.squaredNorm());
}

} // namespace

TEST(Resolve, BetaIsTwoSeventhsForSolidSpheresOfAnySize) {
    Rng rng(1);
    for (int k = 0; k < 100; ++k) {
        const auto [a, b] = random_contact(rng);
        EXPECT_NEAR(tangential_beta(a, b), 2.0 / 7.0, 8 * eps);
    }
}

TEST(Resolve, ConservesMomentumAndAngularMomentumAndLosesTheAnalyticEnergy) {
    Rng rng(2);
    for (int k = 0; k < 500; ++k) {
        const auto [a, b] = random_contact(rng);
        const Restitution e{rng.uniform(0.0, 1.0), rng.uniform(-1.0, 1.0)};
        const Outcome o = resolve_collision(a, b, e);
        const Vec3 p0 = a.mass * a.vel + b.mass * b.vel;
        const Vec3 p1 = a.mass * o.vel1 + b.mass * o.vel2;
        const double p_scale = a.mass * a.vel.norm() + b.mass * b.vel.norm() + o.impulse.norm();
        EXPECT_LT((p1 - p0).norm(), 16 * eps * p_scale);
        const Vec3 l0 = angular_momentum(a, a.vel, a.spin) + angular_momentum(b, b.vel, b.spin);
        const Vec3 l1 = angular_momentum(a, o.vel1, o.spin1) + angular_momentum(b, o.vel2, o.spin2);
        const double l_scale = (a.pos.norm() + b.pos.norm() + a.radius + b.radius) * p_scale +
                               a.inertia * a.spin.norm() + b.inertia * b.spin.norm();
        EXPECT_LT((l1 - l0).norm(), 64 * eps * l_scale);
        const double e0 = kinetic(a, a.vel, a.spin) + kinetic(b, b.vel, b.spin);
        const double e1 = kinetic(a, o.vel1, o.spin1) + kinetic(b, o.vel2, o.spin2);
        EXPECT_NEAR(e0 - e1, energy_loss(a, b, e), 64 * eps * e0);
        EXPECT_GE(energy_loss(a, b, e), 0.0);
    }
}

TEST(Resolve, ContactVelocityIsRestitutedAsSpecified) {
    Rng rng(3);
    for (int k = 0; k < 200; ++k) {
        auto [a, b] = random_contact(rng);
        const Restitution e{0.4, -0.3};
        const Vec3 n = (b.pos - a.pos).normalized();
        // Returns Vec3, not an Eigen expression that would outlive its operands.
        const auto surface_velocity = [&](const Vec3& v1, const Vec3& w1, const Vec3& v2,
                                          const Vec3& w2) -> Vec3 {
            return (v2 + w2.cross(-b.radius * n)) - (v1 + w1.cross(a.radius * n));
        };
        const Vec3 u = surface_velocity(a.vel, a.spin, b.vel, b.spin);
        const Outcome o = resolve_collision(a, b, e);
        const Vec3 u1 = surface_velocity(o.vel1, o.spin1, o.vel2, o.spin2);
        const Vec3 un = u.dot(n) * n, ut = u - un;
        const double scale = 64 * eps *
                             (u.norm() + a.vel.norm() + b.vel.norm() + a.radius * a.spin.norm() +
                              b.radius * b.spin.norm());
        EXPECT_NEAR((u1.dot(n) * n + e.normal * un).norm(), 0.0, scale);
        EXPECT_NEAR((u1 - u1.dot(n) * n - e.tangential * ut).norm(), 0.0, scale);
    }
}

TEST(Resolve, ElasticSmoothHeadOnSwapsEqualMasses) {
    const SphereState a = sphere(2.0, 1.0, Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 0, 3));
    const SphereState b = sphere(2.0, 1.0, Vec3(2, 0, 0), Vec3(-1, 0, 0), Vec3(0, 1, 0));
    const Outcome o = resolve_collision(a, b, {1.0, 1.0});
    EXPECT_NEAR((o.vel1 - Vec3(-1, 0, 0)).norm(), 0.0, 8 * eps);
    EXPECT_NEAR((o.vel2 - Vec3(1, 0, 0)).norm(), 0.0, 8 * eps);
    // eps_t = 1: no tangential impulse, spins untouched (a head-on smooth collision).
    EXPECT_EQ(o.spin1, a.spin);
    EXPECT_EQ(o.spin2, b.spin);
    EXPECT_NEAR(energy_loss(a, b, {1.0, 1.0}), 0.0, 8 * eps);
}
