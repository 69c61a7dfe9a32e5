// SPDX-License-Identifier: MIT
#pragma once
// What both GPU engines keep of the bodies on the device, and its transfers: positions and
// masses up, accelerations and potentials down (32 bytes per body each way). Host code only.
#include "device_buffer.cuh"
#include "device_engines.hpp"

namespace rubble::gpu {

struct DeviceBodies {
    DeviceBuffer<double> pos, mass, acc, pot; // pos and acc hold x, y, z per body

    void upload(const HostArrays& a) {
        const std::size_t n = a.n;
        pos.reserve(3 * n);
        mass.reserve(n);
        acc.reserve(3 * n);
        pot.reserve(n);
        RUBBLE_CUDA_CHECK(
            cudaMemcpy(pos.get(), a.pos, 3 * n * sizeof(double), cudaMemcpyHostToDevice));
        RUBBLE_CUDA_CHECK(
            cudaMemcpy(mass.get(), a.mass, n * sizeof(double), cudaMemcpyHostToDevice));
    }

    void download(const HostArrays& a) const {
        RUBBLE_CUDA_CHECK(
            cudaMemcpy(a.acc, acc.get(), 3 * a.n * sizeof(double), cudaMemcpyDeviceToHost));
        RUBBLE_CUDA_CHECK(
            cudaMemcpy(a.pot, pot.get(), a.n * sizeof(double), cudaMemcpyDeviceToHost));
    }
};

} // namespace rubble::gpu
