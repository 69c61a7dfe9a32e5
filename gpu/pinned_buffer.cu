// SPDX-License-Identifier: MIT
// Page-locked host staging memory for the GPU solvers' transfers.
#include "cuda_check.cuh"
#include "device_engines.hpp"

namespace rubble::gpu {

PinnedBuffer::~PinnedBuffer() {
    if (data_) cudaFreeHost(data_);
}

void PinnedBuffer::reserve(std::size_t bytes) {
    if (bytes <= capacity_) return;
    if (data_) RUBBLE_CUDA_CHECK(cudaFreeHost(data_));
    data_ = nullptr;
    capacity_ = 0;
    const std::size_t grown = bytes + bytes / 4;
    RUBBLE_CUDA_CHECK(cudaMallocHost(&data_, grown));
    capacity_ = grown;
}

} // namespace rubble::gpu
