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
    [[nodiscard]] std::string name() const override {
        return std::string(enum_name(backend_names, Backend::direct));
    }

private:
    double G_;
    double eps2_;
    // Positions and masses copied into separate arrays so the inner loop vectorises.
    std::vector<double> x_, y_, z_, m_;
};

} // namespace rubble::gravity
