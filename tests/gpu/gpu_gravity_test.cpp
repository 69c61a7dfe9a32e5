// SPDX-License-Identifier: MIT
// The CUDA backends against the CPU ones (run where a GPU is present; skipped elsewhere).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

#include <gtest/gtest.h>

#include "rubble/core/error.hpp"
#include "rubble/gpu/gpu_gravity.hpp"
#include "rubble/gpu/gpu_solvers.hpp"
#include "rubble/gravity/accuracy.hpp"
#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/gravity/tree_gravity.hpp"
#include "rubble/run/make_gravity_solver.hpp"
#include "spheres.hpp"

using namespace rubble;

namespace {

#define RUBBLE_REQUIRE_GPU()                                                                       \
    if (!gpu::gpu_available()) GTEST_SKIP() << "no CUDA GPU here"

struct Field {
    std::vector<Vec3> acc;
    std::vector<double> pot;
};

Field evaluate(gravity::GravitySolver& g, const Bodies& b) {
    Field f{std::vector<Vec3>(b.size()), std::vector<double>(b.size())};
    g.compute(b.pos, b.mass, f.acc, f.pot);
    return f;
}

// Largest per-body relative difference of the accelerations and potentials.
double max_relative_difference(const Field& a, const Field& b) {
    double worst = 0.0;
    for (std::size_t i = 0; i < a.acc.size(); ++i) {
        worst = std::max(worst, (a.acc[i] - b.acc[i]).norm() / b.acc[i].norm());
        worst = std::max(worst, std::abs(a.pot[i] - b.pot[i]) / std::abs(b.pot[i]));
    }
    return worst;
}

struct Errors {
    double median, p99;
};

Errors errors_against(const Field& f, const std::vector<Vec3>& exact) {
    std::vector<double> e(exact.size());
    for (std::size_t i = 0; i < e.size(); ++i)
        e[i] = (f.acc[i] - exact[i]).norm() / exact[i].norm();
    std::sort(e.begin(), e.end());
    return {e[e.size() / 2], e[e.size() * 99 / 100]};
}

std::vector<Vec3> exact_field(const Bodies& b) {
    std::vector<std::size_t> all(b.size());
    std::iota(all.begin(), all.end(), std::size_t{0});
    return gravity::direct_accelerations(b.pos, b.mass, 1.0, 0.0, all);
}

} // namespace

// Same kernel, same summation order: only rsqrt (<= 1 ulp) and FMA contraction differ, so
// each body's sum of N terms agrees to a few hundred ulps of its largest term.
TEST(GpuDirect, AgreesWithTheCpuDirectSumPerBody) {
    RUBBLE_REQUIRE_GPU();
    const Bodies b = test::uniform_sphere(6000, 11);
    gravity::DirectGravity cpu(1.0, 0.0);
    gpu::GpuDirectGravity gpu(1.0, 0.0);
    const double diff = max_relative_difference(evaluate(gpu, b), evaluate(cpu, b));
    std::printf("[measured] gpu-direct vs CPU direct, N = 6000: max relative difference %.3e\n",
                diff);
    EXPECT_LT(diff, 1e-12);
    gravity::DirectGravity cpu_soft(1.0, 0.05);
    gpu::GpuDirectGravity gpu_soft(1.0, 0.05);
    EXPECT_LT(max_relative_difference(evaluate(gpu_soft, b), evaluate(cpu_soft, b)), 1e-12);
}

