// SPDX-License-Identifier: MIT
#pragma once
// The check of direct gravity across ranks (issue 34, item 3), written once against
// core::Communicator and run over thread ranks (tests/unit/gravity) and MPI ranks (tests/mpi).
// Only EXPECTs, so that no rank leaves a collective out.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "rubble/core/communicator.hpp"
#include "rubble/core/random.hpp"
#include "rubble/domain/decomposition.hpp"
#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/gravity/distributed_direct.hpp"
#include "rubble/gravity/distributed_tree.hpp"
#include "rubble/gravity/tree_gravity.hpp"

namespace rubble::test {

/// n softened mass points in a clumpy cloud: the serial DirectGravity's forces on all of them,
/// against DistributedDirectGravity's with the points dealt out to the ranks (rank r holds the
/// points k = r mod P, in reverse order): every acceleration and potential the same, bit for bit.
inline void check_distributed_direct(core::Communicator& world, std::size_t n) {
    Rng rng(31);
    std::vector<Vec3> pos(n);
    std::vector<double> mass(n);
    for (std::size_t k = 0; k < n; ++k) {
        const double r = k % 3 == 0 ? 10.0 : 1e4;
        pos[k] = Vec3(r * rng.uniform(-1, 1), r * rng.uniform(-1, 1), r * rng.uniform(-1, 1));
        mass[k] = 1e9 * (1.0 + rng.uniform());
    }
    const double G = 6.674e-11, softening = 0.5;
    gravity::DirectGravity serial(G, softening);
    std::vector<Vec3> acc(n);
    std::vector<double> phi(n);
    serial.compute(pos, mass, acc, phi);

    const auto p = static_cast<std::size_t>(world.size());
    std::vector<std::int64_t> order;
    std::vector<Vec3> my_pos;
    std::vector<double> my_mass;
    for (std::size_t k = n; k-- > 0;) {
        if (k % p != static_cast<std::size_t>(world.rank())) continue;
        order.push_back(static_cast<std::int64_t>(k));
        my_pos.push_back(pos[k]);
        my_mass.push_back(mass[k]);
    }
    gravity::DistributedDirectGravity distributed(G, softening, world);
    std::vector<Vec3> my_acc(order.size());
    std::vector<double> my_phi(order.size());
    distributed.compute(order, my_pos, my_mass, my_acc, my_phi);
    for (std::size_t i = 0; i < order.size(); ++i) {
        const auto k = static_cast<std::size_t>(order[i]);
        EXPECT_EQ(my_acc[i], acc[k]) << "point " << k;
        EXPECT_EQ(my_phi[i], phi[k]) << "point " << k;
    }
    // A second call (buffers reused) gives the same.
    std::vector<Vec3> again(order.size());
    distributed.compute(order, my_pos, my_mass, again, my_phi);
    EXPECT_EQ(again, my_acc);
}

/// Relative acceleration errors of `acc` against `exact`: median and 99th percentile.
inline std::pair<double, double> error_percentiles(const std::vector<Vec3>& acc,
                                                   const std::vector<Vec3>& exact) {
    std::vector<double> e(acc.size());
    for (std::size_t k = 0; k < acc.size(); ++k)
        e[k] = (acc[k] - exact[k]).norm() / exact[k].norm();
    std::sort(e.begin(), e.end());
    return {e[e.size() / 2], e[(e.size() * 99) / 100]};
}

/// The tree across ranks (gravity/distributed_tree.hpp) on n points of a uniform sphere,
/// dealt out to the ranks' domains by the decomposition: its error distribution against
/// direct summation (median and 99th percentile, every rank's points gathered) against the
/// serial tree's at the same theta and order. Over one rank it is the serial tree, bit for
/// bit. Over several, every node a walk accepts passes the same criterion for its group as in
/// the serial walk, so each body's error has the same theta-dependent bound; which nodes there
/// are differs (the domains split the serial tree's nodes along their cuts, and a smaller node
/// is accepted nearer), so the bodies whose errors make a percentile differ. Each percentile
/// is held to the serial one within two standard errors of a percentile estimated from the k
/// bodies beyond it, 1 + 2 / sqrt(k): k = n / 2 for the median, n / 100 for the 99th
/// percentile. Returns (median, p99) of the distributed tree.
inline std::pair<double, double> check_distributed_tree(core::Communicator& world, std::size_t n,
                                                        double theta, int order) {
    Rng rng(47);
    std::vector<Vec3> pos;
    std::vector<double> mass;
    while (pos.size() < n) {
        const Vec3 x(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1));
        if (x.squaredNorm() > 1.0) continue;
        pos.push_back(1e3 * x);
        mass.push_back(1e9 * (0.5 + rng.uniform()));
    }
    const double G = 6.674e-11, softening = 0.0;
    gravity::DirectGravity direct(G, softening);
    gravity::TreeGravity serial(G, softening, theta, order, 16, 64);
    std::vector<Vec3> exact(n), tree_acc(n);
    std::vector<double> phi(n);
    direct.compute(pos, mass, exact, phi);
    serial.compute(pos, mass, tree_acc, phi);

