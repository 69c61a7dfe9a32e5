// SPDX-License-Identifier: MIT
#pragma once
// The one place that turns the parameter file's choice into a concrete Stepper, so that the run
// driver (run_driver.hpp) and integrate::Simulation never name one.
#include <memory>

#include "rubble/collisions/collision_config.hpp"
#include "rubble/config/parameters.hpp"
#include "rubble/config/run_config.hpp"
#include "rubble/integrate/stepper.hpp"
#include "rubble/polyhedra/nsc_config.hpp"

namespace rubble::run {

/// The stepper for `bodies`: with collisions enabled (collisions.enabled), the NSC stepper
/// (polyhedra/nsc_stepper.hpp, with collisions.mu, eps_n, v_min, the NSC keys and the walls)
/// when the bodies are polyhedra or collisions.stepper = "nsc", else the event-driven
/// hard-sphere drift (with `collisions`: restitution, guards, walls, periodic box); without,
/// the plain drift. Throws InputError for a mixture of polyhedra and spheres with collisions,
/// which no stepper moves, and for polyhedra with collisions.stepper = "event_driven".
[[nodiscard]] std::unique_ptr<integrate::Stepper>
make_stepper(bool collisions_enabled, const collisions::CollisionConfig& collisions,
             const polyhedra::PolyhedralContactConfig& polyhedral, const Bodies& bodies);

/// Refuses, before any output exists, what the stepper make_stepper would choose for `bodies`
/// cannot do, which it would otherwise refuse only at its first drift: with the NSC stepper,
/// merging, sticking and a periodic box (and polyhedra with collisions.stepper =
/// "event_driven"); with the event-driven drift and bodies made of several spheres (aggregates,
/// or any bodies once collisions.outcome = "stick" joins them), sticking in a periodic box,
/// finite cylinder walls (length > 0) and collisions.outcome = "merge". Throws InputError
/// naming the keys, their values and where they were set (`p`'s sources; the wall's source in
/// c.wall_sources).
void check_stepper_supports(const config::ParameterSet& p, const config::RunConfig& c,
                            const Bodies& bodies);

} // namespace rubble::run
