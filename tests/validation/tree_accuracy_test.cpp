// SPDX-License-Identifier: MIT
// Tree accelerations against direct summation for N = 20,000 bodies in a uniform and a
// Plummer sphere, theta = 0.3 .. 0.9, multipole orders 1 .. 4 (the table in docs/tree.md).
// Writes the table to tree_accuracy.csv in the tests' build directory.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <numeric>

#include <gtest/gtest.h>

#include "rubble/gravity/accuracy.hpp"
#include "rubble/gravity/tree_gravity.hpp"
#include "spheres.hpp"

using namespace rubble;

namespace {

struct Row {
    double median, p99, max, momentum;
};

// Errors of every (theta, order) against the direct sum, and |sum m a| / sum m |a|.
std::map<std::pair<int, int>, Row> error_table(const Bodies& b, const char* name,
                                               std::ofstream& csv) {
    std::vector<std::size_t> all(b.size());
    std::iota(all.begin(), all.end(), std::size_t{0});
    const std::vector<Vec3> exact = gravity::direct_accelerations(b.pos, b.mass, 1.0, 0.0, all);
    std::map<std::pair<int, int>, Row> table;
    std::vector<Vec3> acc(b.size());
    std::vector<double> pot(b.size());
    for (int theta100 : {30, 50, 70, 90})
        for (int order = 1; order <= 4; ++order) {
            gravity::TreeGravity g(1.0, 0.0, theta100 / 100.0, order, 16, 64);
            g.compute(b.pos, b.mass, acc, pot);
            std::vector<double> err(b.size());
            Vec3 force = Vec3::Zero();
            double scale = 0.0;
            for (std::size_t i = 0; i < b.size(); ++i) {
                err[i] = (acc[i] - exact[i]).norm() / exact[i].norm();
                force += b.mass[i] * acc[i];
                scale += b.mass[i] * acc[i].norm();
            }
            std::sort(err.begin(), err.end());
            const Row row{err[err.size() / 2], err[err.size() * 99 / 100], err.back(),
                          force.norm() / scale};
            table[{theta100, order}] = row;
            csv << name << "," << theta100 / 100.0 << "," << order << "," << row.median << ","
                << row.p99 << "," << row.max << "," << row.momentum << "\n";
            std::printf("| %s | %.1f | %d | %.2e | %.2e | %.2e | %.1e |\n", name, theta100 / 100.0,
                        order, row.median, row.p99, row.max, row.momentum);
        }
    return table;
}

void expect_convergence(const std::map<std::pair<int, int>, Row>& t) {
    for (int order = 1; order <= 4; ++order)
        for (int theta100 : {50, 70, 90})
            EXPECT_GT(t.at({theta100, order}).median, t.at({theta100 - 20, order}).median)
                << "error grows with theta, order " << order;
    for (int theta100 : {30, 50, 70, 90})
        for (int order = 2; order <= 4; ++order)
            EXPECT_LT(t.at({theta100, order}).median, t.at({theta100, order - 1}).median)
                << "error falls with order, theta " << theta100;
}

} // namespace

TEST(TreeAccuracy, UniformAndPlummerSpheresAgainstDirectSummation) {
    std::ofstream csv(RUBBLE_TEST_OUTPUT_DIR "/tree_accuracy.csv");
    csv << "distribution,theta,order,median,p99,max,momentum\n";
    std::printf("| sphere | theta | order | median | 99th pct | max | |sum m a|/sum m|a| |\n");
    const auto uniform = error_table(test::uniform_sphere(20000, 1), "uniform", csv);
    const auto plummer = error_table(test::plummer_sphere(20000, 2), "Plummer", csv);
    expect_convergence(uniform);
    expect_convergence(plummer);
    // Targets (issue 3): the public REBOUND quadrupole tree's accuracy at theta = 0.5 on a
    // uniform sphere, and ten times better with our highest order.
    const Row quad = uniform.at({50, 2}), hexa = uniform.at({50, 4});
    EXPECT_LT(quad.median, 6e-4);
    EXPECT_LT(quad.p99, 3e-3);
    EXPECT_LT(hexa.median, quad.median / 10);
    EXPECT_LT(hexa.p99, quad.p99 / 10);
    // Momentum: tree forces are not pairwise antisymmetric; the net force is bounded by the
    // force errors themselves (median error sets the scale).
    for (const auto& [key, row] : uniform)
        EXPECT_LT(row.momentum, row.median);
}
