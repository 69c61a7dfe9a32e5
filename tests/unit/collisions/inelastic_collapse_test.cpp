// SPDX-License-Identifier: MIT
// Inelastic collapse (Richardson, PiTP lectures; McNamara & Young 1994, Phys. Rev. E 50, R28):
// systems that would collide infinitely often in finite time must finish, with the guards.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "rubble/collisions/event_drift.hpp"
#include "rubble/collisions/restitution_law.hpp"
#include "rubble/core/error.hpp"
#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/integrate/simulation.hpp"

namespace rubble::collisions {
namespace {

// Three equal spheres on a line, one moving onto a touching pair at rest. For eps_n below
// 7 - 4 sqrt(3) = 0.072 the exact dynamics collide infinitely often before a finite time
// (McNamara & Young 1994), so an honest event-driven code either collapses or is guarded.
Bodies triplet() {
    Bodies b;
    b.add_sphere(0, 1.0, 0.5, Vec3(-1.1, 0, 0), Vec3(1.0, 0, 0), Vec3::Zero());
    b.add_sphere(1, 1.0, 0.5, Vec3(0.0, 0, 0), Vec3::Zero(), Vec3::Zero());
    b.add_sphere(2, 1.0, 0.5, Vec3(1.0, 0, 0), Vec3::Zero(), Vec3::Zero());
    return b;
}

// Unguarded, the speeds of the chain A-B, B-C, A-B, ... fall by a constant factor per
// collision and only round-off ends the sequence (here after some 40 collisions in one
// instant); a run that hits collisions.max_per_body stops with an error naming the cure.
TEST(InelasticCollapse, UnguardedTripletRunsToRoundOffOrStopsWithAClearError) {
    CollisionConfig c;
    c.eps_n = 0.05;
    {
        Bodies b = triplet();
        EventDrivenDrift engine(c);
        EXPECT_GT(engine.drift(b, 1.0, 0.0).collisions, 30);
    }
    Bodies b = triplet();
    c.max_per_body = 10;
    EventDrivenDrift engine(c);
    try {
        (void)engine.drift(b, 1.0, 0.0);
        FAIL() << "expected an inelastic-collapse error";
    } catch (const PhysicsError& e) {
        EXPECT_NE(std::string(e.what()).find("inelastic collapse"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("collisions.v_min"), std::string::npos);
    }
}

TEST(InelasticCollapse, MinimumImpactSpeedEndsItTouchingAndNearlyAtRest) {
    Bodies b = triplet();
    CollisionConfig c;
    c.eps_n = 0.05;
    c.v_min = 1e-3;
    c.max_per_body = 1000;
    EventDrivenDrift engine(c);
    const double h = 1.0;
    const DriftStats s = engine.drift(b, h, 0.0);
    EXPECT_LT(s.collisions, 20);
    EXPECT_GT(s.elastic_by_guard, 0);
    // Below v_min collisions are elastic and only exchange the small relative speeds left, so
    // no pair separates faster than 2 v_min and no gap exceeds that times the drift.
    for (int k = 0; k < 2; ++k) {
        const double rel =
            b.vel[static_cast<std::size_t>(k + 1)].x() - b.vel[static_cast<std::size_t>(k)].x();
        const double gap = b.pos[static_cast<std::size_t>(k + 1)].x() -
                           b.pos[static_cast<std::size_t>(k)].x() - 1.0;
        EXPECT_LT(std::abs(rel), 2.0 * c.v_min) << k;
        EXPECT_GT(gap, -1e-12) << k;
        EXPECT_LT(gap, 2.0 * c.v_min * h) << k;
    }
    // Momentum is kept: the three move on together at a third of the first one's speed.
    EXPECT_NEAR(b.vel[0].x() + b.vel[1].x() + b.vel[2].x(), 1.0, 1e-15);
}

TEST(InelasticCollapse, CriticalTravelRuleEndsIt) {
    Bodies b = triplet();
    CollisionConfig c;
    c.eps_n = 0.05;
    c.f_crit = 1e-3;
    c.max_per_body = 1000;
    EventDrivenDrift engine(c);
    const DriftStats s = engine.drift(b, 1.0, 0.0);
    EXPECT_LT(s.collisions, 20);
    EXPECT_GT(s.elastic_by_guard, 0);
    for (int k = 0; k < 2; ++k)
        EXPECT_GT(b.pos[static_cast<std::size_t>(k + 1)].x() -
                      b.pos[static_cast<std::size_t>(k)].x(),
                  1.0 - 1e-12);
}

// Two self-gravitating spheres released touching, eps_n = 0.5: every step's kick makes them
// approach again, so without an event-driven contact they would sink into each other, and a
// naive treatment collides without end. They must stay touching, never overlapping beyond
// round-off, with a bounded number of collisions per step and a relative speed no larger
// than one step's gravitational pull, G (m1 + m2) / sigma^2 dt.
TEST(InelasticCollapse, SelfGravitatingPairSettlesInContact) {
    Bodies b;
    b.add_sphere(0, 1.0, 0.5, Vec3(-0.5, 0, 0), Vec3::Zero(), Vec3::Zero());
    b.add_sphere(1, 1.0, 0.5, Vec3(0.5, 0, 0), Vec3::Zero(), Vec3::Zero());
    const double dt = 0.01;
    integrate::Simulation sim(std::move(b), std::make_unique<gravity::DirectGravity>(1.0, 0.0), dt);
    CollisionConfig c;
    c.eps_n = 0.5;
    sim.set_stepper(std::make_unique<EventDrivenDrift>(c));
    const double pull = 2.0 / 1.0 * dt;
    std::int64_t total = 0;
    for (int step = 0; step < 2000; ++step) {
        sim.step();
        const auto& s = sim.last_stats();
        ASSERT_LE(s.contacts, 2) << "step " << step;
        ASSERT_EQ(s.overlaps, 0) << "step " << step;
        total += s.contacts;
        const Bodies& x = sim.bodies();
        const double d = (x.pos[1] - x.pos[0]).norm();
        ASSERT_GT(d, 1.0 - 1e-12) << "step " << step;
        ASSERT_LT(d, 1.0 + pull * dt) << "step " << step;
        ASSERT_LE((x.vel[1] - x.vel[0]).norm(), pull) << "step " << step;
    }
    EXPECT_GT(total, 1000); // in contact, the pair is stopped every step
}

TEST(RestitutionLaw, PowerLawAndGuards) {
    CollisionConfig c;
    c.eps_n = 0.8;
    c.eps_t = 0.5;
    c.law = RestitutionLaw::power_law;
    c.v_ref = 0.01;
    c.exponent = 0.234;
    EXPECT_DOUBLE_EQ(restitution_for(c, 0.001, false).normal, 0.8); // capped at eps_n
    EXPECT_NEAR(restitution_for(c, 1.0, false).normal, std::pow(100.0, -0.234), 1e-15);
    EXPECT_DOUBLE_EQ(restitution_for(c, 1.0, false).tangential, 0.5);
    c.v_min = 2.0;
    EXPECT_DOUBLE_EQ(restitution_for(c, 1.0, false).normal, 1.0);
    EXPECT_DOUBLE_EQ(restitution_for(c, 1.0, false).tangential, 0.5);
    const Restitution r = restitution_for(c, 5.0, true);
    EXPECT_DOUBLE_EQ(r.normal, 1.0);
    EXPECT_DOUBLE_EQ(r.tangential, 1.0);
}

} // namespace
} // namespace rubble::collisions
