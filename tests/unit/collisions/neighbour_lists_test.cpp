// SPDX-License-Identifier: MIT
// The neighbour lists against an O(N^2) check of which neighbourhoods meet, for sizes spread
// over several grid levels, open and periodic, after renewals that move and grow bodies.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>
#include <vector>

#include "gas.hpp"
#include "rubble/boundaries/periodic.hpp"
#include "rubble/collisions/neighbour_lists.hpp"
#include "rubble/core/error.hpp"

namespace rubble::collisions {
namespace {

using PairSet = std::set<std::pair<std::int32_t, std::int32_t>>;

PairSet listed(const NeighbourLists& nl, std::size_t n) {
    PairSet out;
    for (std::size_t i = 0; i < n; ++i)
        nl.for_each_neighbour(static_cast<std::int32_t>(i), [&](std::int32_t j, std::int8_t) {
            out.emplace(std::min<std::int32_t>(static_cast<std::int32_t>(i), j),
                        std::max<std::int32_t>(static_cast<std::int32_t>(i), j));
        });
    return out;
}

std::int64_t entries(const NeighbourLists& nl, std::size_t n) {
    std::int64_t total = 0;
    for (std::size_t i = 0; i < n; ++i)
        nl.for_each_neighbour(static_cast<std::int32_t>(i),
                              [&](std::int32_t, std::int8_t) { ++total; });
    return total;
}

// Every entry's image brings the pair's neighbourhoods together, and the two entries of a pair
// name opposite images (the lists keep images with the entries, so renewals and wraps must
// keep them right on both sides).
int wrong_images(const NeighbourLists& nl, const std::vector<Vec3>& c, const std::vector<double>& r,
                 double skin, double box) {
    int wrong = 0;
    for (std::size_t i = 0; i < c.size(); ++i)
        nl.for_each_neighbour(static_cast<std::int32_t>(i), [&](std::int32_t j, std::int8_t image) {
            const auto uj = static_cast<std::size_t>(j);
            const Vec3 shift = box > 0.0 ? boundaries::image_shift(image, box) : Vec3::Zero();
            const double s = (r[i] + r[uj]) * (1.0 + skin);
            bool back = false;
            nl.for_each_neighbour(j, [&](std::int32_t k, std::int8_t other) {
                back = back || (k == static_cast<std::int32_t>(i) &&
                                other == boundaries::opposite_image(image));
            });
            if ((c[uj] + shift - c[i]).norm() > s * (1.0 + 1e-12) || !back) ++wrong;
        });
    return wrong;
}

// Pairs whose neighbourhoods (centre c, radius R (1 + skin)) meet, nearest image in a box.
PairSet expected(const std::vector<Vec3>& c, const std::vector<double>& r, double skin,
                 double box) {
    PairSet out;
    for (std::size_t i = 0; i < c.size(); ++i)
        for (std::size_t j = i + 1; j < c.size(); ++j) {
            Vec3 d = c[j] - c[i];
            if (box > 0.0)
                for (int a = 0; a < 3; ++a)
                    d[a] -= box * std::round(d[a] / box);
            const double s = (r[i] + r[j]) * (1.0 + skin);
            if (d.squaredNorm() <= s * s)
                out.emplace(static_cast<std::int32_t>(i), static_cast<std::int32_t>(j));
        }
    return out;
}

class NeighbourListsTest : public ::testing::TestWithParam<double> {};

TEST_P(NeighbourListsTest, MatchBruteForceAcrossSizesAndRenewals) {
    const double box_or_open = GetParam();
    test::Gas gas = test::lattice_gas(3000, 0.4, 1.0, 7);
    // Radii spread over a factor 20 (five grid levels); smaller spheres cannot overlap.
    Rng rng(11);
    for (double& r : gas.bodies.radius)
        r *= std::pow(20.0, -std::pow(rng.uniform(), 3.0)); // most near full size
    const double skin = 1.0;
    const double box = box_or_open > 0.0 ? gas.box : 0.0;
    NeighbourLists nl;
    ASSERT_TRUE(nl.prepare(gas.bodies, 0.0, skin, box));
    std::vector<Vec3> centre = gas.bodies.pos;
    std::vector<double> radius = gas.bodies.radius;
    const std::size_t n = gas.bodies.size();
    auto want = expected(centre, radius, skin, box);
    ASSERT_GT(want.size(), n) << "a dense set";
    EXPECT_EQ(listed(nl, n), want);
    EXPECT_EQ(entries(nl, n), 2 * static_cast<std::int64_t>(want.size())) << "no duplicates";

    // Renewals: bodies move (some across the periodic boundary), a few grow by up to 8x (as
    // merged bodies do) and so change level; about seven renewals per body.
    for (int k = 0; k < 20000; ++k) {
        const auto i = static_cast<std::int32_t>(rng.uniform() * static_cast<double>(n));
        const auto u = static_cast<std::size_t>(i);
        centre[u] += 0.7 * rng.unit_vector();
        if (k < 2000 && k % 100 == 0) radius[u] *= 1.0 + 7.0 * rng.uniform();
        nl.renew(i, centre[u], radius[u]);
    }
    want = expected(centre, radius, skin, box);
    EXPECT_EQ(listed(nl, n), want);
    EXPECT_EQ(entries(nl, n), 2 * static_cast<std::int64_t>(want.size())) << "no duplicates";
    EXPECT_EQ(nl.renewals(), 20000);
    EXPECT_EQ(wrong_images(nl, centre, radius, skin, box), 0);

    // Wrapping a body into the box moves its neighbourhood by a period (the drift's end).
    if (box > 0.0) {
        for (std::size_t u = 0; u < n; ++u) {
            const Vec3 w = boundaries::wrap_into_box(centre[u], box);
            nl.shift(static_cast<std::int32_t>(u), w - centre[u]);
            centre[u] = w;
        }
        EXPECT_EQ(listed(nl, n), want);
        EXPECT_EQ(wrong_images(nl, centre, radius, skin, box), 0);
        // Renewals after the wrap: the grid must know each wrapped centre's new periods, from
        // which a renewal's scan learns the images of the neighbours it finds.
        for (int k = 0; k < 5000; ++k) {
            const auto i = static_cast<std::int32_t>(rng.uniform() * static_cast<double>(n));
            const auto u = static_cast<std::size_t>(i);
            centre[u] += 0.7 * rng.unit_vector();
            nl.renew(i, centre[u], radius[u]);
        }
        want = expected(centre, radius, skin, box);
        EXPECT_EQ(listed(nl, n), want);
        EXPECT_EQ(wrong_images(nl, centre, radius, skin, box), 0);
    }
}

INSTANTIATE_TEST_SUITE_P(OpenAndPeriodic, NeighbourListsTest, ::testing::Values(0.0, 1.0));

TEST(NeighbourLists, KeptWhileBodiesStayInsideRebuiltWhenTheyChange) {
    test::Gas gas = test::lattice_gas(500, 0.2, 1.0, 3);
    NeighbourLists nl;
    EXPECT_TRUE(nl.prepare(gas.bodies, 0.1, 0.5, gas.box));
    EXPECT_FALSE(nl.prepare(gas.bodies, 0.1, 0.5, gas.box)) << "nothing changed";
    // One body moved beyond its room: renewed, not rebuilt.
    gas.bodies.pos[7].x() += gas.radius;
    EXPECT_FALSE(nl.prepare(gas.bodies, 0.1, 0.5, gas.box));
    EXPECT_EQ(nl.renewals(), 1);
    gas.bodies.radius[3] *= 0.5;
    EXPECT_TRUE(nl.prepare(gas.bodies, 0.1, 0.5, gas.box)) << "a radius changed";
    EXPECT_TRUE(nl.prepare(gas.bodies, 0.1, 0.6, gas.box)) << "the skin changed";
}

TEST(NeighbourLists, APeriodicBoxTooSmallForOneImagePerPairIsRefused) {
    test::Gas gas = test::lattice_gas(27, 0.2, 1.0, 3);
    NeighbourLists nl;
    // Box 3, radius 0.36, skin 0.5: neighbourhood radius 0.54; a drift sweeping 0.3 more
    // exceeds a quarter of the box.
    for (Vec3& v : gas.bodies.vel)
        v = Vec3(3.0, 0.0, 0.0);
    EXPECT_NO_THROW((void)nl.prepare(gas.bodies, 0.01, 0.5, gas.box));
    EXPECT_THROW((void)nl.prepare(gas.bodies, 0.1, 0.5, gas.box), PhysicsError);
}

TEST(NeighbourLists, ExitTimeReachesTheEdgeOfTheRoom) {
    test::Gas gas = test::lattice_gas(8, 0.1, 1.0, 3);
    NeighbourLists nl;
    (void)nl.prepare(gas.bodies, 0.0, 0.5, 0.0);
    const double room = 0.5 * gas.radius;
    const Vec3 x = gas.bodies.pos[0] + Vec3(0.3 * room, 0.0, 0.0);
    const Vec3 v(-2.0, 1.0, 0.5);
    const double t = nl.exit_time(0, x, v);
    // |x + v t - c| = room (1 - 1e-8): the engine's margin for round-off.
    EXPECT_NEAR((x + t * v - gas.bodies.pos[0]).norm(), room, 2e-8 * room);
    EXPECT_TRUE(std::isinf(nl.exit_time(0, x, Vec3::Zero())));
}

} // namespace
} // namespace rubble::collisions
