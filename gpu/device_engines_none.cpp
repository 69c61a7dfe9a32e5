// SPDX-License-Identifier: MIT
// CPU-only twin of gpu_direct.cu and gpu_tree.cu for builds without nvcc: the engines exist so
// that everything links, and refuse to start. make_gravity_solver checks gpu_available() first,
// so users see "no GPU" with the parameter named (exit 2), never this message.
#include <stdexcept>

#include "device_engines.hpp"

namespace rubble::gpu {

PinnedBuffer::~PinnedBuffer() = default;
void PinnedBuffer::reserve(std::size_t) {
    throw std::runtime_error("rubble was built without CUDA: no page-locked memory");
}

struct DirectEngine::State {};
struct TreeEngine::State {};

DirectEngine::DirectEngine(double, double) {
    throw std::runtime_error("rubble was built without CUDA: no gpu-direct backend");
}
DirectEngine::~DirectEngine() = default;
void DirectEngine::compute(const HostArrays&) {}
StageTimes DirectEngine::times() const {
    return {};
}

TreeEngine::TreeEngine(double, double, double, int, int, bool) {
    throw std::runtime_error("rubble was built without CUDA: no gpu-tree backend");
}
TreeEngine::~TreeEngine() = default;
void TreeEngine::compute(const HostArrays&) {}
StageTimes TreeEngine::times() const {
    return {};
}
TreeCounts TreeEngine::counts() const {
    return {};
}

} // namespace rubble::gpu
