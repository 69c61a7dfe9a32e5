// SPDX-License-Identifier: MIT
#include <stdexcept>

#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/gravity/gravity_solver.hpp"

namespace rubble::gravity {

std::unique_ptr<GravitySolver> make_gravity_solver(const GravityConfig& config) {
    switch (config.backend) {
    case Backend::direct:
        return std::make_unique<DirectGravity>(config.G, config.softening);
    }
    throw std::logic_error("make_gravity_solver: unhandled backend");
}

} // namespace rubble::gravity
