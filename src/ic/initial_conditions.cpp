// SPDX-License-Identifier: MIT
#include "rubble/ic/initial_conditions.hpp"

#include "rubble/ic/scenario.hpp"
#include "rubble/ic/validate.hpp"
#include "rubble/io/run_file.hpp"

namespace rubble::ic {

InitialState make_initial_state(const io::RunConfig& c) {
    InitialState s;
    Rng rng(c.seed);
    std::string origin = "ic." + std::string(enum_name(io::ic_type_names, c.ic_type));
    switch (c.ic_type) {
    case io::IcType::cloud:
        s.bodies = make_cloud(c.cloud, rng);
        apply_motion(s.bodies, c.motion, rng);
        break;
    case io::IcType::scenario:
        // The same draws for every grain model, so the same seed gives the same grains, places
        // and (apply_motion after them) velocities and spins (ic/scenario.hpp).
        s.bodies = represent(make_scenario(c.cloud, rng), c.scenario_model);
        apply_motion(s.bodies, c.motion, rng);
        break;
    case io::IcType::lattice:
        s.bodies = make_lattice(c.lattice);
        apply_motion(s.bodies, c.motion, rng);
        break;
    case io::IcType::two_body:
        s.bodies = make_two_body(c.two_body, c.G);
        break;
    case io::IcType::file: {
        io::Snapshot snap = io::read_snapshot(c.ic_file, c.ic_snapshot);
        s.bodies = std::move(snap.bodies);
        s.time = snap.time;
        origin = (c.ic_file_source.empty() ? "" : c.ic_file_source + ": ") + "ic.file.path = \"" +
                 c.ic_file + "\", snapshot " + std::to_string(snap.index);
        break;
    }
    }
    // Validated before the shift: one NaN would otherwise spread to every body through the
    // centre of mass and be blamed on the first of them.
    validate_bodies(s.bodies, origin, c.collisions.overlap_tolerance);
    if (c.centre_of_mass_frame) move_to_centre_of_mass_frame(s.bodies);
    return s;
}

} // namespace rubble::ic
