// SPDX-License-Identifier: MIT
#pragma once
// The CUDA gravity backends behind the GravitySolver interface (docs/gpu.md). Built from gpu/;
// in a build without CUDA they exist and report that no GPU is available.
#include <memory>

#include "rubble/gravity/gravity_solver.hpp"

namespace rubble::gpu {

/// Whether a usable CUDA device is present (always false in a build without CUDA).
[[nodiscard]] bool gpu_available();

/// gravity.backend = "gpu-direct" / "gpu-tree". Throw InputError naming gravity.backend, with
/// the reason, when no usable GPU is present (exit code 2).
[[nodiscard]] std::unique_ptr<gravity::GravitySolver>
make_gpu_direct(const gravity::GravityConfig& config);
[[nodiscard]] std::unique_ptr<gravity::GravitySolver>
make_gpu_tree(const gravity::GravityConfig& config);

} // namespace rubble::gpu