// Same keys, nodes, multipoles and opening test: for theta <= 1/sqrt(3) the GPU's b_max bound
// never decides (docs/gpu.md), so both trees accept the same nodes and differ by round-off
// (summation order, rsqrt, moments shifted up the tree instead of summed from the bodies).
TEST(GpuTree, AgreesWithTheCpuTreeAtTheSameThetaAndOrder) {
    RUBBLE_REQUIRE_GPU();
    for (const Bodies& b : {test::uniform_sphere(20000, 3), test::plummer_sphere(20000, 4)})
        for (int order = 1; order <= 4; ++order) {
            gravity::TreeGravity cpu(1.0, 0.0, 0.5, order, 16, 16); // per-leaf walk, as the GPU's
            gpu::GpuTreeGravity gpu(1.0, 0.0, 0.5, order, 16);
            const Field fc = evaluate(cpu, b), fg = evaluate(gpu, b);
            const double diff = max_relative_difference(fg, fc);
            std::printf("[measured] gpu-tree vs CPU tree, theta 0.5, order %d: max relative "
                        "difference %.3e\n",
                        order, diff);
            EXPECT_LT(diff, 1e-9) << "order " << order;
            EXPECT_EQ(gpu.last_counts().nodes, cpu.tree().nodes().size());
            EXPECT_EQ(gpu.last_counts().leaves, cpu.tree().leaves().size());
            EXPECT_DOUBLE_EQ(gpu.last_counts().node_interactions, cpu.node_interactions());
            EXPECT_DOUBLE_EQ(gpu.last_counts().body_interactions, cpu.particle_interactions());
        }
}

// Where b_max may decide (theta > 1/sqrt(3)) the trees may open different nodes: the error
// distributions against direct summation must still agree within 10 %.
TEST(GpuTree, ErrorDistributionMatchesTheCpuTreeAtLargeTheta) {
    RUBBLE_REQUIRE_GPU();
    const Bodies b = test::plummer_sphere(20000, 5);
    const auto exact = exact_field(b);
    for (int order : {2, 4}) {
        gravity::TreeGravity cpu(1.0, 0.0, 0.9, order, 16, 16);
        gpu::GpuTreeGravity gpu(1.0, 0.0, 0.9, order, 16);
        const Errors ec = errors_against(evaluate(cpu, b), exact);
        const Errors eg = errors_against(evaluate(gpu, b), exact);
        std::printf("[measured] theta 0.9, order %d: CPU tree median %.3e p99 %.3e; gpu-tree "
                    "median %.3e p99 %.3e\n",
                    order, ec.median, ec.p99, eg.median, eg.p99);
        EXPECT_NEAR(eg.median, ec.median, 0.1 * ec.median) << "order " << order;
        EXPECT_NEAR(eg.p99, ec.p99, 0.1 * ec.p99) << "order " << order;
    }
}

// Net force |sum m a| / sum m |a|: round-off for the direct sum; for the tree bounded by its
// force error, as on the CPU (tree_accuracy_test).
TEST(GpuGravity, MomentumIsConservedToTheMethodsAccuracy) {
    RUBBLE_REQUIRE_GPU();
    const Bodies b = test::plummer_sphere(20000, 6);
    const auto net = [&](const Field& f) {
        Vec3 force = Vec3::Zero();
        double scale = 0.0;
        for (std::size_t i = 0; i < b.size(); ++i) {
            force += b.mass[i] * f.acc[i];
            scale += b.mass[i] * f.acc[i].norm();
        }
        return force.norm() / scale;
    };
    gpu::GpuDirectGravity direct(1.0, 0.0);
    EXPECT_LT(net(evaluate(direct, b)), 1e-13);
    gpu::GpuTreeGravity tree(1.0, 0.0, 0.5, 2, 16);
    const Field ft = evaluate(tree, b);
    EXPECT_LT(net(ft), errors_against(ft, exact_field(b)).median);
}