    // This rank's domain: every rank sees all points and keeps those the decomposition gives it.
    const auto p = static_cast<std::size_t>(world.size());
    const auto r = static_cast<std::size_t>(world.rank());
    std::vector<Vec3> shares;
    for (std::size_t k = r; k < n; k += p)
        shares.push_back(pos[k]);
    const auto d = domain::decompose(shares, std::vector<std::int64_t>(shares.size(), 1), world);
    std::vector<std::size_t> mine;
    std::vector<Vec3> my_pos;
    std::vector<double> my_mass;
    for (std::size_t k = 0; k < n; ++k) {
        if (static_cast<std::size_t>(d.owner(pos[k])) != r) continue;
        mine.push_back(k);
        my_pos.push_back(pos[k]);
        my_mass.push_back(mass[k]);
    }
    gravity::TreeGravityOverRanks distributed(G, softening, theta, order, 16, 64, world);
    std::vector<Vec3> my_acc(mine.size());
    std::vector<double> my_phi(mine.size());
    distributed.compute(my_pos, my_mass, my_acc, my_phi);

    // Every rank's accelerations on every rank, by point.
    std::vector<double> flat;
    for (std::size_t i = 0; i < mine.size(); ++i)
        flat.insert(flat.end(),
                    {static_cast<double>(mine[i]), my_acc[i].x(), my_acc[i].y(), my_acc[i].z()});
    const auto all = world.all_gather_bytes(std::span<const std::byte>(
        reinterpret_cast<const std::byte*>(flat.data()), flat.size() * sizeof(double)));
    std::vector<Vec3> acc(n, Vec3::Zero());
    std::size_t seen = 0;
    for (const auto& bytes : all) {
        std::vector<double> v(bytes.size() / sizeof(double));
        std::memcpy(v.data(), bytes.data(), bytes.size());
        for (std::size_t j = 0; j + 3 < v.size(); j += 4, ++seen)
            acc[static_cast<std::size_t>(v[j])] = Vec3(v[j + 1], v[j + 2], v[j + 3]);
    }
    EXPECT_EQ(seen, n);
    const auto [serial_median, serial_p99] = error_percentiles(tree_acc, exact);
    const auto [median, p99] = error_percentiles(acc, exact);
    if (p == 1) {
        EXPECT_EQ(acc, tree_acc);
    } else {
        const double beyond_median = static_cast<double>(n) / 2.0;
        const double beyond_p99 = static_cast<double>(n) / 100.0;
        EXPECT_LE(median, (1.0 + 2.0 / std::sqrt(beyond_median)) * serial_median);
        EXPECT_LE(p99, (1.0 + 2.0 / std::sqrt(beyond_p99)) * serial_p99);
    }
    return {median, p99};
}

} // namespace rubble::test
