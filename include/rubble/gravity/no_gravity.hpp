// SPDX-License-Identifier: MIT
#pragma once
// gravity.backend = "none": no self-gravity (granular gases, collision tests, boxes).
#include <algorithm>

#include "rubble/gravity/gravity_solver.hpp"

namespace rubble::gravity {

class NoGravity final : public GravitySolver {
public:
    void compute(std::span<const Vec3> /*pos*/, std::span<const double> /*mass*/,
                 std::span<Vec3> acc, std::span<double> potential) override {
        std::fill(acc.begin(), acc.end(), Vec3::Zero());
        std::fill(potential.begin(), potential.end(), 0.0);
    }
    [[nodiscard]] std::string name() const override {
        return std::string(enum_name(backend_names, Backend::none));
    }
};

} // namespace rubble::gravity
