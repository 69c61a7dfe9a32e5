// SPDX-License-Identifier: MIT
// GravitySolver wrappers of the device engines (host compiler: Eigen stays out of nvcc).
#include "rubble/gpu/gpu_gravity.hpp"

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
      mixed_(mixed) {}
GpuTreeGravity::~GpuTreeGravity() = default;

void GpuTreeGravity::compute(std::span<const Vec3> pos, std::span<const double> mass,
                             std::span<Vec3> acc, std::span<double> potential) {
    engine_->compute(arrays(pos, mass, acc, potential));
}

StageTimes GpuTreeGravity::last_times() const {
    return engine_->times();
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
