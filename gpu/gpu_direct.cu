// SPDX-License-Identifier: MIT
// gpu-direct: O(N^2) summation, one thread per target, sources staged through shared memory
// in tiles (Nyland, Harris & Prins 2007, GPU Gems 3 ch. 31), with the body-body kernel that
// the CPU backends use (pair_kernel.hpp), so only rsqrt and the summation hardware differ.
#include "device_buffer.cuh"
#include "device_engines.hpp"
#include "rubble/gravity/pair_kernel.hpp"

namespace rubble::gpu {
namespace {

constexpr int direct_block = 256;

// (x, y, z, m) of a body, 32-byte aligned so one vector load brings a whole source.
struct alignas(32) Source {
    double x, y, z, w;
};

__global__ void pack_sources(const double* __restrict__ pos, const double* __restrict__ mass,
                             std::size_t n, Source* __restrict__ out) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) out[i] = {pos[3 * i], pos[3 * i + 1], pos[3 * i + 2], mass[i]};
}

// Each thread sums the sources in index order, as DirectGravity does on the CPU. Padding
// beyond n has zero mass and adds nothing.
__global__ void __launch_bounds__(direct_block)
    direct_field(const Source* __restrict__ src, int n, double eps2, double G,
                 double* __restrict__ acc, double* __restrict__ pot) {
    __shared__ Source tile[direct_block];
    const int i = blockIdx.x * direct_block + static_cast<int>(threadIdx.x);
    const Source t = i < n ? src[i] : Source{0.0, 0.0, 0.0, 0.0};
    double ax = 0.0, ay = 0.0, az = 0.0, phi = 0.0;
    for (int base = 0; base < n; base += direct_block) {
        const int j = base + static_cast<int>(threadIdx.x);
        tile[threadIdx.x] = j < n ? src[j] : Source{0.0, 0.0, 0.0, 0.0};
        __syncthreads();
#pragma unroll 16
        for (int k = 0; k < direct_block; ++k) {
            const Source s = tile[k];
            gravity::add_body_field(s.x - t.x, s.y - t.y, s.z - t.z, s.w, eps2, ax, ay, az, phi);
        }
        __syncthreads();
    }
    if (i < n) {
        acc[3 * i] = G * ax;
        acc[3 * i + 1] = G * ay;
        acc[3 * i + 2] = G * az;
        pot[i] = G * phi;
    }
}

} // namespace

struct DirectEngine::State {
    double G = 0, eps2 = 0;
    DeviceBuffer<double> pos, mass, acc, pot;
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
    s.pos.reserve(3 * n);
    s.mass.reserve(n);
    s.acc.reserve(3 * n);
    s.pot.reserve(n);
    s.src.reserve(n);
    s.timer.record(0);
    RUBBLE_CUDA_CHECK(
        cudaMemcpy(s.pos.get(), a.pos, 3 * n * sizeof(double), cudaMemcpyHostToDevice));
    RUBBLE_CUDA_CHECK(cudaMemcpy(s.mass.get(), a.mass, n * sizeof(double), cudaMemcpyHostToDevice));
    s.timer.record(1);
    const auto blocks = static_cast<unsigned>((n + direct_block - 1) / direct_block);
    pack_sources<<<blocks, direct_block>>>(s.pos.get(), s.mass.get(), n, s.src.get());
    direct_field<<<blocks, direct_block>>>(s.src.get(), static_cast<int>(n), s.eps2, s.G,
                                           s.acc.get(), s.pot.get());
    RUBBLE_CUDA_CHECK(cudaGetLastError());
    s.timer.record(2);
    RUBBLE_CUDA_CHECK(
        cudaMemcpy(a.acc, s.acc.get(), 3 * n * sizeof(double), cudaMemcpyDeviceToHost));
    RUBBLE_CUDA_CHECK(cudaMemcpy(a.pot, s.pot.get(), n * sizeof(double), cudaMemcpyDeviceToHost));
    s.timer.record(3);
    s.times = {s.timer.seconds(0), 0.0, s.timer.seconds(1), s.timer.seconds(2)};
}

StageTimes DirectEngine::times() const {
    return s_->times;
}

} // namespace rubble::gpu
