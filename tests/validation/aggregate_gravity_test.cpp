// SPDX-License-Identifier: MIT
// Gravity on rigid aggregates with the tree backend: the spheres of every aggregate are the
// mass points (docs/architecture.md), and the force and torque on each aggregate, summed by
// Simulation over its spheres, match direct summation within the tree's own error at the same
// opening angle and order (the targets of tests/validation/tree_accuracy_test.cpp). The GPU
// backends' twin of this test is tests/gpu/gpu_aggregate_gravity_test.cpp.
#include <algorithm>
#include <cstdio>
#include <memory>

#include <gtest/gtest.h>

#include "aggregate_field.hpp"
#include "aggregates.hpp"
#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/gravity/tree_gravity.hpp"
#include "tolerances.hpp"

using namespace rubble;

namespace {

test::AggregateFieldErrors tree_errors(const Bodies& b, double theta, int order) {
    integrate::Simulation direct(b, std::make_unique<gravity::DirectGravity>(1.0, 0.0), 1.0);
    // Bucket and group sizes of the tree accuracy test.
    integrate::Simulation tree(
        b, std::make_unique<gravity::TreeGravity>(1.0, 0.0, theta, order, 16, 64), 1.0);
    const test::AggregateFieldErrors e = test::aggregate_field_errors(tree, direct, 1.0);
    std::printf("[measured] %zu bodies, %zu spheres, tree theta %.1f order %d: force error "
                "median %.2e max %.2e; torque error median %.2e max %.2e\n",
                b.size(), b.spheres.size(), theta, order, e.force_median, e.force_max,
                e.torque_median, e.torque_max);
    return e;
}

// The tree's largest relative acceleration error over the spheres themselves: the same mass
// points as free spheres, in the same order, so the tree sees the same points.
double largest_sphere_error(const Bodies& b, double theta, int order) {
    Bodies points;
    for (std::size_t k = 0; k < b.spheres.size(); ++k)
        points.add_sphere(static_cast<std::int64_t>(k), b.spheres.mass[k], b.spheres.radius[k],
                          sphere_centre(b, k), Vec3::Zero(), Vec3::Zero());
    integrate::Simulation direct(points, std::make_unique<gravity::DirectGravity>(1.0, 0.0), 1.0);
    integrate::Simulation tree(
        points, std::make_unique<gravity::TreeGravity>(1.0, 0.0, theta, order, 16, 64), 1.0);
    double worst = 0.0;
    for (std::size_t k = 0; k < points.size(); ++k)
        worst = std::max(worst, (tree.accelerations()[k] - direct.accelerations()[k]).norm() /
                                    direct.accelerations()[k].norm());
    return worst;
}

} // namespace

TEST(AggregateGravity, TreeForcesAndTorquesMatchDirectSummationWithinTheTreeError) {
    // 27 aggregates of 20 spheres and 13 free spheres: 553 mass points.
    const Bodies b = test::aggregate_cloud(27, 20, 0.1, 7);
    const auto quad = tree_errors(b, 0.5, 2), hexa = tree_errors(b, 0.5, 4);
    // A body's force and torque are mass-weighted sums over its spheres (N = sum m_k rho_k x
    // a_k, sum m_k rho_k = 0), so by the triangle inequality their errors, measured against
    // the scales of aggregate_field_errors, are at most the largest relative error of the tree
    // on any one sphere: a rigorous bound, whatever the build's rounding does to the tail. The
    // medians are held to the tree accuracy test's median targets.
    const double round_off = 1.0 + 1e-12;
    const double sphere_quad = largest_sphere_error(b, 0.5, 2);
    const double sphere_hexa = largest_sphere_error(b, 0.5, 4);
    EXPECT_LT(quad.force_median, test::tree_theta05_order2_median);
    EXPECT_LE(quad.force_max, sphere_quad * round_off);
    EXPECT_LT(quad.torque_median, test::tree_theta05_order2_median);
    EXPECT_LE(quad.torque_max, sphere_quad * round_off);
    const double gain = test::tree_order4_gain;
    EXPECT_LT(hexa.force_median, test::tree_theta05_order2_median / gain);
    EXPECT_LE(hexa.force_max, sphere_hexa * round_off);
    EXPECT_LT(hexa.torque_median, test::tree_theta05_order2_median / gain);
    EXPECT_LE(hexa.torque_max, sphere_hexa * round_off);
    // The tree did approximate (a walk that opened every node would pass trivially), and its
    // error grows with the opening angle.
    const auto wide = tree_errors(b, 0.7, 2), narrow = tree_errors(b, 0.3, 2);
    EXPECT_GT(quad.force_median, 1e3 * test::eps);
    EXPECT_GT(quad.torque_median, 1e3 * test::eps);
    EXPECT_LT(narrow.force_median, quad.force_median);
    EXPECT_LT(quad.force_median, wide.force_median);
    EXPECT_LT(narrow.torque_median, quad.torque_median);
    EXPECT_LT(quad.torque_median, wide.torque_median);
}

TEST(AggregateGravity, TreeSelfTorqueOfAnIsolatedAggregateIsWithinTheTreeError) {
    // The forces between the spheres of one body are central and pairwise opposite, so direct
    // summation gives it no torque (round-off); the tree's are not pairwise opposite, so a body
    // large enough to hold several tree nodes gets a spurious self-torque, which must stay
    // within the tree's error; so must its spurious self-force.
    Rng rng(3);
    Bodies b;
    add_rigid_body(b, 0, test::lumpy_aggregate(400, 1.0, 1.0, rng), Vec3::Zero(), Vec3::Zero(),
                   Vec3::Zero());
    integrate::Simulation direct(b, std::make_unique<gravity::DirectGravity>(1.0, 0.0), 1.0);
    integrate::Simulation tree(b, std::make_unique<gravity::TreeGravity>(1.0, 0.0, 0.5, 2, 16, 64),
                               1.0);
    const test::AggregateFieldErrors e = test::aggregate_field_errors(tree, direct, 1.0);
    const test::AggregateFieldErrors none = test::aggregate_field_errors(direct, direct, 1.0);
    std::printf("[measured] one aggregate of 400 spheres: direct |a| %.2e, |N| %.2e; tree "
                "self-force / (sum m |a| / M) %.2e, self-torque / sum m |rho| |a| %.2e\n",
                direct.accelerations()[0].norm(), direct.torques()[0].norm(), e.force_max,
                e.torque_max);
    EXPECT_EQ(none.torque_max, 0.0);
    // Bounded by the tree's largest error on one sphere (the triangle inequality, as above).
    const double sphere = largest_sphere_error(b, 0.5, 2) * (1.0 + 1e-12);
    EXPECT_LE(e.force_max, sphere);
    EXPECT_LE(e.torque_max, sphere);
}
