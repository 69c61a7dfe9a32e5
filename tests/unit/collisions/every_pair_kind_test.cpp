// SPDX-License-Identifier: MIT
// What every pair kind of the event-driven engine must do, written once and run over the four
// (sphere or aggregate, meeting a body or a wall: tests/support/pair_kind_cases.hpp): overlaps
// at the start aborted with a message naming both partners, or cleared by each strategy with
// momentum kept (the walls' impulses booked); round-off depths taken as contacts, not overlaps;
// a head-on contact at its analytic time, logged with its partner's id; touching bodies meet
// now when approaching and never when receding. The closed forms of each kind (rolling at 5/7,
// the dumbbell impulse, Newton's cradle) stay in the kinds' own tests.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "pair_kind_cases.hpp"
#include "rubble/collisions/event_drift.hpp"
#include "rubble/core/error.hpp"

namespace rubble::collisions {
namespace {

constexpr double pair_eps = std::numeric_limits<double>::epsilon();

template <class K> class EveryPairKind : public ::testing::Test {};
TYPED_TEST_SUITE(EveryPairKind, test::PairKindCases, test::PairKindCaseNames);

Vec3 pair_momentum(const Bodies& b) {
    Vec3 p = Vec3::Zero();
    for (std::size_t i = 0; i < b.size(); ++i)
        p += b.mass[i] * b.vel[i];
    return p;
}

double momentum_scale(const Bodies& b) {
    double s = 0.0;
    for (std::size_t i = 0; i < b.size(); ++i)
        s += b.mass[i] * b.vel[i].norm();
    return s;
}

CollisionConfig config_of(const std::vector<boundaries::Wall>& walls, OverlapStrategy s) {
    CollisionConfig c;
    c.walls = walls;
    c.overlaps = s;
    c.log = true;
    return c;
}

TYPED_TEST(EveryPairKind, AnAbortNamesBothPartnersTheDepthAndTheKey) {
    Bodies b = TypeParam::overlapping(1e-3, 0.2);
    EventDrivenDrift engine(config_of(TypeParam::walls(), OverlapStrategy::abort));
    try {
        (void)engine.drift(b, 0.1, 5.0);
        FAIL() << "expected a PhysicsError";
    } catch (const PhysicsError& e) {
        const std::string m = e.what();
        for (const std::string& name : TypeParam::named())
            EXPECT_NE(m.find(name), std::string::npos) << m;
        EXPECT_NE(m.find("by 1.000e-03 m"), std::string::npos) << m;
        EXPECT_NE(m.find("t = 5 s"), std::string::npos) << m;
        EXPECT_NE(m.find("collisions.overlaps"), std::string::npos) << m;
    }
}

TYPED_TEST(EveryPairKind, EveryStrategyClearsTheOverlapKeepingMomentumWithTheWallsBudget) {
    const Bodies start = TypeParam::overlapping(1e-3, 0.2);
    const Vec3 p0 = pair_momentum(start);
    const double scale = momentum_scale(start);
    for (const OverlapStrategy s : {OverlapStrategy::trace_back, OverlapStrategy::push_apart,
                                    OverlapStrategy::repulse, OverlapStrategy::merge}) {
        Bodies b = start;
        const CollisionConfig c = config_of(TypeParam::walls(), s);
        EventDrivenDrift engine(c);
        const double h = 0.1;
        const DriftStats first = engine.drift(b, h, 0.0);
        EXPECT_GT(first.overlaps, 0) << static_cast<int>(s);
        // The depth is a difference of lengths of about 1 m: exact to a few of their ulps.
        EXPECT_NEAR(first.max_overlap, 1e-3 / TypeParam::overlap_length, 64 * pair_eps)
            << static_cast<int>(s);
        // Repulsion undoes an overlap within about one step (rigid_overlaps.hpp): cleared by
        // the end of the second drift, as every other strategy at once.
        (void)engine.drift(b, h, h);
        EXPECT_LE(test::deepest_overlap(b, c.walls), c.overlap_tolerance) << static_cast<int>(s);
        Vec3 walls = Vec3::Zero();
        for (const WallImpulse& w : engine.wall_impulses())
            walls += w.linear;
        // Each contact and each strategy keeps momentum to round-off: a few operations per
        // body on momenta of at most `scale`.
        EXPECT_LE((pair_momentum(b) - walls - p0).norm(), 64 * pair_eps * scale)
            << static_cast<int>(s);
    }
}

TYPED_TEST(EveryPairKind, RoundOffDepthsBelowTheToleranceAreContactsNotOverlaps) {
    // 1e-12 of the radii, below collisions.overlap_tolerance (1e-8): a contact reached with the
    // round-off of its prediction, resolved now.
    Bodies b = TypeParam::overlapping(1e-12, 0.2);
    EventDrivenDrift engine(config_of(TypeParam::walls(), OverlapStrategy::abort));
    const DriftStats s = engine.drift(b, 0.1, 0.0);
    EXPECT_EQ(s.overlaps, 0);
    EXPECT_GE(s.collisions, 1);
    const std::vector<CollisionRecord> log = engine.take_log();
    ASSERT_FALSE(log.empty());
    EXPECT_EQ(log.front().time, 0.0);
}

TYPED_TEST(EveryPairKind, AHeadOnContactComesAtItsAnalyticTimeLoggedWithItsPartner) {
    const double gap = 0.1, speed = 1.0, t0 = 2.0, h = 0.5;
    Bodies b = TypeParam::head_on(gap, speed);
    EventDrivenDrift engine(config_of(TypeParam::walls(), OverlapStrategy::abort));
    const DriftStats s = engine.drift(b, h, t0);
    EXPECT_EQ(s.overlaps, 0);
    EXPECT_EQ(s.wall_collisions > 0, !TypeParam::walls().empty());
    const std::vector<CollisionRecord> log = engine.take_log();
    ASSERT_FALSE(log.empty());
    const CollisionRecord& r = log.front();
    // Straight lines and no spin: the quadratic (spheres) and the conservative advance
    // (aggregates, whose bound on the closing speed is then exact) reach the root in one step,
    // up to the round-off of the clock at t0 + h.
    EXPECT_NEAR(r.time, t0 + gap / speed, 64 * pair_eps * (t0 + h));
    EXPECT_EQ(r.id1, TypeParam::log_ids().first);
    EXPECT_EQ(r.id2, TypeParam::log_ids().second);
    EXPECT_NEAR(r.normal_speed, speed, 64 * pair_eps * speed);
    EXPECT_NEAR(r.tangential_speed, 0.0, 64 * pair_eps * speed);
}

TYPED_TEST(EveryPairKind, TouchingBodiesMeetNowWhenApproachingAndNeverWhenReceding) {
    {
        Bodies b = TypeParam::head_on(0.0, -1.0);
        EventDrivenDrift engine(config_of(TypeParam::walls(), OverlapStrategy::abort));
        const DriftStats s = engine.drift(b, 0.5, 0.0);
        EXPECT_EQ(s.collisions, 0);
        EXPECT_EQ(s.grazes, 0);
    }
    Bodies b = TypeParam::head_on(0.0, 1.0);
    EventDrivenDrift engine(config_of(TypeParam::walls(), OverlapStrategy::abort));
    const DriftStats s = engine.drift(b, 0.5, 0.0);
    EXPECT_GE(s.collisions, 1);
    const std::vector<CollisionRecord> log = engine.take_log();
    ASSERT_FALSE(log.empty());
    EXPECT_EQ(log.front().time, 0.0);
}

} // namespace
} // namespace rubble::collisions
