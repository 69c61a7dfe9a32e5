// SPDX-License-Identifier: MIT
#pragma once
#include <vector>

#include "rubble/gravity/gravity_solver.hpp"

namespace rubble::gravity {

/// Direct N^2 summation with optional Plummer softening, OpenMP-parallel over targets.
/// Each target sums its sources in index order, so results do not depend on the thread count.
class DirectGravity final : public GravitySolver {
public:
    DirectGravity(double G, double softening);
    void compute(std::span<const Vec3> pos, std::span<const double> mass, std::span<Vec3> acc,
                 std::span<double> potential) override;
    /// The rows of some targets only: acc[t] and potential[t] at pos[targets[t]] from every
    /// point of pos, mass, each bit for bit what compute() gives that target (the same row in
    /// the same order). For a rank that owns only some of the points (distributed_direct.hpp).
    void compute_rows(std::span<const Vec3> pos, std::span<const double> mass,
                      std::span<const std::size_t> targets, std::span<Vec3> acc,
                      std::span<double> potential);
    [[nodiscard]] std::string name() const override {
        return std::string(enum_name(backend_names, Backend::direct));
    }

private:
    void load(std::span<const Vec3> pos, std::span<const double> mass);
    double G_;
    double eps2_;
    // Positions and masses copied into separate arrays so the inner loop vectorises.
    std::vector<double> x_, y_, z_, m_;
};

} // namespace rubble::gravity
