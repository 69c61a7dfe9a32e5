// SPDX-License-Identifier: MIT
// The broad phase against every pair tested directly: clouds of many sizes and spreads, far
// outliers, one and no body, and spheres that just touch.
#include <cmath>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "rubble/core/random.hpp"
#include "rubble/polyhedra/broad_phase.hpp"

using namespace rubble;

namespace {

std::vector<std::pair<std::int32_t, std::int32_t>> all_pairs(const std::vector<Vec3>& x,
                                                             const std::vector<double>& r) {
    std::vector<std::pair<std::int32_t, std::int32_t>> p;
    for (std::size_t i = 0; i < x.size(); ++i)
        for (std::size_t j = i + 1; j < x.size(); ++j) {
            const double s = r[i] + r[j];
            if ((x[i] - x[j]).squaredNorm() <= s * s)
                p.emplace_back(static_cast<std::int32_t>(i), static_cast<std::int32_t>(j));
        }
    return p;
}

} // namespace

TEST(BroadPhase, FindsExactlyThePairsWhoseSpheresMeet) {
    Rng rng(3);
    for (const int n : {0, 1, 2, 17, 500, 3000}) {
        for (const double spread : {1e-3, 1.0, 1e6}) {
            std::vector<Vec3> x;
            std::vector<double> r;
            for (int k = 0; k < n; ++k) {
                x.push_back(rng.in_ball(spread));
                // Sizes over two orders of magnitude, about the mean spacing.
                r.push_back(spread * std::pow(10.0, rng.uniform(-2.0, 0.0)) / std::cbrt(n + 1.0));
            }
            if (n > 3) x[3] = Vec3(1e15, -1e15, 3e14); // an outlier far away
            SCOPED_TRACE("n " + std::to_string(n) + ", spread " + std::to_string(spread));
            EXPECT_EQ(polyhedra::sphere_pairs(x, r), all_pairs(x, r));
        }
    }
}

TEST(BroadPhase, SpheresThatJustTouchArePairs) {
    const std::vector<Vec3> x{Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(3.25, 0, 0)};
    const std::vector<double> r{1.0, 1.0, 0.25};
    const auto p = polyhedra::sphere_pairs(x, r);
    ASSERT_EQ(p.size(), 2U);
    EXPECT_EQ(p[0], std::make_pair(0, 1));
    EXPECT_EQ(p[1], std::make_pair(1, 2));
}
