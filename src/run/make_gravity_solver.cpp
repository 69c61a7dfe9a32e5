// SPDX-License-Identifier: MIT
#include "rubble/run/make_gravity_solver.hpp"

#include <stdexcept>

#include "rubble/gpu/gpu_gravity.hpp"
#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/gravity/gravity_solver.hpp"
#include "rubble/gravity/no_gravity.hpp"
#include "rubble/gravity/tree_gravity.hpp"

namespace rubble::run {

gravity::Backend resolve_backend(const gravity::GravityConfig& config, std::size_t n_bodies,
                                 bool may_use_gpu) {
    using namespace gravity;
    if (config.backend != Backend::automatic) return config.backend;
    if (may_use_gpu && n_bodies >= auto_gpu_threshold && gpu::gpu_available())
        return Backend::gpu_tree;
    return n_bodies >= auto_tree_threshold ? Backend::tree : Backend::direct;
}

std::unique_ptr<gravity::GravitySolver> make_gravity_solver(const gravity::GravityConfig& config,
                                                            std::size_t n_bodies) {
    using namespace gravity;
    switch (resolve_backend(config, n_bodies, true)) {
    case Backend::direct:
        return std::make_unique<DirectGravity>(config.G, config.softening);
    case Backend::tree:
        return std::make_unique<TreeGravity>(config.G, config.softening, config.theta,
                                             config.multipole_order, config.bucket_size,
                                             config.group_size);
    case Backend::none:
        return std::make_unique<NoGravity>();
    case Backend::gpu_direct:
        return gpu::make_gpu_direct(config);
    case Backend::gpu_tree:
        return gpu::make_gpu_tree(config);
    case Backend::automatic:
        break;
    }
    throw std::logic_error("make_gravity_solver: unhandled backend");
}

} // namespace rubble::run
