// SPDX-License-Identifier: MIT
#include "rubble/run/make_stepper.hpp"

#include <string>

#include "rubble/collisions/event_drift.hpp"
#include "rubble/core/error.hpp"
#include "rubble/polyhedra/nsc_stepper.hpp"

namespace rubble::run {

std::unique_ptr<integrate::Stepper> make_stepper(bool collisions_enabled,
                                                 const collisions::CollisionConfig& collisions,
                                                 const Bodies& bodies) {
    if (!collisions_enabled) return std::make_unique<integrate::PlainDrift>();
    if (bodies.hulls.size() == 0) {
        if (!collisions.polyhedra.fixed_hulls.empty())
            throw InputError("collisions: " + collisions.polyhedra.fixed_hulls.front().name +
                             ": a hull wall is a contact partner of polyhedral grains only, and "
                             "these bodies are spheres (ic.cloud.grain_model = \"polyhedron\" "
                             "makes polyhedra)");
        return std::make_unique<collisions::EventDrivenDrift>(collisions);
    }
    if (bodies.hulls.size() != bodies.size())
        throw InputError("collisions: " + std::to_string(bodies.hulls.size()) + " of " +
                         std::to_string(bodies.size()) +
                         " bodies are polyhedra: polyhedra collide only with polyhedra and walls");
    polyhedra::NscConfig c;
    c.mu = collisions.mu;
    c.restitution = collisions.eps_n;
    c.bounce_speed = collisions.v_min;
    c.margin = collisions.polyhedra.margin;
    c.envelope = collisions.polyhedra.envelope;
    c.recovery_speed = collisions.polyhedra.recovery_speed;
    c.overlap_tolerance = collisions.overlap_tolerance;
    c.solver = collisions.polyhedra.solver;
    c.walls = collisions.walls;
    c.fixed_hulls = collisions.polyhedra.fixed_hulls;
    return std::make_unique<polyhedra::NscStepper>(std::move(c));
}

} // namespace rubble::run
