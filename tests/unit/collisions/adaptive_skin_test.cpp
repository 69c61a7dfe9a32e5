// SPDX-License-Identifier: MIT
// The adaptive neighbourhood margin (collisions.skin = 0): its rule, its hysteresis, the cap a
// periodic box sets, and that it changes what the engine costs but never which collisions
// happen.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "gas.hpp"
#include "rubble/collisions/adaptive_skin.hpp"
#include "rubble/collisions/event_drift.hpp"
#include "rubble/core/error.hpp"

namespace rubble::collisions {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

TEST(AdaptiveSkin, RuleGrowsWithTheFreePathWithinItsBounds) {
    EXPECT_DOUBLE_EQ(skin_for_free_path(0.0), AdaptiveSkin::min_skin);
    EXPECT_DOUBLE_EQ(skin_for_free_path(1.0), 0.9);
    EXPECT_DOUBLE_EQ(skin_for_free_path(inf), AdaptiveSkin::max_skin); // nothing collides
    EXPECT_DOUBLE_EQ(skin_for_free_path(std::nan("")), AdaptiveSkin::first_skin);
    double last = 0.0;
    for (double lambda = 0.01; lambda < 100.0; lambda *= 1.5) {
        const double s = skin_for_free_path(lambda);
        EXPECT_GE(s, last) << lambda;
        last = s;
    }
}

TEST(AdaptiveSkin, ChangesOnlyBeyondTheHysteresis) {
    AdaptiveSkin a;
    EXPECT_EQ(a.next(inf), AdaptiveSkin::first_skin);
    // Free path 0.36 radii: the rule says 0.54, within a factor 1.3 of 0.5: kept.
    a.learn(/*path=*/0.36 * 2.0 * 1000.0, /*collisions=*/1000, /*mean_radius=*/1.0,
            /*neighbours=*/8.0);
    EXPECT_EQ(a.current(), AdaptiveSkin::first_skin);
    // Free path 4 radii: 1.8.
    a.learn(4.0 * 2.0 * 1000.0, 1000, 1.0, 8.0);
    EXPECT_DOUBLE_EQ(a.current(), 1.8);
    // Nothing collided: the rule says 2, within a factor 1.3 of 1.8: kept.
    a.learn(1e6, 0, 1.0, 8.0);
    EXPECT_DOUBLE_EQ(a.current(), 1.8);
    // A resting pile (free path 0.01 radii): the smallest.
    a.learn(0.01 * 2.0 * 1000.0, 1000, 1.0, 8.0);
    EXPECT_DOUBLE_EQ(a.current(), AdaptiveSkin::min_skin);
}

TEST(AdaptiveSkin, DoesNotGrowLongLists) {
    AdaptiveSkin a;
    // A still, dense pile: nothing collides, and the lists are long already.
    a.learn(0.0, 0, 1.0, 2.0 * AdaptiveSkin::long_lists);
    EXPECT_EQ(a.current(), AdaptiveSkin::first_skin);
    // It may still shrink them.
    a.learn(0.01 * 2.0 * 1000.0, 1000, 1.0, 2.0 * AdaptiveSkin::long_lists);
    EXPECT_EQ(a.current(), AdaptiveSkin::min_skin);
}

TEST(AdaptiveSkin, StaysBelowThePeriodicCap) {
    AdaptiveSkin a;
    a.learn(1e6, 0, 1.0, 8.0); // wants the largest
    EXPECT_DOUBLE_EQ(a.next(1.0), AdaptiveSkin::below_cap * 1.0);
    a.learn(1e6, 0, 1.0, 8.0); // and stays below the cap it last saw
    EXPECT_DOUBLE_EQ(a.next(1.0), AdaptiveSkin::below_cap * 1.0);
}

// Runs `drifts` drifts of an elastic gas, returning the bodies and each drift's statistics.
struct GasRun {
    Bodies bodies;
    std::vector<DriftStats> stats;
};
GasRun run_gas(double phi, double skin, double h, int drifts) {
    test::Gas gas = test::lattice_gas(2000, phi, 1.0, 3);
    CollisionConfig c;
    c.eps_n = 1.0;
    c.periodic_box = gas.box;
    c.skin = skin;
    EventDrivenDrift engine(c);
    GasRun r;
    for (int k = 0; k < drifts; ++k)
        r.stats.push_back(engine.drift(gas.bodies, h, k * h));
    r.bodies = gas.bodies;
    return r;
}

// The skin decides which pairs are listed, never which collide (every pair that can collide
// is listed, and an exit moves nothing): bitwise the same bodies as with a fixed skin.
TEST(AdaptiveSkin, SameCollisionsAsAFixedSkin) {
    const GasRun fixed = run_gas(0.05, 0.5, 0.4, 8);
    const GasRun adaptive = run_gas(0.05, 0.0, 0.4, 8);
    for (std::size_t k = 0; k < fixed.stats.size(); ++k)
        EXPECT_EQ(fixed.stats[k].collisions, adaptive.stats[k].collisions) << "drift " << k;
    for (std::size_t i = 0; i < fixed.bodies.size(); ++i) {
        EXPECT_EQ(fixed.bodies.pos[i], adaptive.bodies.pos[i]) << i;
        EXPECT_EQ(fixed.bodies.vel[i], adaptive.bodies.vel[i]) << i;
    }
    // What the adaptive skin is for: fewer renewals in the dilute gas.
    std::int64_t renewals_fixed = 0, renewals_adaptive = 0;
    for (std::size_t k = 2; k < fixed.stats.size(); ++k) {
        renewals_fixed += fixed.stats[k].renewals;
        renewals_adaptive += adaptive.stats[k].renewals;
    }
    EXPECT_LT(2 * renewals_adaptive, renewals_fixed);
}

// Enskog's mean free path (Chapman & Cowling 1970; the collision frequency of
// granular_gas_test.cpp) is 4.1 radii at packing 0.05 and 0.32 at 0.3: the rule's skins
// 0.9 sqrt(lambda / R) are 1.8 and 0.51. The estimate from one drift's collisions scatters by
// a few per cent at 2000 bodies, and the hysteresis keeps a skin within a factor 1.3.
TEST(AdaptiveSkin, ThickInADiluteGasThinInADenseOne) {
    const GasRun dilute = run_gas(0.05, 0.0, 0.4, 6);
    EXPECT_GT(dilute.stats.back().skin, 1.8 / AdaptiveSkin::hysteresis);
    EXPECT_LE(dilute.stats.back().skin, AdaptiveSkin::max_skin);
    const GasRun dense = run_gas(0.3, 0.0, 0.1, 6);
    EXPECT_GT(dense.stats.back().skin, 0.51 / AdaptiveSkin::hysteresis);
    EXPECT_LT(dense.stats.back().skin, 0.51 * AdaptiveSkin::hysteresis);
    // A new skin rebuilds the lists; the hysteresis keeps that to the first drift and the
    // change after it.
    int rebuilds = 0;
    for (const DriftStats& s : dilute.stats)
        rebuilds += s.rebuilt ? 1 : 0;
    EXPECT_LE(rebuilds, 2);
}

// In a periodic box the largest neighbourhood plus a drift's sweep must stay within a quarter
// of the box: where the skin the rule wants does not fit, a smaller one is used instead of
// stopping the run.
TEST(AdaptiveSkin, FitsThePeriodicBox) {
    const double h = 0.7;
    test::Gas gas = test::lattice_gas(2000, 0.05, 1.0, 3);
    double sweep = 0.0;
    for (const Vec3& v : gas.bodies.vel)
        sweep = std::max(sweep, v.norm() * h);
    const double cap = (0.25 * gas.box - sweep) / gas.radius - 1.0;
    ASSERT_GT(cap, AdaptiveSkin::min_skin);
    ASSERT_LT(cap, AdaptiveSkin::max_skin) << "the test needs a box the largest skin overfills";
    CollisionConfig c;
    c.periodic_box = gas.box;
    c.skin = AdaptiveSkin::max_skin;
    Bodies copy = gas.bodies;
    EXPECT_THROW((void)EventDrivenDrift(c).drift(copy, h, 0.0), PhysicsError);
    c.skin = 0.0;
    EventDrivenDrift engine(c);
    for (int k = 0; k < 3; ++k) {
        const DriftStats s = engine.drift(gas.bodies, h, k * h);
        EXPECT_LE(s.skin, cap) << "drift " << k;
    }
}

} // namespace
} // namespace rubble::collisions
