// SPDX-License-Identifier: MIT
#include "rubble/integrate/make_stepper.hpp"

#include "rubble/collisions/event_drift.hpp"

namespace rubble::integrate {

std::unique_ptr<Stepper> make_stepper(bool collisions_enabled,
                                      const collisions::CollisionConfig& collisions) {
    if (collisions_enabled) return std::make_unique<collisions::EventDrivenDrift>(collisions);
    return std::make_unique<PlainDrift>();
}

} // namespace rubble::integrate
