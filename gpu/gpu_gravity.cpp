// SPDX-License-Identifier: MIT
// GravitySolver wrappers of the device engines (host compiler: Eigen stays out of nvcc).
#include "rubble/gpu/gpu_gravity.hpp"

#include <chrono>
#include <cstddef>
#include <string>

#include "device_engines.hpp"
#include "rubble/core/error.hpp"
#include "rubble/gpu/device_info.hpp"
#include "rubble/gpu/gpu_solvers.hpp"

namespace rubble::gpu {
namespace {

static_assert(sizeof(Vec3) == 3 * sizeof(double), "Vec3 must be three packed doubles");

HostArrays arrays(std::span<const Vec3> pos, std::span<const double> mass, std::span<Vec3> acc,
                  std::span<double> potential) {
    return {pos.empty() ? nullptr : pos.front().data(), mass.data(), pos.size(),
            acc.empty() ? nullptr : acc.front().data(), potential.data()};
}

void require_gpu(const char* backend) {
    const DeviceReport report = query_devices();
    if (report.count > 0) return;
    throw InputError(std::string("gravity.backend = \"") + backend +
                     "\" needs a CUDA GPU, and there is none: " + report.description +
                     " (use \"tree\" or \"direct\" on this machine)");
}

} // namespace

GpuDirectGravity::GpuDirectGravity(double G, double softening)
    : engine_(std::make_unique<DirectEngine>(G, softening)) {}
GpuDirectGravity::~GpuDirectGravity() = default;

void GpuDirectGravity::compute(std::span<const Vec3> pos, std::span<const double> mass,
                               std::span<Vec3> acc, std::span<double> potential) {
    engine_->compute(arrays(pos, mass, acc, potential));
}

StageTimes GpuDirectGravity::last_times() const {
    return engine_->times();
}

GpuTreeGravity::GpuTreeGravity(double G, double softening, double theta, int order, int bucket_size,
                               bool mixed)
    : engine_(std::make_unique<TreeEngine>(G, softening, theta, order, bucket_size, mixed)),
      in_(std::make_unique<PinnedBuffer>()), out_(std::make_unique<PinnedBuffer>()), mixed_(mixed) {
}
GpuTreeGravity::~GpuTreeGravity() = default;

// The caller's arrays are pageable (std::vector); the driver would copy them through a small
// page-locked buffer on one thread. Copying them on all cores into page-locked staging and
// transferring from there is faster (docs/gpu.md).
void GpuTreeGravity::compute(std::span<const Vec3> pos, std::span<const double> mass,
                             std::span<Vec3> acc, std::span<double> potential) {
    const std::size_t n = pos.size();
    if (n == 0) return;
    const auto t0 = std::chrono::steady_clock::now();
    in_->reserve(4 * n * sizeof(double));
    out_->reserve(4 * n * sizeof(double));
    double* pin_pos = in_->doubles();
    double* pin_mass = pin_pos + 3 * n;
    double* pin_acc = out_->doubles();
    double* pin_pot = pin_acc + 3 * n;
    const double* src_pos = pos.front().data();
    const auto count = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < count; ++i) {
        const auto k = static_cast<std::size_t>(i);
        pin_pos[3 * k] = src_pos[3 * k];
        pin_pos[3 * k + 1] = src_pos[3 * k + 1];
        pin_pos[3 * k + 2] = src_pos[3 * k + 2];
        pin_mass[k] = mass[k];
    }
    const auto t1 = std::chrono::steady_clock::now();
    engine_->compute({pin_pos, pin_mass, n, pin_acc, pin_pot});
    const auto t2 = std::chrono::steady_clock::now();
    double* dst_acc = acc.front().data();
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < count; ++i) {
        const auto k = static_cast<std::size_t>(i);
        dst_acc[3 * k] = pin_acc[3 * k];
        dst_acc[3 * k + 1] = pin_acc[3 * k + 1];
        dst_acc[3 * k + 2] = pin_acc[3 * k + 2];
        potential[k] = pin_pot[k];
    }
    const auto t3 = std::chrono::steady_clock::now();
    host_copy_ = std::chrono::duration<double>((t1 - t0) + (t3 - t2)).count();
}

StageTimes GpuTreeGravity::last_times() const {
    StageTimes t = engine_->times();
    t.host_copy = host_copy_;
    return t;
}
TreeCounts GpuTreeGravity::last_counts() const {
    return engine_->counts();
}

bool gpu_available() {
    return query_devices().count > 0;
}

std::unique_ptr<gravity::GravitySolver> make_gpu_direct(const gravity::GravityConfig& c) {
    require_gpu("gpu-direct");
    return std::make_unique<GpuDirectGravity>(c.G, c.softening);
}

std::unique_ptr<gravity::GravitySolver> make_gpu_tree(const gravity::GravityConfig& c) {
    require_gpu("gpu-tree");
    return std::make_unique<GpuTreeGravity>(c.G, c.softening, c.theta, c.multipole_order,
                                            c.bucket_size, c.gpu_mixed_precision);
}

} // namespace rubble::gpu
