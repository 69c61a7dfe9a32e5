// SPDX-License-Identifier: MIT
#include <cmath>
#include <vector>

#include <gtest/gtest.h>
#include <omp.h>

#include "rubble/core/random.hpp"
#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/run/make_gravity_solver.hpp"
#include "tolerances.hpp"

using namespace rubble;
using rubble::test::eps;

namespace {

struct Points {
    std::vector<Vec3> pos;
    std::vector<double> mass;
};

Points random_points(std::size_t n, std::uint64_t seed) {
    Rng rng(seed);
    Points p;
    for (std::size_t i = 0; i < n; ++i) {
        p.pos.push_back(rng.in_ball(100.0));
        p.mass.push_back(rng.uniform(1.0, 10.0));
    }
    return p;
}

} // namespace

TEST(DirectGravity, TwoPointsMatchNewton) {
    gravity::DirectGravity g(2.0, 0.0);
    const std::vector<Vec3> pos{{0, 0, 0}, {3, 4, 0}};
    const std::vector<double> mass{5.0, 7.0};
    std::vector<Vec3> acc(2);
    std::vector<double> pot(2);
    g.compute(pos, mass, acc, pot);
    // |a_0| = G m_1 / r^2 towards body 1; phi_0 = -G m_1 / r.
    const Vec3 expected0 = 2.0 * 7.0 / 125.0 * Vec3(3, 4, 0);
    EXPECT_NEAR((acc[0] - expected0).norm(), 0.0, 4 * eps * expected0.norm());
    EXPECT_NEAR(pot[0], -2.0 * 7.0 / 5.0, 4 * eps);
    EXPECT_NEAR(pot[1], -2.0 * 5.0 / 5.0, 4 * eps);
    EXPECT_NEAR((5.0 * acc[0] + 7.0 * acc[1]).norm(), 0.0, 8 * eps * 5.0 * expected0.norm());
}

TEST(DirectGravity, PlummerSofteningFormula) {
    const double h = 0.5;
    gravity::DirectGravity g(1.0, h);
    const std::vector<Vec3> pos{{0, 0, 0}, {1, 0, 0}};
    const std::vector<double> mass{1.0, 2.0};
    std::vector<Vec3> acc(2);
    std::vector<double> pot(2);
    g.compute(pos, mass, acc, pot);
    const double r2 = 1.0 + h * h;
    EXPECT_NEAR(acc[0].x(), 2.0 / (r2 * std::sqrt(r2)), 4 * eps);
    EXPECT_NEAR(pot[0], -2.0 / std::sqrt(r2), 4 * eps);
}

TEST(DirectGravity, CoincidentPointsGiveNoNaN) {
    gravity::DirectGravity g(1.0, 0.0);
    const std::vector<Vec3> pos{{1, 1, 1}, {1, 1, 1}, {2, 1, 1}};
    const std::vector<double> mass{1.0, 1.0, 1.0};
    std::vector<Vec3> acc(3);
    std::vector<double> pot(3);
    g.compute(pos, mass, acc, pot);
    for (int i = 0; i < 3; ++i) {
        EXPECT_TRUE(acc[static_cast<std::size_t>(i)].allFinite());
        EXPECT_TRUE(std::isfinite(pot[static_cast<std::size_t>(i)]));
    }
    EXPECT_NEAR(acc[0].x(), 1.0, 4 * eps); // only the third point pulls
}

TEST(DirectGravity, TotalForceVanishesToRoundOff) {
    const Points p = random_points(1000, 7);
    gravity::DirectGravity g(1.0, 0.0);
    std::vector<Vec3> acc(p.pos.size());
    std::vector<double> pot(p.pos.size());
    g.compute(p.pos, p.mass, acc, pot);
    Vec3 f = Vec3::Zero();
    double scale = 0.0;
    for (std::size_t i = 0; i < acc.size(); ++i) {
        f += p.mass[i] * acc[i];
        scale += p.mass[i] * acc[i].norm();
    }
    // Each force is a sum of N terms (Higham bound); the total sums N of them.
    EXPECT_LT(f.norm(), rubble::test::summation_bound(2.0 * 1000) * scale);
}

TEST(DirectGravity, BitwiseIndependentOfThreadCount) {
    const Points p = random_points(700, 3);
    gravity::DirectGravity g(1.0, 0.01);
    std::vector<Vec3> a1(p.pos.size()), a2(p.pos.size());
    std::vector<double> p1(p.pos.size()), p2(p.pos.size());
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    g.compute(p.pos, p.mass, a1, p1);
    omp_set_num_threads(2);
    g.compute(p.pos, p.mass, a2, p2);
    omp_set_num_threads(threads);
    for (std::size_t i = 0; i < a1.size(); ++i) {
        ASSERT_EQ(a1[i], a2[i]) << i;
        ASSERT_EQ(p1[i], p2[i]) << i;
    }
}

TEST(GravityFactory, MakesTheBackendAskedForAndResolvesAuto) {
    gravity::GravityConfig c;
    c.backend = gravity::Backend::direct;
    EXPECT_EQ(run::make_gravity_solver(c, 10)->name(), "direct");
    c.backend = gravity::Backend::automatic;
    EXPECT_EQ(run::make_gravity_solver(c, gravity::auto_tree_threshold - 1)->name(), "direct");
    EXPECT_EQ(run::make_gravity_solver(c, gravity::auto_tree_threshold)->name(), "tree");
}
