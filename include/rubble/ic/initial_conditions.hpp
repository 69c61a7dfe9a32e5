// SPDX-License-Identifier: MIT
#pragma once
#include "rubble/core/bodies.hpp"
#include <cstdint>

#include "rubble/ic/ic_config.hpp"

namespace rubble::ic {

struct InitialState {
    Bodies bodies;
    double time = 0.0; ///< s (non-zero when taken from a snapshot)
};

/// Generates (or loads) the bodies the configuration asks for and validates them: finite
/// values, positive masses and radii, unique ids, no overlapping spheres. Throws InputError.
/// `seed` seeds the generators' random draws (random.seed), G (m^3 kg^-1 s^-2) sets the
/// two-body orbit, and overlaps deeper than overlap_tolerance (R1 + R2) are refused
/// (collisions.overlap_tolerance).
[[nodiscard]] InitialState make_initial_state(const IcConfig& ic, std::uint64_t seed, double G,
                                              double overlap_tolerance);

} // namespace rubble::ic
