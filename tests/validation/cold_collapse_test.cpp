// SPDX-License-Identifier: MIT
// A cold uniform sphere collapses homologously: every shell reaches the centre at the
// free-fall time t_ff = sqrt(3 pi / (32 G rho)), with r(t)/R = cos^2(beta) and
// t / t_ff = (beta + sin(beta) cos(beta)) / (pi / 2) (e.g. Binney & Tremaine 2008, eq. 2.74).
#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "rubble/core/random.hpp"
#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/integrate/simulation.hpp"
#include "tolerances.hpp"

using namespace rubble;

namespace {

// Time (in units of t_ff) at which a homologously collapsing shell has shrunk to x = r / R.
double homologous_time(double x) {
    const double beta = std::acos(std::sqrt(x));
    return (beta + std::sin(beta) * std::cos(beta)) / (0.5 * pi);
}

double half_mass_radius(const Bodies& b) {
    Vec3 c = Vec3::Zero();
    for (const auto& p : b.pos)
        c += p;
    c /= static_cast<double>(b.size());
    std::vector<double> r;
    for (const auto& p : b.pos)
        r.push_back((p - c).norm());
    std::nth_element(r.begin(), r.begin() + static_cast<long>(r.size() / 2), r.end());
    return r[r.size() / 2];
}

} // namespace

TEST(ColdCollapse, HalfMassRadiusFollowsTheHomologousSolution) {
    const int n = 1000;
    const double G = 1.0, M = 1.0, R = 1.0;
    const double rho = M / (4.0 / 3.0 * pi * R * R * R);
    const double t_ff = std::sqrt(3 * pi / (32 * G * rho));
    Rng rng(17);
    Bodies b;
    for (int i = 0; i < n; ++i)
        b.add_sphere(i, M / n, 1e-4, rng.in_ball(R), Vec3::Zero(), Vec3::Zero());
    // Softening well below the mean spacing at the smallest radius compared (0.2 R):
    // (4 pi / 3 / N)^(1/3) * 0.2 = 0.03.
    integrate::Simulation sim(std::move(b), std::make_unique<gravity::DirectGravity>(G, 0.005),
                              t_ff / 2000);
    const double rh0 = half_mass_radius(sim.bodies());
    const std::vector<double> checkpoints{0.8, 0.5, 0.2};
    std::size_t next = 0;
    double previous_x = 1.0;
    while (next < checkpoints.size() && sim.time() < 1.2 * t_ff) {
        sim.step();
        const double x = half_mass_radius(sim.bodies()) / rh0;
        if (x <= checkpoints[next]) {
            // Linear interpolation in time to the crossing.
            const double frac = (previous_x - checkpoints[next]) / (previous_x - x);
            const double t = sim.time() - (1.0 - frac) * sim.dt();
            const double expected = homologous_time(checkpoints[next]) * t_ff;
            EXPECT_NEAR(t / expected, 1.0, test::cold_collapse_time_rel)
                << "r_h/r_h0 = " << checkpoints[next];
            std::printf("cold collapse: r_h/r_h0 = %.1f at t/t_ff = %.4f (homologous %.4f)\n",
                        checkpoints[next], t / t_ff, expected / t_ff);
            ++next;
        }
        previous_x = x;
    }
    EXPECT_EQ(next, checkpoints.size()) << "the cloud did not collapse by 1.2 t_ff";
}
