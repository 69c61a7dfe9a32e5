// SPDX-License-Identifier: MIT
#pragma once
// Direct summation over the mass points of every rank (issue 34, item 3; docs/plans/
// mpi-distributed-runs.md, section 2). Each rank holds some of the points, each tagged with
// its place in the serial order (the row it has in the serial run: bodies in their order,
// a body's spheres in theirs). Every rank gathers all points in that order and sums, for
// each of its own, over all of them: DirectGravity's row (direct_gravity.hpp), in the same
// order, so the forces are the serial ones bit for bit whatever the number of ranks (on
// machines that pick the same instruction-set clone of the row: RUBBLE_TARGET_CLONES; a
// cluster of mixed AVX2 and AVX-512 nodes differs at round-off). Direct
// summation is O(N^2) work on O(N) data, so gathering the positions costs nothing in
// comparison; the tree across ranks (locally essential trees) is the plan's next part.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "rubble/core/communicator.hpp"
#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/gravity/gravity_solver.hpp"

namespace rubble::gravity {

class DistributedDirectGravity {
public:
    DistributedDirectGravity(double G, double softening, core::Communicator& world);
    /// Accelerations (m/s^2) and specific potentials (J/kg) at this rank's points, from the
    /// points of all ranks. `order` is each point's place in the serial order: distinct over
    /// all ranks (any values, any local arrangement). Collective. Throws std::invalid_argument
    /// on every rank for spans of different lengths on any rank or an order value held twice.
    void compute(std::span<const std::int64_t> order, std::span<const Vec3> pos,
                 std::span<const double> mass, std::span<Vec3> acc, std::span<double> potential);

private:
    DirectGravity direct_;
    core::Communicator& world_;
    // Every rank's points in serial order (reused between calls).
    std::vector<std::int64_t> all_order_;
    std::vector<Vec3> all_pos_;
    std::vector<double> all_mass_;
};

/// DistributedDirectGravity as a run's gravity backend (integrate::Simulation): the mass
/// points are this rank's bodies at their centres, `order` their places in the serial order,
/// kept by the caller beside the bodies (run/run_ranks.hpp) and read at every compute, so it
/// must outlive this solver and have one value per point. Its name is "direct": over any
/// number of ranks it is the serial direct backend, bit for bit.
class DirectGravityOverRanks final : public GravitySolver {
public:
    DirectGravityOverRanks(double G, double softening, core::Communicator& world,
                           const std::vector<std::int64_t>& order)
        : impl_(G, softening, world), order_(order) {}
    void compute(std::span<const Vec3> pos, std::span<const double> mass, std::span<Vec3> acc,
                 std::span<double> potential) override {
        impl_.compute(order_, pos, mass, acc, potential);
    }
    [[nodiscard]] std::string name() const override { return "direct"; }

private:
    DistributedDirectGravity impl_;
    const std::vector<std::int64_t>& order_;
};

} // namespace rubble::gravity
