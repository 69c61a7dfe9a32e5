// SPDX-License-Identifier: MIT
#pragma once
// The checks of domain decomposition and migration (issue 34, item 2), written once against
// core::Communicator and run over thread ranks in the unit suite (tests/unit/domain) and over
// MPI ranks in the MPI suite (tests/mpi). Only EXPECTs: a failed ASSERT would leave one rank
// out of the next collective and hang the others.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "aggregates.hpp"
#include "rubble/core/bodies.hpp"
#include "rubble/core/communicator.hpp"
#include "rubble/core/random.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/domain/decomposition.hpp"
#include "rubble/domain/migration.hpp"
#include "rubble/ic/aggregates.hpp"

namespace rubble::test {

/// n bodies of every kind, the same on every rank: free spheres, aggregates of 2 to 5 spheres,
/// and hulls of two shapes, in a clumpy cloud (half of them in a dense knot, as a collapsing
/// cloud has), every field set (free_path too), ids scrambled against rows.
inline Bodies mixed_cloud(std::size_t n) {
    Rng rng(20261128);
    Bodies b;
    const auto box = b.add_hull_shape(shapes::make_polyhedron(ic::box_hull(Vec3(1.0, 2.0, 3.0))));
    const auto tet = b.add_hull_shape(shapes::make_polyhedron(ic::tetrahedron_hull(1.5)));
    for (std::size_t k = 0; k < n; ++k) {
        const double spread = k % 2 == 0 ? 1000.0 : 50.0;
        const Vec3 x(spread * rng.uniform(-1, 1), spread * rng.uniform(-1, 1),
                     spread * rng.uniform(-1, 1));
        const Vec3 v(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1));
        const Vec3 w(rng.uniform(-1e-3, 1e-3), rng.uniform(-1e-3, 1e-3), 0.0);
        const auto id = static_cast<std::int64_t>((k * 7919) % 100003);
        switch (k % 4) {
        case 0:
            b.add_sphere(id, 2000.0 + static_cast<double>(k),
                         1.0 + 0.01 * static_cast<double>(k % 7), x, v, w);
            break;
        case 1:
            add_rigid_body(b, id, random_cluster(rng, 2 + static_cast<int>(k % 4), 1.0, 2500.0), x,
                           v, w, random_rotation(rng));
            break;
        default:
            add_polyhedron(b, id, k % 4 == 2 ? box : tet, 3000.0, x, v, w, random_rotation(rng));
            break;
        }
        b.free_path.back() = static_cast<double>(k) * 0.5;
    }
    return b;
}

/// A weight per body as a run's measured cost would be: uneven, 1 to 40.
inline std::int64_t weight_of_id(std::int64_t id) {
    return 1 + (id * 31) % 40;
}

/// Expects body `k` of `b` and body `j` of `ref` to be the same bit for bit, spheres and hull
/// included.
inline void expect_same_body(const Bodies& b, std::size_t k, const Bodies& ref, std::size_t j) {
    EXPECT_EQ(b.id[k], ref.id[j]);
    EXPECT_EQ(b.mass[k], ref.mass[j]);
    EXPECT_EQ(b.radius[k], ref.radius[j]);
    EXPECT_EQ(b.pos[k], ref.pos[j]);
    EXPECT_EQ(b.vel[k], ref.vel[j]);
    EXPECT_EQ(b.spin[k], ref.spin[j]);
    EXPECT_EQ(b.orientation[k].coeffs(), ref.orientation[j].coeffs());
    EXPECT_EQ(b.inertia[k], ref.inertia[j]);
    EXPECT_EQ(b.principal_axes[k].coeffs(), ref.principal_axes[j].coeffs());
    EXPECT_EQ(b.free_path[k], ref.free_path[j]);
    const auto spheres_of = [](const Bodies& t, std::size_t body) {
        std::vector<std::size_t> rows;
        for (std::size_t i = 0; i < t.spheres.size(); ++i)
            if (t.spheres.body[i] == static_cast<std::int64_t>(body)) rows.push_back(i);
        return rows;
    };
    const auto mine = spheres_of(b, k), theirs = spheres_of(ref, j);
    EXPECT_EQ(mine.size(), theirs.size());
    for (std::size_t i = 0; i < std::min(mine.size(), theirs.size()); ++i) {
        EXPECT_EQ(b.spheres.offset[mine[i]], ref.spheres.offset[theirs[i]]);
        EXPECT_EQ(b.spheres.radius[mine[i]], ref.spheres.radius[theirs[i]]);
        EXPECT_EQ(b.spheres.mass[mine[i]], ref.spheres.mass[theirs[i]]);
    }
    const auto hull_of = [](const Bodies& t, std::size_t body) {
        for (std::size_t i = 0; i < t.hulls.size(); ++i)
            if (t.hulls.body[i] == static_cast<std::int64_t>(body)) return std::int64_t(i);
        return std::int64_t{-1};
    };
    const std::int64_t h = hull_of(b, k), g = hull_of(ref, j);
    EXPECT_EQ(h < 0, g < 0);
    if (h >= 0 && g >= 0) {
        EXPECT_EQ(b.hulls.shape[static_cast<std::size_t>(h)],
                  ref.hulls.shape[static_cast<std::size_t>(g)]);
        EXPECT_EQ(b.hulls.mass[static_cast<std::size_t>(h)],
                  ref.hulls.mass[static_cast<std::size_t>(g)]);
    }
}

