// SPDX-License-Identifier: MIT
#pragma once
// The gravity factory: the only place that switches on gravity.backend. It lives in the run
// layer, above both the CPU solvers (gravity/) and the CUDA backends (gpu/), so that neither
// of those two layers includes the other (docs/architecture.md).
#include <cstddef>
#include <memory>

#include "rubble/gravity/gravity_solver.hpp"

namespace rubble::run {

/// The solver gravity.backend names; `n_bodies` resolves `auto` (gravity::auto_tree_threshold,
/// gravity::auto_gpu_threshold).
[[nodiscard]] std::unique_ptr<gravity::GravitySolver>
make_gravity_solver(const gravity::GravityConfig& config, std::size_t n_bodies);

} // namespace rubble::run
