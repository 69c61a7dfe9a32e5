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
    // The shared keys and the polyhedral ones, under the same names: nothing is renamed.
    polyhedra::NscConfig c{collisions, collisions.polyhedra};
    return std::make_unique<polyhedra::NscStepper>(std::move(c));
}

} // namespace rubble::run
