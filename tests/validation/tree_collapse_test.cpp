// SPDX-License-Identifier: MIT
// The seeds' validation of their tree (Ferrari et al. 2020, Fig. 5): a cold uniform cloud of
// N = 1000 bodies collapses and re-expands; the largest position error of a tree run against
// the direct-summation run, over time, for theta = 0.1, 0.25, 0.5, 0.75. Writes
// tree_collapse.csv in the tests' build directory (plot: tests/validation/plot_tree_collapse.py).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>

#include <gtest/gtest.h>

#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/gravity/tree_gravity.hpp"
#include "rubble/integrate/simulation.hpp"
#include "spheres.hpp"

using namespace rubble;

TEST(TreeCollapse, PositionErrorAgainstDirectThroughCollapseAndReexpansion) {
    // G = M = R = 1: t_ff = sqrt(3 pi / (32 rho)) = pi / (2 sqrt 2). Softening 0.05 R (about a
    // third of the mean spacing) keeps the bounce collisionless and not dominated by chaos.
    const double t_ff = pi / (2.0 * std::sqrt(2.0));
    const double dt = t_ff / 400.0, eps = 0.05;
    const int steps = 800, every = 10; // to 2 t_ff: through the bounce and out again
    const Bodies start = test::uniform_sphere(1000, 11);

    // Reference positions at each sample time.
    std::vector<std::vector<Vec3>> reference;
    {
        integrate::Simulation sim(start, std::make_unique<gravity::DirectGravity>(1.0, eps), dt);
        for (int k = 1; k <= steps; ++k) {
            sim.step();
            if (k % every == 0) reference.push_back(sim.bodies().pos);
        }
    }
    std::ofstream csv(RUBBLE_TEST_OUTPUT_DIR "/tree_collapse.csv");
    csv << "theta,order,t_over_tff,max_relative_position_error\n";
    // (theta x 100, order) -> max over the contraction (t <= t_ff) and over the whole run.
    std::map<std::pair<int, int>, double> worst, worst_contraction;
    std::printf("| theta | order | max |x_tree - x_direct| / R, t <= t_ff | same, t <= 2 t_ff |\n");
    for (int order : {1, 4})
        for (int theta100 : {10, 25, 50, 75}) {
            integrate::Simulation sim(
                start,
                std::make_unique<gravity::TreeGravity>(1.0, eps, theta100 / 100.0, order, 8, 64),
                dt);
            double max_err = 0.0, max_contraction = 0.0;
            for (int k = 1; k <= steps; ++k) {
                sim.step();
                if (k % every) continue;
                const auto& ref = reference[static_cast<std::size_t>(k / every - 1)];
                double e = 0.0;
                for (std::size_t i = 0; i < ref.size(); ++i)
                    e = std::max(e, (sim.bodies().pos[i] - ref[i]).norm());
                max_err = std::max(max_err, e);
                if (k * dt <= t_ff) max_contraction = std::max(max_contraction, e);
                csv << theta100 / 100.0 << "," << order << "," << k * dt / t_ff << "," << e << "\n";
            }
            worst[{theta100, order}] = max_err;
            worst_contraction[{theta100, order}] = max_contraction;
            std::printf("| %.2f | %d | %.2e | %.2e |\n", theta100 / 100.0, order, max_contraction,
                        max_err);
        }
    // Through the contraction the error follows the force error: it grows with theta and
    // falls with the multipole order. After the bounce, close passages amplify every
    // difference (the collisionless collapse is chaotic), so only the ordering in theta of the
    // hexadecapole runs is asserted there; the numbers are reported (docs/tree.md).
    const auto at = [&](int theta100, int order) {
        return worst_contraction.at({theta100, order});
    };
    for (int order : {1, 4}) {
        EXPECT_LT(at(10, order), at(25, order));
        EXPECT_LT(at(25, order), at(50, order));
        EXPECT_LT(at(50, order), at(75, order));
    }
    for (int theta100 : {10, 25, 50, 75})
        EXPECT_LT(at(theta100, 4), at(theta100, 1));
    EXPECT_LT(worst.at({10, 4}), worst.at({25, 4}));
    EXPECT_LT(worst.at({25, 4}), worst.at({50, 4}));
}
