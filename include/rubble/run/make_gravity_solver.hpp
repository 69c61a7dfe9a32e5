// SPDX-License-Identifier: MIT
#pragma once
// The gravity factory: the only place that switches on gravity.backend. It lives in the run
// layer, above both the CPU solvers (gravity/) and the CUDA backends (gpu/), so that neither
// of those two layers includes the other (docs/architecture.md).
#include <cstddef>
#include <memory>

#include "rubble/gravity/gravity_solver.hpp"

namespace rubble::run {

/// The backend gravity.backend names for `n_bodies` bodies: `auto` resolved by
/// gravity::auto_tree_threshold, and, with `may_use_gpu`, by gravity::auto_gpu_threshold when a
/// CUDA GPU is present (over MPI ranks no GPU is used: run/run_ranks.hpp).
[[nodiscard]] gravity::Backend resolve_backend(const gravity::GravityConfig& config,
                                               std::size_t n_bodies, bool may_use_gpu);

/// The solver gravity.backend names; `n_bodies` resolves `auto` (resolve_backend with the GPU).
[[nodiscard]] std::unique_ptr<gravity::GravitySolver>
make_gravity_solver(const gravity::GravityConfig& config, std::size_t n_bodies);

} // namespace rubble::run