/// Every rank starts with a scattered share of the cloud (rows k with k mod P = its rank),
/// decomposes by the weights, migrates, and checks: each body on exactly one rank, the one
/// whose key range holds it, every field bitwise as made, rows in serial order, the weight of
/// each rank within one body's weight of an equal share; then a migration round trip (every
/// body to the next rank and back) changes nothing.
inline void check_decomposition_and_migration(core::Communicator& world, std::size_t n) {
    const Bodies ref = mixed_cloud(n);
    const auto p = static_cast<std::size_t>(world.size());
    const auto me = static_cast<std::size_t>(world.rank());
    std::vector<std::size_t> rows;
    for (std::size_t k = me; k < n; k += p)
        rows.push_back(k);
    Bodies b = ref.select(rows);
    std::vector<std::int64_t> order(rows.begin(), rows.end());
    std::vector<std::int64_t> weight;
    for (const std::int64_t id : b.id)
        weight.push_back(weight_of_id(id));

    const domain::Decomposition d = domain::decompose(b.pos, weight, world);
    std::int64_t total = 0, heaviest = 0;
    for (const std::int64_t id : ref.id) {
        total += weight_of_id(id);
        heaviest = std::max(heaviest, weight_of_id(id));
    }
    EXPECT_EQ(d.total_weight, total);
    EXPECT_EQ(d.first_key.size(), p + 1);
    EXPECT_EQ(d.first_key.front(), 0u);
    EXPECT_TRUE(std::is_sorted(d.first_key.begin(), d.first_key.end()));
    for (std::size_t r = 0; r < p; ++r) {
        const std::int64_t share =
            total * static_cast<std::int64_t>(r + 1) / static_cast<std::int64_t>(p) -
            total * static_cast<std::int64_t>(r) / static_cast<std::int64_t>(p);
        EXPECT_LE(std::abs(d.weight[r] - share), heaviest) << "rank " << r << " of " << p;
    }

    std::vector<int> destination;
    for (const Vec3& x : b.pos)
        destination.push_back(d.owner(x));
    domain::migrate(b, order, destination, world);
    EXPECT_NO_THROW(b.check_consistent());
    EXPECT_EQ(world.sum(static_cast<std::int64_t>(b.size())), static_cast<std::int64_t>(n));
    std::int64_t mine = 0;
    for (std::size_t k = 0; k < b.size(); ++k) {
        EXPECT_EQ(d.owner(b.pos[k]), world.rank());
        const auto j = ref.index_of(b.id[k]);
        EXPECT_TRUE(j.has_value());
        if (!j) continue;
        EXPECT_EQ(order[k], static_cast<std::int64_t>(*j));
        expect_same_body(b, k, ref, *j);
        mine += weight_of_id(b.id[k]);
    }
    EXPECT_EQ(mine, d.weight[me]);
    EXPECT_TRUE(std::is_sorted(order.begin(), order.end()));

    Bodies round = b;
    std::vector<std::int64_t> round_order = order;
    destination.assign(round.size(), static_cast<int>((me + 1) % p));
    domain::migrate(round, round_order, destination, world);
    destination.assign(round.size(), static_cast<int>((me + p - 1) % p));
    domain::migrate(round, round_order, destination, world);
    EXPECT_EQ(round_order, order);
    EXPECT_EQ(round.size(), b.size());
    for (std::size_t k = 0; k < std::min(round.size(), b.size()); ++k)
        expect_same_body(round, k, b, k);
}

} // namespace rubble::test
