// SPDX-License-Identifier: MIT
// An elastic, smooth hard-sphere gas in a closed box (six plane walls), gravity off: a million
// collisions, a tenth of them with the walls, keep the energy to round-off and every sphere
// inside the box.
#include <gtest/gtest.h>

#include <vector>

#include "gas.hpp"
#include "rubble/boundaries/wall.hpp"
#include "rubble/collisions/event_drift.hpp"
#include "tolerances.hpp"

namespace rubble::boundaries {
namespace {

double kinetic_energy(const Bodies& b) {
    double e = 0.0;
    for (std::size_t i = 0; i < b.size(); ++i)
        e += 0.5 * b.mass[i] * b.vel[i].squaredNorm();
    return e;
}

// Every contact (pair or wall) keeps the energy of the bodies involved to a few ulps (a
// reflection v - 2 (v.n) n, or the exchange of normal velocities), never more than a few ulps
// of the total, so after n collisions the total has moved by at most 4 n eps E
// (test::summation_bound; a random walk of the round-off would give about sqrt(n) eps E).
// Spins stay exactly zero (eps_t = 1: no tangential impulse) and no sphere leaves the box.
TEST(BoxGas, ElasticGasInAClosedBoxKeepsItsEnergyOverAMillionCollisions) {
    test::Gas gas = test::lattice_gas(1000, 0.2, 1.0, 5);
    const double half = 0.5 * gas.box;
    collisions::CollisionConfig c;
    c.eps_n = 1.0;
    c.eps_t = 1.0;
    c.walls = box_walls(Vec3::Constant(-half), Vec3::Constant(half), Vec3::Zero(), "walls[0]");
    collisions::EventDrivenDrift drift(c);
    Bodies& b = gas.bodies;
    const double e0 = kinetic_energy(b);
    std::int64_t collisions = 0, on_walls = 0;
    for (int step = 0; collisions < 1'000'000; ++step) {
        const auto s = drift.drift(b, 1.0, step * 1.0);
        collisions += s.collisions;
        on_walls += s.wall_collisions;
        ASSERT_EQ(s.overlaps, 0);
    }
    EXPECT_GT(on_walls, 50'000);
    const double e1 = kinetic_energy(b);
    EXPECT_NEAR(e1, e0, test::summation_bound(static_cast<double>(collisions)) * e0);
    RecordProperty("relative_energy_error", std::to_string(std::abs(e1 - e0) / e0));
    RecordProperty("collisions", std::to_string(collisions));
    for (std::size_t i = 0; i < b.size(); ++i) {
        EXPECT_LE(b.pos[i].cwiseAbs().maxCoeff() + gas.radius, half * (1 + 1e-12)) << i;
        EXPECT_EQ(b.spin[i], Vec3::Zero());
    }
}

} // namespace
} // namespace rubble::boundaries
