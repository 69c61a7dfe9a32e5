// SPDX-License-Identifier: MIT
#pragma once
// Error of a gravity backend against direct summation (SWIFT's gravity_exact_force_check).
#include <cstdint>
#include <span>
#include <vector>

#include "rubble/core/types.hpp"

namespace rubble::gravity {

struct ErrorPercentiles {
    std::size_t samples = 0;
    double median = 0.0, p99 = 0.0, max = 0.0; ///< of |a - a_direct| / |a_direct|
};

/// Exact (direct-sum, Plummer-softened) accelerations of the bodies `targets` (m/s^2).
[[nodiscard]] std::vector<Vec3> direct_accelerations(std::span<const Vec3> pos,
                                                     std::span<const double> mass, double G,
                                                     double softening,
                                                     std::span<const std::size_t> targets);

/// Relative acceleration errors of `acc` on `samples` bodies drawn without replacement with
/// `seed` (all bodies when samples >= N).
[[nodiscard]] ErrorPercentiles check_against_direct(std::span<const Vec3> pos,
                                                    std::span<const double> mass,
                                                    std::span<const Vec3> acc, double G,
                                                    double softening, std::size_t samples,
                                                    std::uint64_t seed);

} // namespace rubble::gravity
