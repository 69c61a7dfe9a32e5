// SPDX-License-Identifier: MIT
// CPU-only twin of device_info.cu for builds without nvcc.
#include "rubble/gpu/device_info.hpp"

namespace rubble::gpu {

DeviceReport query_devices() {
    return {0, "built without CUDA"};
}

std::size_t device_bytes_in_use() {
    return 0;
}

} // namespace rubble::gpu
