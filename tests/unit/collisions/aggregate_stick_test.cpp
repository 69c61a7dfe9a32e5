// SPDX-License-Identifier: MIT
// Sticking inside the event-driven drift (collisions.outcome = "stick", pkdgrav's sticky
// aggregates; issue 20, item 4): bodies that meet at or below stick_speed become one rigid
// aggregate, keeping mass, momentum and angular momentum to round-off and losing kinetic
// energy; faster contacts bounce; a converging cloud of spheres and aggregates clumps.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "aggregates.hpp"
#include "rubble/collisions/event_drift.hpp"
#include "rubble/core/rigid_body.hpp"
#include "tolerances.hpp"

namespace rubble::collisions {
namespace {

using test::eps;

using test::cube_parts;
using test::Totals;
using test::totals;

// Two spinning cubes meeting off-centre at a closing speed of `speed`.
Bodies two_cubes(double speed) {
    Bodies b;
    add_rigid_body(b, 1, cube_parts(0.5, 1000.0), Vec3(0, 0, 0), Vec3(0.5 * speed, 0, 0),
                   Vec3(0.1, -0.2, 0.3));
    add_rigid_body(b, 2, cube_parts(0.5, 1000.0), Vec3(3.0, 0.6, 0.3), Vec3(-0.5 * speed, 0, 0),
                   Vec3(0.0, 0.2, -0.1), Quat(Eigen::AngleAxisd(0.3, Vec3(1, 1, 0).normalized())));
    return b;
}

TEST(AggregateStick, SlowContactsStickIntoOneAggregateKeepingMomentum) {
    Bodies b = two_cubes(0.2);
    const Totals before = totals(b);
    CollisionConfig c;
    c.outcome = ContactOutcome::stick;
    c.stick_speed = 1.0;
    EventDrivenDrift drift(c);
    const DriftStats s = drift.drift(b, 10.0, 0.0);
    EXPECT_EQ(s.collisions, 1);
    EXPECT_EQ(s.merges, 1);
    ASSERT_EQ(b.size(), 1u);
    EXPECT_EQ(b.spheres.size(), 16u);
    const Totals after = totals(b);
    EXPECT_NEAR(after.mass, before.mass, 4 * eps * before.mass);
    EXPECT_LE((after.p - before.p).norm(), 64 * eps * before.p_scale);
    EXPECT_LE((after.l - before.l).norm(), 64 * eps * before.l_scale);
    EXPECT_LT(after.kinetic, before.kinetic);
    // The union is what mass_properties makes of its spheres where they stand.
    std::vector<SpherePart> parts;
    for (std::size_t k = 0; k < b.spheres.size(); ++k)
        parts.push_back({sphere_centre(b, k), b.spheres.radius[k], b.spheres.mass[k]});
    const MassProperties mp = mass_properties(parts);
    EXPECT_LE((mp.centre - b.pos[0]).norm(), 64 * eps * 4.0);
    EXPECT_LE((mp.inertia - inertia_tensor(b, 0)).norm(), 64 * eps * mp.inertia.norm());
}

TEST(AggregateStick, FastContactsBounce) {
    Bodies b = two_cubes(2.0);
    CollisionConfig c;
    c.outcome = ContactOutcome::stick;
    c.stick_speed = 0.5;
    EventDrivenDrift drift(c);
    const DriftStats s = drift.drift(b, 3.0, 0.0);
    EXPECT_GE(s.collisions, 1);
    EXPECT_EQ(s.merges, 0);
    EXPECT_EQ(b.size(), 2u);
}

TEST(AggregateStick, AConvergingCloudClumpsKeepingMomentumAndSpheres) {
    // 27 lumpy aggregates and 13 spheres falling together (aggregates.hpp), every contact
    // sticking: over a few drifts they clump into fewer bodies; mass, spheres, momentum and
    // angular momentum are kept (round-off growing with the number of contacts), energy is lost.
    Bodies b = test::aggregate_cloud(27, 6, 0.5, 3);
    Vec3 centre = Vec3::Zero();
    for (std::size_t k = 0; k < b.size(); ++k)
        centre += b.pos[k] / static_cast<double>(b.size());
    for (std::size_t k = 0; k < b.size(); ++k)
        b.vel[k] = -0.4 * (b.pos[k] - centre);
    const Totals before = totals(b);
    const std::size_t spheres = b.spheres.size(), bodies = b.size();
    CollisionConfig c;
    c.outcome = ContactOutcome::stick;
    EventDrivenDrift drift(c);
    std::int64_t merges = 0, contacts = 0;
    for (int step = 0; step < 10; ++step) {
        const DriftStats s = drift.drift(b, 0.5, 0.5 * step);
        merges += s.merges;
        contacts += s.collisions;
    }
    const Totals after = totals(b);
    EXPECT_GT(merges, 10);
    EXPECT_EQ(b.size() + static_cast<std::size_t>(merges), bodies);
    EXPECT_EQ(b.spheres.size(), spheres);
    EXPECT_NEAR(after.mass, before.mass, 64 * eps * before.mass);
    const auto n = static_cast<double>(contacts + merges + 1);
    EXPECT_LE((after.p - before.p).norm(), 64 * eps * before.p_scale * n);
    EXPECT_LE((after.l - before.l).norm(), 64 * eps * before.l_scale * n);
    EXPECT_LT(after.kinetic, before.kinetic);
}

} // namespace
} // namespace rubble::collisions
