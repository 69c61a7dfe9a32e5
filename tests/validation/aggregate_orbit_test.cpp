// SPDX-License-Identifier: MIT
// Two spinning rigid aggregates on a mutual orbit, close enough (separation four times their
// size) that their tidal torques trade angular momentum between spin and orbit, integrated by
// the kick-drift-kick step with gravity torques and the free-rotor drift.
//
// What the method promises: the gravity between spheres is central and pairwise opposite, so a
// kick changes orbital and spin angular momentum by opposite amounts; a drift keeps m x cross v
// (x moves along v) and the spin angular momentum (integrate/free_rotor.hpp). Total angular
// momentum (orbital + spin) is therefore conserved up to round-off in every step. The energy
// is conserved to O(dt^2): leapfrog's error on an orbit of angular frequency Omega is
// O((Omega dt)^2) of the orbital energy (Hairer, Lubich & Wanner 2006, sec. IX.8), the
// rotor's O((|w| dt)^2) of the spin energy (tests/validation/free_rotor_test.cpp).
#include <cmath>
#include <cstdio>
#include <memory>

#include <gtest/gtest.h>

#include "aggregates.hpp"
#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/integrate/diagnostics.hpp"
#include "rubble/integrate/simulation.hpp"
#include "tolerances.hpp"

using namespace rubble;

namespace {

struct Pair {
    Bodies bodies;
    double period;       ///< s, of the circular Kepler orbit of the two centres of mass
    double orbit_energy; ///< J, -G M1 M2 / (2 D)
    double fastest_spin; ///< rad/s
    double spin_energy;  ///< J
};

// Aggregates of 12 and 8 spheres (G = 1, density 1, sphere radii <= 1) at separation D = 14
// on a circular orbit about their centre of mass, each spinning about a random axis.
Pair binary() {
    const double G = 1.0, D = 14.0;
    Rng rng(12);
    const auto a = test::lumpy_aggregate(12, 1.0, 1.0, rng);
    const auto b = test::lumpy_aggregate(8, 1.0, 1.0, rng);
    const double m1 = mass_properties(a).mass, m2 = mass_properties(b).mass, M = m1 + m2;
    const double v = std::sqrt(G * M / D);
    const Vec3 w1 = 0.15 * rng.unit_vector(), w2 = 0.2 * rng.unit_vector();
    Pair p;
    add_rigid_body(p.bodies, 0, a, Vec3(-D * m2 / M, 0, 0), Vec3(0, -v * m2 / M, 0), w1,
                   test::random_rotation(rng));
    add_rigid_body(p.bodies, 1, b, Vec3(D * m1 / M, 0, 0), Vec3(0, v * m1 / M, 0), w2,
                   test::random_rotation(rng));
    p.period = 2.0 * pi * std::sqrt(D * D * D / (G * M));
    p.orbit_energy = -G * m1 * m2 / (2.0 * D);
    p.fastest_spin = std::max(w1.norm(), w2.norm());
    const auto d = integrate::compute_diagnostics(p.bodies, std::vector<double>(2, 0.0), 0, 0);
    p.spin_energy = d.kinetic_rotational;
    return p;
}

struct OrbitRun {
    double max_step_dl = 0.0; ///< max over steps of |L_{n+1} - L_n| / scale
    double total_dl = 0.0;    ///< |L_end - L_0| / scale
    double max_de = 0.0;      ///< max over the run of |E - E0| (J)
    double spin_exchange = 0; ///< |L_spin,end - L_spin,0| / scale: what the tides moved
    long steps = 0;
};

OrbitRun run(const Pair& p, double dt) {
    integrate::Simulation sim(p.bodies, std::make_unique<gravity::DirectGravity>(1.0, 0.0), dt);
    const auto spin_l = [](const Bodies& b) {
        Vec3 l = Vec3::Zero();
        for (std::size_t i = 0; i < b.size(); ++i)
            l += inertia_tensor(b, i) * b.spin[i];
        return l;
    };
    auto d = integrate::compute_diagnostics(sim.bodies(), sim.potentials(), 0, 0);
    const auto d0 = d;
    const Vec3 spin0 = spin_l(sim.bodies());
    const double scale = d0.angular_momentum_scale;
    OrbitRun r;
    while (sim.time() < p.period) {
        sim.step();
        const auto next = integrate::compute_diagnostics(sim.bodies(), sim.potentials(), 0, 0);
        r.max_step_dl =
            std::max(r.max_step_dl, (next.angular_momentum - d.angular_momentum).norm() / scale);
        r.max_de = std::max(r.max_de, std::abs(next.total_energy - d0.total_energy));
        d = next;
        ++r.steps;
    }
    r.total_dl = (d.angular_momentum - d0.angular_momentum).norm() / scale;
    r.spin_exchange = (spin_l(sim.bodies()) - spin0).norm() / scale;
    return r;
}

} // namespace

TEST(AggregateOrbit, KickDriftKickConservesAngularMomentumToRoundOffAndEnergyToSecondOrder) {
    const Pair p = binary();
    const std::size_t spheres = p.bodies.spheres.size();
    // Omega dt = 2 pi / 400 and 2 pi / 800; |w| dt < 0.01: one rotor step per drift.
    const OrbitRun coarse = run(p, p.period / 400), fine = run(p, p.period / 800);
    std::printf("[measured] two aggregates (%zu spheres), one orbit: |dL| per step / scale "
                "%.2e / %.2e, over the orbit %.2e / %.2e; spin-orbit exchange %.2e; max |dE| / "
                "|E_orbit| %.3e / %.3e\n",
                spheres, coarse.max_step_dl, fine.max_step_dl, coarse.total_dl, fine.total_dl,
                coarse.spin_exchange, coarse.max_de / std::abs(p.orbit_energy),
                fine.max_de / std::abs(p.orbit_energy));
    // Round-off: each body's force and torque sum one term per sphere, and the diagnostics
    // sum them again, so a step moves L by at most the round-off of sums of that many terms.
    const double per_step = test::summation_bound(static_cast<double>(spheres));
    EXPECT_LT(coarse.max_step_dl, per_step);
    EXPECT_LT(fine.max_step_dl, per_step);
    EXPECT_LT(coarse.total_dl, per_step * static_cast<double>(coarse.steps));
    EXPECT_LT(fine.total_dl, per_step * static_cast<double>(fine.steps));
    // The tides did move angular momentum between spin and orbit (else the test would not
    // see the torques), far above the round-off the total keeps to.
    EXPECT_GT(coarse.spin_exchange, 1e3 * per_step);
    // Energy: second order (halving dt quarters the error) and within its O(dt^2) bound.
    const auto bound = [&](double dt) {
        const double Omega = 2.0 * pi / p.period;
        return (Omega * dt) * (Omega * dt) * std::abs(p.orbit_energy) +
               (p.fastest_spin * dt) * (p.fastest_spin * dt) * p.spin_energy;
    };
    EXPECT_LT(coarse.max_de, bound(p.period / 400));
    EXPECT_LT(fine.max_de, bound(p.period / 800));
    ASSERT_GT(fine.max_de, 1e6 * test::eps * std::abs(p.orbit_energy));
    EXPECT_GT(coarse.max_de / fine.max_de, test::order2_ratio_min);
    EXPECT_LT(coarse.max_de / fine.max_de, test::order2_ratio_max);
}
