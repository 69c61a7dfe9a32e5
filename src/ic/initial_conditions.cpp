// SPDX-License-Identifier: MIT
#include "rubble/ic/initial_conditions.hpp"

#include "rubble/core/error.hpp"
#include "rubble/ic/body_table.hpp"
#include "rubble/ic/scenario.hpp"
#include "rubble/ic/validate.hpp"
#include "rubble/runfile/run_file.hpp"

namespace rubble::ic {

InitialState make_initial_state(const IcConfig& ic, std::uint64_t seed, double G,
                                double overlap_tolerance) {
    InitialState s;
    Rng rng(seed);
    std::string origin = "ic." + std::string(enum_name(ic_type_names, ic.type));
    switch (ic.type) {
    case IcType::cloud:
        s.bodies = make_cloud(ic.cloud, rng);
        apply_motion(s.bodies, ic.motion, rng);
        break;
    case IcType::scenario:
        // The same draws for every grain model, so the same seed gives the same grains, places
        // and (apply_motion after them) velocities and spins (ic/scenario.hpp).
        s.bodies = represent(make_scenario(ic.cloud, rng), ic.scenario_model);
        apply_motion(s.bodies, ic.motion, rng);
        break;
    case IcType::lattice:
        s.bodies = make_lattice(ic.lattice);
        apply_motion(s.bodies, ic.motion, rng);
        break;
    case IcType::two_body:
        s.bodies = make_two_body(ic.two_body, G);
        break;
    case IcType::table: {
        // Whatever is wrong with the table is said with the key that named it.
        origin = (ic.table.source.empty() ? "" : ic.table.source + ": ") + "ic.table.path = \"" +
                 ic.table.path + "\"";
        try {
            s.bodies = read_body_table(ic.table.path);
        } catch (const InputError& e) {
            throw InputError(origin + ": " + e.what());
        }
        break;
    }
    case IcType::file: {
        // Whatever is wrong with the file is said with the key that named it.
        const std::string key = (ic.file.source.empty() ? "" : ic.file.source + ": ") +
                                "ic.file.path = \"" + ic.file.path + "\"";
        runfile::Snapshot snap;
        try {
            snap = runfile::read_snapshot(ic.file.path, ic.file.snapshot);
        } catch (const InputError& e) {
            throw InputError(key + ": " + e.what());
        } catch (const IoError& e) {
            throw IoError(key + ": " + e.what());
        }
        origin = key + ", snapshot " + std::to_string(snap.index);
        if (snap.bodies.size() == 0)
            throw InputError(origin + " holds no bodies: an initial state needs at least one");
        s.bodies = std::move(snap.bodies);
        s.time = snap.time;
        break;
    }
    }
    // Validated before the shift: one NaN would otherwise spread to every body through the
    // centre of mass and be blamed on the first of them.
    validate_bodies(s.bodies, origin, overlap_tolerance);
    if (ic.centre_of_mass_frame) move_to_centre_of_mass_frame(s.bodies);
    return s;
}

} // namespace rubble::ic
