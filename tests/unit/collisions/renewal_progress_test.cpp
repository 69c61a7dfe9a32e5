// SPDX-License-Identifier: MIT
// Issue 18, item 1: the event loop must always make progress. The G = 1 cold collapse hung
// because one force evaluation kicked a body to ~2e27 length units per time unit: its
// neighbourhood (room skin R = 2e-3) was crossed in ~1e-30 time units, below the resolution of
// the drift's clock (times ~1e-3), so each renewal queued the next exit at the same time and
// NeighbourLists::renew ran on that body forever. The geometry here is that body's: radius
// 0.01, touching a neighbour at centre distance 1.00066 (R1 + R2), a drift of 1e-3 t_ff.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <string>

#include "rubble/collisions/event_drift.hpp"
#include "rubble/core/error.hpp"

namespace rubble::collisions {
namespace {

constexpr double radius = 0.01;
constexpr double h = 1.1107207345395916e-3; // 1e-3 t_ff of the issue's cloud (G = 1)

// The stuck body (velocity as the wrong kick left it) and the neighbour it touched.
Bodies touching_pair(const Vec3& v) {
    Bodies b;
    b.add_sphere(9642, 1e-4, radius, Vec3(0.0953, -0.0827, -0.0119), v, Vec3::Zero());
    b.add_sphere(697, 1e-4, radius, Vec3(0.0953 + 1.00066 * 2.0 * radius, -0.0827, -0.0119),
                 Vec3::Zero(), Vec3::Zero());
    return b;
}

CollisionConfig issue_config() {
    CollisionConfig c;
    c.eps_n = 0.5;
    c.eps_t = 1.0;
    c.f_crit = 0.01;
    c.overlaps = OverlapStrategy::trace_back;
    c.skin = 0.2; // the adaptive skin's floor, the one the pile had
    return c;
}

// Runs one drift; true when it stopped with the PhysicsError that names the speed.
bool drift_stops_with_speed_error(Bodies b, const CollisionConfig& c) {
    EventDrivenDrift engine(c);
    try {
        (void)engine.drift(b, h, 0.93078);
    } catch (const PhysicsError& e) {
        return std::string(e.what()).find("a speed no step resolves") != std::string::npos;
    }
    return false;
}

// The issue's state: before the fix this drift never returned. It runs in a child process
// with an alarm, so that a hang fails the test (killed by SIGALRM) instead of stalling the
// suite; the fixed engine stops at once with a PhysicsError.
TEST(RenewalProgressDeathTest, BodyTooFastForTheClockStopsTheDrift) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const Vec3 kicked(2.2538235799269347e+27, 0.27723234547628439, 2.8172794749086684e+26);
    EXPECT_EXIT(
        {
            alarm(20);
            std::exit(drift_stops_with_speed_error(touching_pair(kicked), issue_config()) ? 0 : 1);
        },
        ::testing::ExitedWithCode(0), "");
}

// A body fast enough to need ~1e6 renewals in one drift, but not so fast that the clock stalls:
// before the fix the drift ground through them all; now max_per_body bounds renewals as it
// bounds collisions.
TEST(RenewalProgress, RenewalsAreBoundedByMaxPerBody) {
    CollisionConfig c = issue_config();
    c.max_per_body = 1000;
    // |v| h / (2 skin R) = 1e6 rooms crossed.
    const double speed = 1e6 * 2.0 * c.skin * radius / h;
    EXPECT_TRUE(drift_stops_with_speed_error(touching_pair(Vec3(-speed, 0, 0)), c));
}

// Below the bound a fast body is followed exactly: it bounces off its touching neighbour once
// and crosses ~400 rooms with every renewal counted.
TEST(RenewalProgress, FastBodyBelowTheBoundIsFollowed) {
    CollisionConfig c = issue_config();
    c.max_per_body = 1000;
    const double speed = 400.0 * 2.0 * c.skin * radius / h;
    Bodies b = touching_pair(Vec3(speed, 0, 0));
    EventDrivenDrift engine(c);
    const DriftStats s = engine.drift(b, h, 0.0);
    EXPECT_EQ(s.collisions, 1);
    EXPECT_GT(s.renewals, 100);
    EXPECT_LT(s.renewals, 1000);
}

// Far from the origin in units of its room (1e8 to 1e11 radii: a ring or a heliocentric
// cloud), a body's coordinates are coarser than room_margin of its room; before the fix a
// renewal ahead could leave the body on the edge of its new neighbourhood, its next exit came
// at once, and the drift never ended (at 1e8 radii on the first renewal). The margin now
// covers the coordinates' round-off too, and the body is followed to the end of the drift.
bool far_bodies_are_followed() {
    bool ok = true;
    for (const double far : {1e8, 1e9, 1e10, 1e11}) {
        const Vec3 x0(far * radius, 0.3 * far * radius, 0.0), v(1.0, 0.7, 0.2);
        Bodies b;
        b.add_sphere(1, 1e-4, radius, x0, v, Vec3::Zero());
        EventDrivenDrift engine(issue_config());
        const double drift = 10.0; // some 1200 radii, 3000 renewals
        const DriftStats s = engine.drift(b, drift, 0.0);
        ok = ok && s.renewals > 1000 && b.pos[0] == Vec3(x0 + drift * v);
    }
    return ok;
}

TEST(RenewalProgressDeathTest, BodyFarFromTheOriginIsFollowed) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            alarm(20);
            std::exit(far_bodies_are_followed() ? 0 : 1);
        },
        ::testing::ExitedWithCode(0), "");
}

} // namespace
} // namespace rubble::collisions
