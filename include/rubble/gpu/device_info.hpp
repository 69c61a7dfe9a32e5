// SPDX-License-Identifier: MIT
#pragma once
// What the CUDA runtime sees; built from gpu/ (a CUDA build) or its CPU-only twin.
#include <string>

namespace rubble::gpu {

struct DeviceReport {
    int count = 0;           ///< usable CUDA devices
    std::string description; ///< one line: devices and compute capabilities, or why none
};

/// Queries the CUDA runtime; never throws, never aborts without a GPU.
[[nodiscard]] DeviceReport query_devices();

} // namespace rubble::gpu
