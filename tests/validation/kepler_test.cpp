// SPDX-License-Identifier: MIT
// Kepler orbit, e = 0.5, 1000 orbits: the leapfrog's energy error is bounded and does not
// drift, and the period and apsides converge at second order in dt.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/ic/generators.hpp"
#include "rubble/integrate/simulation.hpp"
#include "tolerances.hpp"

using namespace rubble;

namespace {

constexpr double G = 1.0, a = 1.0, e = 0.5, m1 = 1.0, m2 = 1e-3;
const double M = m1 + m2;
const double period = 2.0 * pi * std::sqrt(a * a * a / (G * M)); // Kepler's third law

struct OrbitStats {
    double energy_error_first = 0; ///< max |dE/E| over the first 10 orbits
    double energy_error_last = 0;  ///< max |dE/E| over the last 10 orbits
    double period = 0;             ///< mean periapsis-to-periapsis time
    double r_peri = 0, r_apo = 0;  ///< interpolated extremes of the last orbit
};

// Vertex of the parabola through (-h, f0), (0, f1), (h, f2): offset and value.
std::pair<double, double> parabola_vertex(double f0, double f1, double f2, double h) {
    const double denom = f0 - 2 * f1 + f2;
    const double x = 0.5 * h * (f0 - f2) / denom;
    return {x, f1 - 0.25 * (f0 - f2) * x / h};
}

OrbitStats integrate_orbits(int steps_per_orbit, int orbits) {
    const double dt = period / steps_per_orbit;
    integrate::Simulation sim(ic::make_two_body({m1, m2, 1e-3, 1e-3, a, e}, G),
                              std::make_unique<gravity::DirectGravity>(G, 0.0), dt);
    const auto energy = [&] {
        const Bodies& b = sim.bodies();
        return 0.5 * m1 * b.vel[0].squaredNorm() + 0.5 * m2 * b.vel[1].squaredNorm() -
               G * m1 * m2 / (b.pos[1] - b.pos[0]).norm();
    };
    const auto separation = [&] { return (sim.bodies().pos[1] - sim.bodies().pos[0]).norm(); };
    const double e0 = energy();
    const long n = static_cast<long>(steps_per_orbit) * orbits;
    const long window = 10L * steps_per_orbit;
    OrbitStats s;
    std::vector<double> peri_times;
    double r_prev2 = 0, r_prev = separation();
    for (long k = 1; k <= n; ++k) {
        sim.step();
        const double err = std::abs((energy() - e0) / e0);
        if (k <= window) s.energy_error_first = std::max(s.energy_error_first, err);
        if (k > n - window) s.energy_error_last = std::max(s.energy_error_last, err);
        const double r = separation();
        if (k >= 2) {
            const bool is_min = r_prev < r_prev2 && r_prev <= r;
            const bool is_max = r_prev > r_prev2 && r_prev >= r;
            if (is_min || is_max) {
                const auto [off, val] = parabola_vertex(r_prev2, r_prev, r, dt);
                if (is_min) peri_times.push_back(static_cast<double>(k - 1) * dt + off);
                if (k > n - steps_per_orbit) (is_min ? s.r_peri : s.r_apo) = val;
            }
        }
        r_prev2 = r_prev;
        r_prev = r;
    }
    s.period =
        (peri_times.back() - peri_times.front()) / static_cast<double>(peri_times.size() - 1);
    return s;
}

} // namespace

TEST(Kepler, EccentricOrbitOverAThousandPeriods) {
    const OrbitStats coarse = integrate_orbits(500, 1000);
    const OrbitStats fine = integrate_orbits(1000, 1000);
    // Leading-order leapfrog error scale: (omega_p dt)^2 with omega_p the angular rate at
    // periapsis, the fastest part of the orbit (Hairer, Lubich & Wanner 2006, sec. IX.8).
    const double omega_p = std::sqrt(G * M * (1 + e) / std::pow(a * (1 - e), 3));
    const double scale_fine = std::pow(omega_p * period / 1000, 2);

    // Bounded and not drifting: the last ten orbits' error is the first ten's (a symplectic
    // integrator has no secular energy error); 10 % allows for where the samples fall.
    for (const auto* s : {&coarse, &fine}) {
        EXPECT_LT(s->energy_error_last, 1.1 * s->energy_error_first);
        EXPECT_GT(s->energy_error_last, 0.9 * s->energy_error_first);
    }
    EXPECT_LT(fine.energy_error_first, scale_fine);

    const auto order = [](double err_coarse, double err_fine) { return err_coarse / err_fine; };
    const double period_ratio =
        order(std::abs(coarse.period - period), std::abs(fine.period - period));
    const double peri_ratio =
        order(std::abs(coarse.r_peri - a * (1 - e)), std::abs(fine.r_peri - a * (1 - e)));
    const double apo_ratio =
        order(std::abs(coarse.r_apo - a * (1 + e)), std::abs(fine.r_apo - a * (1 + e)));
    const double energy_ratio = order(coarse.energy_error_first, fine.energy_error_first);
    // Period, apoapsis and energy carry the leapfrog's leading O(dt^2) error.
    for (double ratio : {period_ratio, apo_ratio, energy_ratio}) {
        EXPECT_GT(ratio, test::order2_ratio_min);
        EXPECT_LT(ratio, test::order2_ratio_max);
    }
    // The orbit starts at periapsis, a point of time symmetry, and the leapfrog is symmetric:
    // the numerical orbit keeps that periapsis to higher order, so only "at least O(dt^2)".
    EXPECT_GT(peri_ratio, test::order2_ratio_min);
    EXPECT_LT(std::abs(fine.period - period) / period, scale_fine);
    EXPECT_LT(std::abs(fine.r_peri - a * (1 - e)) / (a * (1 - e)), scale_fine);
    EXPECT_LT(std::abs(fine.r_apo - a * (1 + e)) / (a * (1 + e)), scale_fine);
    RecordProperty("energy_error_fine", std::to_string(fine.energy_error_first));
    std::printf("Kepler e=0.5, P/1000: max|dE/E| first %.3e last %.3e; period err %.3e; "
                "r_p err %.3e; r_a err %.3e; ratios P %.2f rp %.2f ra %.2f E %.2f\n",
                fine.energy_error_first, fine.energy_error_last,
                std::abs(fine.period - period) / period,
                std::abs(fine.r_peri - a * (1 - e)) / (a * (1 - e)),
                std::abs(fine.r_apo - a * (1 + e)) / (a * (1 + e)), period_ratio, peri_ratio,
                apo_ratio, energy_ratio);
}
