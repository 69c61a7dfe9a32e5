// SPDX-License-Identifier: MIT
#pragma once
// A device array that keeps its allocation between force evaluations and grows only when a
// larger one is needed (plain cudaMalloc: no managed memory, see the device notes), and a
// CUDA event pair for stage timings. Host code only.
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.cuh"

namespace rubble::gpu {

template <class T> class DeviceBuffer {
public:
    DeviceBuffer() = default;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    ~DeviceBuffer() {
        if (data_) cudaFree(data_);
    }
    /// Ensures room for n elements; the contents are lost when it grows unless `keep`.
    void reserve(std::size_t n, bool keep = false) {
        if (n <= capacity_) return;
        const std::size_t grown = n + n / 4; // headroom: a step that grows a little reuses it
        T* fresh = nullptr;
        RUBBLE_CUDA_CHECK(cudaMalloc(&fresh, grown * sizeof(T)));
        if (keep && data_)
            RUBBLE_CUDA_CHECK(
                cudaMemcpy(fresh, data_, capacity_ * sizeof(T), cudaMemcpyDeviceToDevice));
        if (data_) RUBBLE_CUDA_CHECK(cudaFree(data_));
        data_ = fresh;
        capacity_ = grown;
    }
    [[nodiscard]] T* get() const { return data_; }
    [[nodiscard]] std::size_t capacity() const { return capacity_; }

private:
    T* data_ = nullptr;
    std::size_t capacity_ = 0;
};

/// Records events in order and reads the seconds between consecutive ones.
class EventTimer {
public:
    explicit EventTimer(int count) : count_(count) {
        for (int i = 0; i < count_; ++i)
            RUBBLE_CUDA_CHECK(cudaEventCreate(&events_[i]));
    }
    EventTimer(const EventTimer&) = delete;
    EventTimer& operator=(const EventTimer&) = delete;
    ~EventTimer() {
        for (int i = 0; i < count_; ++i)
            cudaEventDestroy(events_[i]);
    }
    void record(int i) { RUBBLE_CUDA_CHECK(cudaEventRecord(events_[i])); }
    /// Seconds between events i and i + 1 (after synchronising on the later one).
    double seconds(int i) {
        RUBBLE_CUDA_CHECK(cudaEventSynchronize(events_[i + 1]));
        float ms = 0.0f;
        RUBBLE_CUDA_CHECK(cudaEventElapsedTime(&ms, events_[i], events_[i + 1]));
        return 1e-3 * static_cast<double>(ms);
    }

private:
    static constexpr int max_events = 8;
    int count_;
    cudaEvent_t events_[max_events] = {};
};

} // namespace rubble::gpu
