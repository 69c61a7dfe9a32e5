// SPDX-License-Identifier: MIT
// gpu-direct: O(N^2) summation, one thread per target, sources staged through shared memory
// in tiles (Nyland, Harris & Prins 2007, GPU Gems 3 ch. 31), with the body-body kernel that
// the CPU backends use (pair_kernel.hpp), so only rsqrt and the summation hardware differ.
#include "device_bodies.cuh"
#include "device_engines.hpp"
#include "rubble/gravity/pair_kernel.hpp"

namespace rubble::gpu {
namespace {

constexpr int direct_block = 256;
constexpr int direct_targets = 2; // targets per thread (4 spills registers: slower)

// (x, y, z, m) of a body, 32-byte aligned so one vector load brings a whole source.
struct alignas(32) Source {
    double x, y, z, w;
};

__global__ void pack_sources(const double* __restrict__ pos, const double* __restrict__ mass,
                             std::size_t n, Source* __restrict__ out) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) out[i] = {pos[3 * i], pos[3 * i + 1], pos[3 * i + 2], mass[i]};
}

// Each thread sums the sources in index order for `direct_targets` targets (i, i + block, ...),
// as DirectGravity does on the CPU: every source read from shared memory serves several
// interactions, and the independent sums keep the double-precision pipes busy. Padding beyond
// n has zero mass and adds nothing.
template <bool Softened>
__global__ void __launch_bounds__(direct_block)
    direct_field(const Source* __restrict__ src, int n, double eps2, double G,
                 double* __restrict__ acc, double* __restrict__ pot) {
    __shared__ Source tile[direct_block];
    const int i0 = blockIdx.x * direct_targets * direct_block + static_cast<int>(threadIdx.x);
    Source t[direct_targets];
    double f[direct_targets][4] = {};
#pragma unroll
    for (int q = 0; q < direct_targets; ++q) {
        const int i = i0 + q * direct_block;
        t[q] = i < n ? src[i] : Source{0.0, 0.0, 0.0, 0.0};
    }
    for (int base = 0; base < n; base += direct_block) {
        const int j = base + static_cast<int>(threadIdx.x);
        tile[threadIdx.x] = j < n ? src[j] : Source{0.0, 0.0, 0.0, 0.0};
        __syncthreads();
#pragma unroll 4
        for (int k = 0; k < direct_block; ++k) {
            const Source s = tile[k];
#pragma unroll
            for (int q = 0; q < direct_targets; ++q)
                gravity::add_body_field<Softened>(s.x - t[q].x, s.y - t[q].y, s.z - t[q].z, s.w,
                                                  eps2, f[q][0], f[q][1], f[q][2], f[q][3]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int q = 0; q < direct_targets; ++q) {
        const int i = i0 + q * direct_block;
        if (i >= n) continue;
        acc[3 * i] = G * f[q][0];
        acc[3 * i + 1] = G * f[q][1];
        acc[3 * i + 2] = G * f[q][2];
        pot[i] = G * f[q][3];
    }
}

} // namespace

struct DirectEngine::State {
    double G = 0, eps2 = 0;
    DeviceBodies bodies;
    DeviceBuffer<Source> src;
    EventTimer timer{4};
    StageTimes times;
};

DirectEngine::DirectEngine(double G, double softening) : s_(std::make_unique<State>()) {
    s_->G = G;
    s_->eps2 = softening * softening;
}
DirectEngine::~DirectEngine() = default;

void DirectEngine::compute(const HostArrays& a) {
    const std::size_t n = a.n;
    if (n == 0) return;
    State& s = *s_;
    s.src.reserve(n);
    s.timer.record(0);
    s.bodies.upload(a);
    s.timer.record(1);
    const auto blocks = static_cast<unsigned>((n + direct_block - 1) / direct_block);
    pack_sources<<<blocks, direct_block>>>(s.bodies.pos.get(), s.bodies.mass.get(), n, s.src.get());
    const std::size_t per_block = static_cast<std::size_t>(direct_targets) * direct_block;
    const auto groups = static_cast<unsigned>((n + per_block - 1) / per_block);
    if (s.eps2 > 0.0)
        direct_field<true><<<groups, direct_block>>>(s.src.get(), static_cast<int>(n), s.eps2, s.G,
                                                     s.bodies.acc.get(), s.bodies.pot.get());
    else
        direct_field<false><<<groups, direct_block>>>(s.src.get(), static_cast<int>(n), s.eps2, s.G,
                                                      s.bodies.acc.get(), s.bodies.pot.get());
    RUBBLE_CUDA_CHECK(cudaGetLastError());
    s.timer.record(2);
    s.bodies.download(a);
    s.timer.record(3);
    s.times = {s.timer.seconds(0), 0.0, s.timer.seconds(1), s.timer.seconds(2)};
}

StageTimes DirectEngine::times() const {
    return s_->times;
}

} // namespace rubble::gpu
