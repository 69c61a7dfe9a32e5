// SPDX-License-Identifier: MIT
#pragma once
// Everything the parameter file says about the initial conditions (section [ic],
// docs/parameters.md): which generator, its settings, and the file to start from. Owned here,
// by the layer that uses it; config/run_config.hpp holds one as RunConfig::ic.
#include <cstdint>
#include <string>

#include "rubble/core/enum_names.hpp"
#include "rubble/ic/generators.hpp"
#include "rubble/ic/scenario.hpp"

namespace rubble::ic {

enum class IcType { cloud, lattice, two_body, file, scenario, table };

/// ic.type's names.
inline constexpr EnumNames<IcType, 6> ic_type_names{{{"cloud", IcType::cloud},
                                                     {"lattice", IcType::lattice},
                                                     {"two_body", IcType::two_body},
                                                     {"file", IcType::file},
                                                     {"scenario", IcType::scenario},
                                                     {"table", IcType::table}}};

// The initialisers of these structs are the defaults of the ic.* keys that set them (the
// parameter table binds each key to its member, config/parameter_specs.cpp).

/// ic.file.*: a snapshot of another rubble run file to start from.
struct IcFileConfig {
    std::string path;
    std::string source;         ///< where ic.file.path was set ("run.toml:12"), for messages
    std::int64_t snapshot = -1; ///< -1: the last
};

/// ic.table.*: a table of bodies to start from (ic/body_table.hpp).
struct IcTableConfig {
    std::string path;
    std::string source; ///< where ic.table.path was set ("run.toml:12"), for messages
};

struct IcConfig {
    IcType type = IcType::cloud;
    bool centre_of_mass_frame = true;
    CloudConfig cloud; ///< also the grains of ic.type = scenario
    Representation scenario_model = Representation::polyhedron;
    LatticeConfig lattice;
    TwoBodyConfig two_body;
    MotionConfig motion;
    IcFileConfig file;
    IcTableConfig table;
};

} // namespace rubble::ic
