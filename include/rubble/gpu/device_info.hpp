// SPDX-License-Identifier: MIT
#pragma once
// What the CUDA runtime sees; built from gpu/ (a CUDA build) or its CPU-only twin.
#include <cstddef>
#include <string>

namespace rubble::gpu {

struct DeviceReport {
    int count = 0;           ///< usable CUDA devices
    std::string description; ///< one line: devices and compute capabilities, or why none
};

/// Queries the CUDA runtime; never throws, never aborts without a GPU.
[[nodiscard]] DeviceReport query_devices();

/// Bytes of the current device's memory in use (all processes), 0 without a GPU: benchmarks
/// read it before and after a solver allocates.
[[nodiscard]] std::size_t device_bytes_in_use();

} // namespace rubble::gpu
