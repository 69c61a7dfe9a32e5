// SPDX-License-Identifier: MIT
#pragma once
// The GPU GravitySolver classes, for tests and benchmarks that want their timings and counts;
// the rest of rubble creates them through make_gravity_solver.
#include <memory>

#include "rubble/gpu/gpu_stats.hpp"
#include "rubble/gravity/gravity_solver.hpp"

namespace rubble::gpu {

class DirectEngine;
class TreeEngine;
class PinnedBuffer;

/// Tiled O(N^2) summation on the GPU, one thread per body (gravity.backend = "gpu-direct").
class GpuDirectGravity final : public gravity::GravitySolver {
public:
    GpuDirectGravity(double G, double softening);
    ~GpuDirectGravity() override;
    void compute(std::span<const Vec3> pos, std::span<const double> mass, std::span<Vec3> acc,
                 std::span<double> potential) override;
    [[nodiscard]] std::string name() const override {
        return std::string(enum_name(gravity::backend_names, gravity::Backend::gpu_direct));
    }
    /// Stage times of the last evaluation (CUDA events); the kernel time is `walk`.
    [[nodiscard]] StageTimes last_times() const;

private:
    std::unique_ptr<DirectEngine> engine_;
};

/// The CPU tree's octree, multipoles and opening test, built and walked on the GPU
/// (gravity.backend = "gpu-tree").
class GpuTreeGravity final : public gravity::GravitySolver {
public:
    /// mixed: float far field, double near field and accumulation (docs/gpu.md).
    GpuTreeGravity(double G, double softening, double theta, int order, int bucket_size,
                   bool mixed = false);
    ~GpuTreeGravity() override;
    void compute(std::span<const Vec3> pos, std::span<const double> mass, std::span<Vec3> acc,
                 std::span<double> potential) override;
    [[nodiscard]] std::string name() const override {
        const std::string n(enum_name(gravity::backend_names, gravity::Backend::gpu_tree));
        return mixed_ ? n + " (mixed precision)" : n;
    }
    [[nodiscard]] StageTimes last_times() const;
    [[nodiscard]] TreeCounts last_counts() const;

private:
    std::unique_ptr<TreeEngine> engine_;
    std::unique_ptr<PinnedBuffer> in_, out_; // page-locked staging of the transfers
    double host_copy_ = 0;
    bool mixed_;
};

} // namespace rubble::gpu
