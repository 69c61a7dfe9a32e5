// SPDX-License-Identifier: MIT
#pragma once
// Error checking for CUDA runtime calls and kernel launches: throws with file and line, so
// the host decides what to do (STYLE.md). Host code only.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace rubble::gpu {

inline void cuda_check(cudaError_t status, const char* what, const char* file, int line) {
    if (status != cudaSuccess) {
        throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + what +
                                 ": " + cudaGetErrorString(status));
    }
}

} // namespace rubble::gpu

#define RUBBLE_CUDA_CHECK(call) ::rubble::gpu::cuda_check((call), #call, __FILE__, __LINE__)
