// SPDX-License-Identifier: MIT
#pragma once
// The CUDA gravity engines behind GpuDirectGravity and GpuTreeGravity, seen from host code:
// plain arrays in, plain arrays out, no CUDA or Eigen types, so the GravitySolver wrappers
// compile with the host compiler. Built from gpu_direct.cu and gpu_tree.cu in a CUDA build,
// from device_engines_none.cpp (constructors throw) otherwise.
#include <cstddef>
#include <memory>

#include "rubble/gpu/gpu_stats.hpp"

namespace rubble::gpu {

/// Host arrays of one force evaluation: pos and acc hold 3 doubles per body (x, y, z).
struct HostArrays {
    const double* pos;
    const double* mass;
    std::size_t n;
    double* acc;
    double* pot;
};

/// Page-locked host memory (cudaMallocHost): copies between it and the device run at the
/// bus's full rate, about twice what pageable memory gets. Grows, never shrinks.
class PinnedBuffer {
public:
    PinnedBuffer() = default;
    ~PinnedBuffer();
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;
    /// Ensures room for `bytes`; the contents are lost when it grows.
    void reserve(std::size_t bytes);
    [[nodiscard]] double* doubles() const { return static_cast<double*>(data_); }

private:
    void* data_ = nullptr;
    std::size_t capacity_ = 0;
};

/// Tiled O(N^2) summation on the device (the seeds' baseline, Ferrari et al. 2020).
class DirectEngine {
public:
    DirectEngine(double G, double softening);
    ~DirectEngine();
    DirectEngine(const DirectEngine&) = delete;
    DirectEngine& operator=(const DirectEngine&) = delete;
    void compute(const HostArrays& a);
    [[nodiscard]] StageTimes times() const;

private:
    struct State;
    std::unique_ptr<State> s_;
};

/// Barnes-Hut octree built and walked on the device (docs/gpu.md).
class TreeEngine {
public:
    /// mixed: the far field (multipole expansions) in float from double offsets, accumulated in
    /// double; the near field (body-body) stays double.
    TreeEngine(double G, double softening, double theta, int order, int bucket_size,
               bool mixed = false);
    ~TreeEngine();
    TreeEngine(const TreeEngine&) = delete;
    TreeEngine& operator=(const TreeEngine&) = delete;
    void compute(const HostArrays& a);
    [[nodiscard]] StageTimes times() const;
    [[nodiscard]] TreeCounts counts() const;

private:
    struct State;
    std::unique_ptr<State> s_;
};

} // namespace rubble::gpu
