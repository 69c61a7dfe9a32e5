// SPDX-License-Identifier: MIT
#pragma once
// The check of direct gravity across ranks (issue 34, item 3), written once against
// core::Communicator and run over thread ranks (tests/unit/gravity) and MPI ranks (tests/mpi).
// Only EXPECTs, so that no rank leaves a collective out.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "rubble/core/communicator.hpp"
#include "rubble/core/random.hpp"
#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/gravity/distributed_direct.hpp"

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

} // namespace rubble::test
