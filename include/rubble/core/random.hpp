// SPDX-License-Identifier: MIT
#pragma once
// Portable random numbers for initial conditions: std::mt19937_64 bits turned into doubles by
// our own code, so a seed gives the same bodies with every standard library.
#include <cstdint>
#include <random>

#include "rubble/core/types.hpp"

namespace rubble {

class Rng {
public:
    explicit Rng(std::uint64_t seed) : engine_(seed) {}
    /// Uniform in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    /// Uniform direction on the unit sphere (Marsaglia 1972 via z and azimuth).
    Vec3 unit_vector();
    /// Uniform point in the ball of radius r (rejection from the cube: 52 % accepted).
    Vec3 in_ball(double r);

private:
    std::mt19937_64 engine_;
};

} // namespace rubble
