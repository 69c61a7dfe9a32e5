// SPDX-License-Identifier: MIT
// Pairs that overlap at the start of a drift are found and handled by the chosen strategy,
// never passed over (Richardson, PiTP lectures: "Round-off error and overlaps").
#include <gtest/gtest.h>

#include <string>

#include "rubble/collisions/event_drift.hpp"
#include "rubble/core/error.hpp"

namespace rubble::collisions {
namespace {

// Two spheres of radius 0.5 overlapping by 0.1, approaching at 0.2.
Bodies overlapping_pair() {
    Bodies b;
    b.add_sphere(3, 1.0, 0.5, Vec3(0, 0, 0), Vec3(0.1, 0, 0), Vec3::Zero());
    b.add_sphere(8, 3.0, 0.5, Vec3(0.9, 0, 0), Vec3(-0.1, 0, 0), Vec3::Zero());
    return b;
}

Vec3 total_momentum(const Bodies& b) {
    Vec3 p = Vec3::Zero();
    for (std::size_t i = 0; i < b.size(); ++i)
        p += b.mass[i] * b.vel[i];
    return p;
}

DriftStats run(Bodies& b, OverlapStrategy s, double h = 1e-3) {
    CollisionConfig c;
    c.overlaps = s;
    c.eps_n = 1.0;
    EventDrivenDrift engine(c);
    return engine.drift(b, h, 5.0);
}

TEST(Overlaps, AbortNamesTheBodiesTheDepthAndTheTime) {
    Bodies b = overlapping_pair();
    try {
        (void)run(b, OverlapStrategy::abort);
        FAIL() << "expected a PhysicsError";
    } catch (const PhysicsError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("bodies 3 and 8"), std::string::npos) << m;
        EXPECT_NE(m.find("1.000e-01 m"), std::string::npos) << m;
        EXPECT_NE(m.find("t = 5 s"), std::string::npos) << m;
        EXPECT_NE(m.find("collisions.overlaps"), std::string::npos) << m;
    }
}

TEST(Overlaps, RoundOffDepthsBelowTheToleranceAreContacts) {
    Bodies b = overlapping_pair();
    b.pos[1].x() = 1.0 - 1e-12; // overlap 1e-12 of R1 + R2 = 1
    b.vel[0].setZero();
    b.vel[1].setZero();
    const DriftStats s = run(b, OverlapStrategy::abort);
    EXPECT_EQ(s.overlaps, 0);
}

TEST(Overlaps, PushApartKeepsTheCentreOfMassAndVelocities) {
    Bodies b = overlapping_pair();
    b.vel[0].setZero();
    b.vel[1].setZero();
    const Vec3 c0 = centre_of_mass(b);
    const DriftStats s = run(b, OverlapStrategy::push_apart);
    EXPECT_EQ(s.overlaps, 1);
    EXPECT_NEAR(s.max_overlap, 0.1, 1e-15);
    EXPECT_NEAR((b.pos[1] - b.pos[0]).norm(), 1.0, 1e-15);
    EXPECT_LT((centre_of_mass(b) - c0).norm(), 1e-15);
    EXPECT_EQ(b.vel[0], Vec3::Zero());
}

TEST(Overlaps, TraceBackFindsTheMissedCollision) {
    Bodies b = overlapping_pair();
    const Vec3 p0 = total_momentum(b), c0 = centre_of_mass(b);
    const double h = 1e-3;
    const DriftStats s = run(b, OverlapStrategy::trace_back, h);
    EXPECT_EQ(s.overlaps, 1);
    // Backed up 0.1 / 0.2 = 0.5 to contact, bounced elastically (velocities exchanged in the
    // centre-of-mass frame) and carried forward again by 0.5: separating at 0.2, the gap 0.1
    // at the start of the drift and 0.1 + 0.2 h after it.
    EXPECT_NEAR(b.vel[1].x() - b.vel[0].x(), 0.2, 1e-15);
    EXPECT_NEAR((b.pos[1] - b.pos[0]).norm(), 1.1 + 0.2 * h, 1e-14);
    EXPECT_LT((total_momentum(b) - p0).norm(), 1e-15);
    EXPECT_LT((centre_of_mass(b) - (c0 + h * p0 / 4.0)).norm(), 1e-15);
}

TEST(Overlaps, MergeLeavesOneSphere) {
    Bodies b = overlapping_pair();
    const Vec3 p0 = total_momentum(b);
    const DriftStats s = run(b, OverlapStrategy::merge);
    EXPECT_EQ(s.merges, 1);
    ASSERT_EQ(b.size(), 1u);
    EXPECT_EQ(b.id[0], 8); // the heavier survives
    EXPECT_DOUBLE_EQ(b.mass[0], 4.0);
    EXPECT_LT((total_momentum(b) - p0).norm(), 1e-15);
}

TEST(Overlaps, RepulseSeparatesThePairInOneStep) {
    Bodies b = overlapping_pair();
    const Vec3 p0 = total_momentum(b);
    const double h = 0.01;
    (void)run(b, OverlapStrategy::repulse, h);
    // Relative normal velocity set to 0.1 / h outward: the overlap is gone after the drift.
    EXPECT_NEAR(b.vel[1].x() - b.vel[0].x(), 0.1 / h, 1e-12);
    EXPECT_NEAR((b.pos[1] - b.pos[0]).norm(), 1.0, 1e-12);
    EXPECT_LT((total_momentum(b) - p0).norm(), 1e-14);
}

} // namespace
} // namespace rubble::collisions
