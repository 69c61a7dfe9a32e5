// SPDX-License-Identifier: MIT
#pragma once
// The one place that turns the parameter file's choice into a concrete Stepper, so that the CLI
// and Simulation never name one.
#include <memory>

#include "rubble/collisions/collision_config.hpp"
#include "rubble/integrate/stepper.hpp"

namespace rubble::integrate {

/// The event-driven hard-sphere drift (with `collisions`: restitution, guards, walls, periodic
/// box) when collisions are enabled (collisions.enabled), else the plain drift.
[[nodiscard]] std::unique_ptr<Stepper> make_stepper(bool collisions_enabled,
                                                    const collisions::CollisionConfig& collisions);

} // namespace rubble::integrate
