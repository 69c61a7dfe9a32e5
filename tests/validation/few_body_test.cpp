// SPDX-License-Identifier: MIT
// The figure-eight three-body choreography and time reversibility of the leapfrog.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "rubble/core/random.hpp"
#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/ic/generators.hpp"
#include "rubble/integrate/simulation.hpp"
#include "tolerances.hpp"

using namespace rubble;

namespace {

// Chenciner & Montgomery 2000 (Ann. Math. 152, 881); initial conditions and period from
// Simo 2002 as quoted to 8 digits: G = m = 1.
constexpr double figure_eight_period = 6.32591398;

Bodies figure_eight() {
    const Vec3 x1(0.97000436, -0.24308753, 0.0);
    const Vec3 v3(-0.93240737, -0.86473146, 0.0);
    Bodies b;
    b.add_sphere(0, 1.0, 1e-3, x1, -0.5 * v3, Vec3::Zero());
    b.add_sphere(1, 1.0, 1e-3, -x1, -0.5 * v3, Vec3::Zero());
    b.add_sphere(2, 1.0, 1e-3, Vec3::Zero(), v3, Vec3::Zero());
    return b;
}

double max_deviation(const Bodies& a, const Bodies& b) {
    double d = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i)
        d = std::max(d, (a.pos[i] - b.pos[i]).norm());
    return d;
}

// Largest distance from the start over `periods` periods, sampled once per period.
std::vector<double> returns(int steps_per_period, int periods) {
    const Bodies start = figure_eight();
    integrate::Simulation sim(start, std::make_unique<gravity::DirectGravity>(1.0, 0.0),
                              figure_eight_period / steps_per_period);
    std::vector<double> out;
    for (int p = 0; p < periods; ++p) {
        for (int k = 0; k < steps_per_period; ++k)
            sim.step();
        out.push_back(max_deviation(sim.bodies(), start));
    }
    return out;
}

} // namespace

TEST(FigureEight, ReturnsToItsStartEveryPeriod) {
    const std::vector<double> coarse = returns(1000, 10), fine = returns(2000, 10);
    // After one and after ten periods the bodies are back to within the leapfrog's O(dt^2)
    // phase and shape error: halving dt divides the deviation by 4. Were the orbit unstable,
    // the deviation after ten periods would be amplified round-off and not converge.
    const double ratio_one = coarse.front() / fine.front();
    const double ratio_ten = coarse.back() / fine.back();
    for (double ratio : {ratio_one, ratio_ten}) {
        EXPECT_GT(ratio, test::order2_ratio_min);
        EXPECT_LT(ratio, test::order2_ratio_max);
    }
    // Still on the figure eight (size ~2) after ten periods: within 1 % of its size.
    EXPECT_LT(fine.back(), 0.01);
    const double ratio = ratio_ten;
    std::printf("figure eight: one-period return %.3e (T/1000) %.3e (T/2000), ratio %.2f; "
                "after 10 periods %.3e\n",
                coarse[0], fine[0], ratio, fine.back());
}

TEST(Reversibility, ForwardFlipBackwardReturnsToTheStart) {
    // Leapfrog is time-symmetric: n steps, v -> -v, n steps retraces the path up to the
    // round-off of each step (a random walk of ~sqrt(n) eps in a non-chaotic orbit).
    const Bodies start = figure_eight();
    integrate::Simulation sim(start, std::make_unique<gravity::DirectGravity>(1.0, 0.0),
                              figure_eight_period / 1000);
    const int n = 3000;
    for (int k = 0; k < n; ++k)
        sim.step();
    for (auto& v : sim.bodies().vel)
        v = -v;
    for (int k = 0; k < n; ++k)
        sim.step();
    EXPECT_LT(max_deviation(sim.bodies(), start), 1e-12);
    for (std::size_t i = 0; i < start.size(); ++i)
        EXPECT_LT((sim.bodies().vel[i] + start.vel[i]).norm(), 1e-12);
}

TEST(Reversibility, SpinningCloudRetracesItsPath) {
    ic::CloudConfig c;
    c.n = 64;
    c.size = 1.0;
    c.radii.radius = 1e-3;
    c.density = 3.0 / (4.0 * pi * 1e-9) / 64.0; // total mass 1 in G = 1 units
    Rng rng(21);
    Bodies start = ic::make_cloud(c, rng);
    ic::apply_motion(start, {0.1, 2.0, 0.3}, rng);
    // Softening keeps close encounters smooth so a 0.3 t_ff stretch is far from chaotic.
    integrate::Simulation sim(start, std::make_unique<gravity::DirectGravity>(1.0, 0.05), 3e-4);
    for (int k = 0; k < 1000; ++k)
        sim.step();
    for (auto& v : sim.bodies().vel)
        v = -v;
    for (auto& w : sim.bodies().spin)
        w = -w;
    for (int k = 0; k < 1000; ++k)
        sim.step();
    EXPECT_LT(max_deviation(sim.bodies(), start), 1e-12 * c.size);
    for (std::size_t i = 0; i < start.size(); ++i)
        EXPECT_LT(sim.bodies().orientation[i].angularDistance(start.orientation[i]), 1e-12);
}
