// SPDX-License-Identifier: MIT
#pragma once
#include "rubble/core/bodies.hpp"
#include "rubble/io/run_config.hpp"

namespace rubble::ic {

struct InitialState {
    Bodies bodies;
    double time = 0.0; ///< s (non-zero when taken from a snapshot)
};

/// Generates (or loads) the bodies the configuration asks for and validates them: finite
/// values, positive masses and radii, unique ids, no overlapping spheres. Throws InputError.
[[nodiscard]] InitialState make_initial_state(const io::RunConfig& config);

} // namespace rubble::ic
