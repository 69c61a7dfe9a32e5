// SPDX-License-Identifier: MIT
// Granular gases of ~1e4 hard spheres in a periodic box, gravity off: the textbook checks of
// event-driven molecular dynamics (Poschel & Schwager 2005, "Computational Granular
// Dynamics"; Brilliantov & Poschel 2004, "Kinetic Theory of Granular Gases").
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "gas.hpp"
#include "rubble/collisions/event_drift.hpp"

namespace rubble::collisions {
namespace {

double kinetic_energy(const Bodies& b) {
    // Pairwise (compensated) sum: the check below is at the 1e-12 level.
    double sum = 0.0, carry = 0.0;
    for (std::size_t i = 0; i < b.size(); ++i) {
        const double term = 0.5 * b.mass[i] * b.vel[i].squaredNorm() - carry;
        const double next = sum + term;
        carry = (next - sum) - term;
        sum = next;
    }
    return sum;
}

// Enskog collision frequency per particle, omega = 4 n d^2 g(d) sqrt(pi T / m), with the
// Carnahan-Starling contact value g = (1 - phi/2) / (1 - phi)^3 (Chapman & Cowling 1970;
// Carnahan & Starling 1969).
double enskog_frequency(double n, double d, double phi, double T, double m) {
    const double g = (1.0 - 0.5 * phi) / std::pow(1.0 - phi, 3);
    return 4.0 * n * d * d * g * std::sqrt(pi * T / m);
}

// eps_n = 1, smooth spheres: every collision conserves kinetic energy exactly but for
// round-off, so over ~1e6 collisions the total may change only by accumulated round-off:
// per collision a few ulp of a pair's energy, 2/N of the total (1e6 x 2.2e-16 x 2e-4 =
// 4e-14 if every error had the same sign), plus the summation of the total (N eps = 2e-12).
TEST(GranularGas, ElasticGasConservesEnergyOverAMillionCollisions) {
    test::Gas gas = test::lattice_gas(22 * 22 * 22, 0.3, 1.0, 11);
    CollisionConfig c;
    c.eps_n = 1.0;
    c.eps_t = 1.0;
    c.periodic_box = gas.box;
    EventDrivenDrift engine(c);
    const double e0 = kinetic_energy(gas.bodies);
    std::int64_t collisions = 0;
    const double h = 0.05;
    double t = 0.0;
    while (collisions < 1000000) {
        const DriftStats s = engine.drift(gas.bodies, h, t);
        ASSERT_EQ(s.overlaps, 0) << "t = " << t;
        collisions += s.collisions;
        t += h;
    }
    const double de = std::abs(kinetic_energy(gas.bodies) - e0) / e0;
    std::printf("elastic gas: %lld collisions over t = %.2f, |dE/E| = %.2e\n",
                static_cast<long long>(collisions), t, de);
    EXPECT_LT(de, 1e-11);
    Vec3 p = Vec3::Zero();
    for (const Vec3& v : gas.bodies.vel)
        p += v;
    EXPECT_LT(p.norm(), 1e-9); // sum of 1e4 O(1) velocities that started at exactly zero
    for (const Vec3& x : gas.bodies.pos)
        ASSERT_TRUE((x.array() >= -0.5 * gas.box).all() && (x.array() < 0.5 * gas.box).all());
}

// Homogeneous cooling: with constant eps_n < 1 the granular temperature follows Haff's law
// T(t) = T0 / (1 + t / t0)^2 (Haff 1983, J. Fluid Mech. 134, 401). Energy balance with the
// Enskog collision frequency omega0 gives dT/dt = -(1 - eps^2) omega T / 3, hence
// t0 = 6 / ((1 - eps^2) omega0) (Brilliantov & Poschel 2004, ch. 7; the Sonine correction
// (1 + 3 a2 / 16) is 0.997 at eps = 0.9 and ignored). Measured: the slope of T^-1/2 against
// t, which Haff's law makes a straight line of slope 1 / (t0 sqrt(T0)).
TEST(GranularGas, HaffsLawWithTheEnskogTimeScale) {
    const double phi = 0.05, eps = 0.9;
    test::Gas gas = test::lattice_gas(22 * 22 * 22, phi, 1.0, 12);
    CollisionConfig c;
    c.eps_n = 1.0;
    c.periodic_box = gas.box;
    // Melt the lattice elastically first: Enskog assumes equilibrium pair correlations.
    {
        EventDrivenDrift melt(c);
        for (int k = 0; k < 100; ++k)
            (void)melt.drift(gas.bodies, 0.05, 0.05 * k);
    }
    c.eps_n = eps;
    EventDrivenDrift engine(c);
    const auto temperature = [&] {
        return 2.0 * kinetic_energy(gas.bodies) / (3.0 * static_cast<double>(gas.bodies.size()));
    };
    const double T0 = temperature();
    const double omega0 = enskog_frequency(1.0, 2.0 * gas.radius, phi, T0, 1.0);
    const double t0_enskog = 6.0 / ((1.0 - eps * eps) * omega0);
    // Fit over t in [0, t0]: T falls to a quarter, well before clustering sets in for this box
    // (L = 22 d / 0.46, about 23 mean free paths).
    std::vector<double> ts, ys;
    const double h = 0.05;
    double t = 0.0;
    while (t < t0_enskog) {
        (void)engine.drift(gas.bodies, h, t);
        t += h;
        ts.push_back(t);
        ys.push_back(1.0 / std::sqrt(temperature()) - 1.0 / std::sqrt(T0));
    }
    double sxy = 0.0, sxx = 0.0; // least squares through the origin
    for (std::size_t k = 0; k < ts.size(); ++k) {
        sxy += ts[k] * ys[k];
        sxx += ts[k] * ts[k];
    }
    const double t0_measured = 1.0 / (std::sqrt(T0) * (sxy / sxx));
    std::printf("Haff: t0 measured %.4f, Enskog %.4f (ratio %.4f)\n", t0_measured, t0_enskog,
                t0_measured / t0_enskog);
    EXPECT_NEAR(t0_measured / t0_enskog, 1.0, 0.10);
}

} // namespace
} // namespace rubble::collisions
