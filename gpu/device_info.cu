// SPDX-License-Identifier: MIT
#include <string>

#include "cuda_check.cuh"
#include "rubble/gpu/device_info.hpp"

namespace rubble::gpu {

DeviceReport query_devices() {
    DeviceReport r;
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) {
        r.description = std::string("no usable GPU (") + cudaGetErrorString(status) + ")";
        cudaGetLastError(); // clear the sticky error so later calls start clean
        return r;
    }
    r.count = count;
    r.description = std::to_string(count) + " GPU(s)";
    for (int d = 0; d < count; ++d) {
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, d) != cudaSuccess) continue;
        r.description += std::string("; ") + std::to_string(d) + ": " + prop.name + " (sm_" +
                         std::to_string(prop.major) + std::to_string(prop.minor) + ", " +
                         std::to_string(prop.totalGlobalMem >> 20) + " MiB)";
    }
    return r;
}

std::size_t device_bytes_in_use() {
    std::size_t free = 0, total = 0;
    if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return total - free;
}

} // namespace rubble::gpu
