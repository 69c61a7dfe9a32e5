// SPDX-License-Identifier: MIT
#include "rubble/run/make_stepper.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "rubble/collisions/event_drift.hpp"
#include "rubble/collisions/rigid_wall_predict.hpp"
#include "rubble/core/error.hpp"
#include "rubble/polyhedra/nsc_stepper.hpp"

namespace rubble::run {

std::unique_ptr<integrate::Stepper>
make_stepper(bool collisions_enabled, const collisions::CollisionConfig& collisions,
             const polyhedra::PolyhedralContactConfig& polyhedral, const Bodies& bodies) {
    if (!collisions_enabled) return std::make_unique<integrate::PlainDrift>();
    const bool nsc = collisions.stepper == collisions::ContactStepper::nsc;
    if (bodies.hulls.size() == 0) {
        if (!polyhedral.fixed_hulls.empty())
            throw InputError("collisions: " + polyhedral.fixed_hulls.front().name +
                             ": a hull wall is a contact partner of polyhedral grains only, and "
                             "these bodies are spheres (ic.cloud.grain_model = \"polyhedron\" "
                             "makes polyhedra)");
        if (!nsc) return std::make_unique<collisions::EventDrivenDrift>(collisions);
    } else if (bodies.hulls.size() != bodies.size()) {
        throw InputError("collisions: " + std::to_string(bodies.hulls.size()) + " of " +
                         std::to_string(bodies.size()) +
                         " bodies are polyhedra: polyhedra collide only with polyhedra and walls");
    } else if (collisions.stepper == collisions::ContactStepper::event_driven) {
        throw InputError("collisions.stepper = \"event_driven\": the event-driven drift moves "
                         "spheres and aggregates; polyhedra take \"nsc\" (or \"auto\")");
    }
    // The shared keys and the polyhedral ones, under the same names: nothing is renamed.
    polyhedra::NscConfig c{collisions, polyhedral};
    auto stepper = std::make_unique<polyhedra::NscStepper>(std::move(c));
    stepper->prepare(bodies); // (a shape too small for the margin: refused before any output)
    return stepper;
}

void check_stepper_supports(const config::ParameterSet& p, const config::RunConfig& c,
                            const Bodies& bodies) {
    // The event-driven drift's rigid path (collisions/drift_state.cpp, start_rigid) takes
    // the bodies when any is made of several spheres or when sticking may join them; these are
    // the combinations it refuses there, which only the configuration and the kind of bodies
    // decide. The engine keeps its own refusals for callers that use it directly.
    if (!c.collisions_enabled) return; // the plain drift
    const collisions::CollisionConfig& k = c.collisions;
    const bool turning = c.polyhedra.mu_roll > 0.0 || c.polyhedra.mu_twist > 0.0;
    const std::string turning_key =
        c.polyhedra.mu_roll > 0.0 ? "collisions.mu_roll" : "collisions.mu_twist";
    if (bodies.hulls.size() != 0 || k.stepper == collisions::ContactStepper::nsc) {
        // The NSC stepper (polyhedra/nsc_stepper.hpp) bounces bodies as they are: it neither
        // merges nor sticks them, and knows no periodic box.
        const std::string nsc = bodies.hulls.size() != 0 ? "polyhedra (non-smooth contact)"
                                                         : p.described("collisions.stepper");
        if (k.stepper == collisions::ContactStepper::event_driven)
            throw p.error("collisions.stepper",
                          "the event-driven drift moves spheres and aggregates; polyhedra take "
                          "\"nsc\" (or \"auto\")");
        if (k.outcome != collisions::ContactOutcome::bounce)
            throw p.error("collisions.outcome",
                          "the non-smooth contact stepper bounces bodies and neither merges nor "
                          "sticks them (" +
                              nsc + ")");
        if (k.periodic_box > 0.0)
            throw p.error("collisions.periodic_box",
                          "the non-smooth contact stepper knows no periodic box (" + nsc + ")");
        if (bodies.hulls.size() != 0 && turning)
            throw p.error(turning_key, "rolling and twisting resistance act at the contacts of "
                                       "spheres; polyhedra resist rolling by their shape");
        return;
    }
    if (turning)
        throw p.error(turning_key, "rolling and twisting resistance are the non-smooth contact "
                                   "stepper's (collisions.stepper = \"nsc\"), not the "
                                   "event-driven drift's");
    const bool sticking = k.outcome == collisions::ContactOutcome::stick;
    if (bodies.all_free_spheres() && !sticking) return;
    const std::vector<std::uint8_t> free = bodies.free_sphere_flags();
    const auto aggregates =
        static_cast<std::size_t>(std::count(free.begin(), free.end(), std::uint8_t{0}));
    const std::string why = sticking ? "sticking joins bodies into aggregates (" +
                                           p.described("collisions.outcome") + ")"
                                     : std::to_string(aggregates) + " of the " +
                                           std::to_string(bodies.size()) + " bodies are aggregates";
    if (sticking && k.periodic_box > 0.0)
        throw p.error("collisions.outcome", "sticking does not yet take a periodic box (" +
                                                p.described("collisions.periodic_box") + ")");
    for (std::size_t w = 0; w < k.walls.size(); ++w) {
        const boundaries::Wall& wall = k.walls[w];
        if (collisions::rigid_bodies_meet(wall)) continue;
        const std::string reason =
            "finite cylinders (length > 0) do not yet take bodies made of several spheres "
            "(aggregates; " +
            why + "); use planes, a box or an infinite cylinder (docs/aggregates.md, \"Walls\")";
        // The wall's table in the parameter file: its name is "walls[k] (...)".
        std::size_t table = 0;
        if (std::sscanf(wall.name.c_str(), "walls[%zu]", &table) == 1 && table < p.wall_count())
            throw p.wall_error(table, "length", reason);
        throw InputError(c.wall_sources.at(w) + ": " + wall.name + ": " + reason);
    }
    if (k.outcome == collisions::ContactOutcome::merge)
        throw p.error("collisions.outcome",
                      "merging makes one sphere of two and does not take bodies made of several "
                      "spheres (aggregates; " +
                          why + "); use \"stick\" (one rigid aggregate of both) or \"bounce\"");
}

} // namespace rubble::run
