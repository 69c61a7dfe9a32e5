// SPDX-License-Identifier: MIT
#pragma once
// The one place that turns the parameter file's choice into a concrete Stepper, so that the run
// driver (run_driver.hpp) and integrate::Simulation never name one.
#include <memory>

#include "rubble/collisions/collision_config.hpp"
#include "rubble/integrate/stepper.hpp"

namespace rubble::run {

/// The stepper for `bodies`: with collisions enabled (collisions.enabled), the NSC stepper of
/// polyhedra (polyhedra/nsc_stepper.hpp, with collisions.mu, eps_n, v_min, the polyhedral keys
/// and the walls) when the bodies are polyhedra, else the event-driven hard-sphere drift (with
/// `collisions`: restitution, guards, walls, periodic box); without, the plain drift. Throws
/// InputError for a mixture of polyhedra and spheres with collisions, which no stepper moves.
[[nodiscard]] std::unique_ptr<integrate::Stepper>
make_stepper(bool collisions_enabled, const collisions::CollisionConfig& collisions,
             const Bodies& bodies);

} // namespace rubble::run