TEST(GpuGravity, OneTwoAndCoincidentBodiesGiveFiniteFields) {
    RUBBLE_REQUIRE_GPU();
    gpu::GpuTreeGravity tree(2.0, 0.0, 0.5, 4, 16);
    gpu::GpuDirectGravity direct(2.0, 0.0);
    for (gravity::GravitySolver* g : {static_cast<gravity::GravitySolver*>(&tree),
                                      static_cast<gravity::GravitySolver*>(&direct)}) {
        Bodies one = test::uniform_sphere(1, 1);
        const Field f1 = evaluate(*g, one);
        EXPECT_EQ(f1.acc[0], Vec3::Zero()) << g->name();
        EXPECT_EQ(f1.pot[0], 0.0) << g->name();

        Bodies two = test::uniform_sphere(2, 1);
        two.pos[0] = Vec3(0, 0, 0);
        two.pos[1] = Vec3(3, 0, 0);
        two.mass = {1.0, 2.0};
        const Field f2 = evaluate(*g, two);
        EXPECT_NEAR(f2.acc[0].x(), 2.0 * 2.0 / 9.0, 1e-15) << g->name();
        EXPECT_NEAR(f2.acc[1].x(), -2.0 * 1.0 / 9.0, 1e-15) << g->name();

        // 200 bodies on one point (all keys equal: one over-full leaf) and one apart.
        Bodies pile = test::uniform_sphere(201, 2);
        for (std::size_t i = 0; i < 200; ++i)
            pile.pos[i] = Vec3(1, 1, 1);
        pile.pos[200] = Vec3(5, 1, 1);
        const Field fp = evaluate(*g, pile);
        for (std::size_t i = 0; i < pile.size(); ++i) {
            ASSERT_TRUE(fp.acc[i].allFinite()) << g->name() << " body " << i;
            ASSERT_TRUE(std::isfinite(fp.pot[i])) << g->name() << " body " << i;
        }
        const double pile_mass = std::accumulate(pile.mass.begin(), pile.mass.end() - 1, 0.0);
        EXPECT_NEAR(fp.acc[200].x(), -2.0 * pile_mass / 16.0, 1e-12 * pile_mass) << g->name();
    }
}

// Buffers are kept between calls and grow on demand: a larger and then a smaller system give
// the same field as a fresh solver.
TEST(GpuTree, ReusesItsBuffersAcrossSizes) {
    RUBBLE_REQUIRE_GPU();
    const Bodies small = test::uniform_sphere(3000, 7), large = test::plummer_sphere(30000, 8);
    gpu::GpuTreeGravity reused(1.0, 0.0, 0.5, 4, 16), fresh(1.0, 0.0, 0.5, 4, 16);
    const Field first = evaluate(reused, small);
    (void)evaluate(reused, large);
    const Field again = evaluate(reused, small);
    EXPECT_EQ(max_relative_difference(again, first), 0.0);
    EXPECT_EQ(max_relative_difference(evaluate(fresh, small), first), 0.0);
}

TEST(GpuGravity, AskingForAGpuWithoutOneIsAnInputError) {
    if (gpu::gpu_available()) GTEST_SKIP() << "a GPU is present";
    gravity::GravityConfig c;
    c.backend = gravity::Backend::gpu_tree;
    try {
        (void)run::make_gravity_solver(c, 100);
        FAIL() << "expected InputError";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("gravity.backend = \"gpu-tree\""), std::string::npos)
            << e.what();
    }
    c.backend = gravity::Backend::automatic;
    EXPECT_EQ(run::make_gravity_solver(c, 100000)->name(), "tree");
}

// Mixed precision: the multipole terms in float (unit roundoff u = 6e-8) from double offsets,
// summed in float over chunks of at most 32 nodes and then in double. Each body's far field
// then carries a relative error of order 32 u ~ 2e-6 at most; the near field is exact as in
// double. The tree's own error (median ~1e-4 for quadrupoles at theta = 0.5) must not change.
TEST(GpuTree, MixedPrecisionChangesTheFieldFarLessThanTheTreeError) {
    RUBBLE_REQUIRE_GPU();
    const Bodies b = test::plummer_sphere(20000, 9);
    const auto exact = exact_field(b);
    for (int order : {2, 4}) {
        gpu::GpuTreeGravity dbl(1.0, 0.0, 0.5, order, 16), mixed(1.0, 0.0, 0.5, order, 16, true);
        const Field fd = evaluate(dbl, b), fm = evaluate(mixed, b);
        const double diff = max_relative_difference(fm, fd);
        EXPECT_LT(diff, 32 * 0x1p-24) << "order " << order;
        const Errors ed = errors_against(fd, exact), em = errors_against(fm, exact);
        std::printf("[measured] mixed vs double, Plummer 20000, theta 0.5, order %d: max relative "
                    "difference %.3e; error vs direct median %.3e / %.3e, p99 %.3e / %.3e\n",
                    order, diff, em.median, ed.median, em.p99, ed.p99);
        EXPECT_NEAR(em.median, ed.median, 0.01 * ed.median + 32 * 0x1p-24) << "order " << order;
        EXPECT_NEAR(em.p99, ed.p99, 0.01 * ed.p99 + 32 * 0x1p-24) << "order " << order;
    }
}
