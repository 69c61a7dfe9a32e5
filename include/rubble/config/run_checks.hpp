// SPDX-License-Identifier: MIT
#pragma once
// Checks made before a new run does any work, so that bad input is refused in a second with
// one line naming the parameter file, the key and its value, instead of a hang, a crash, an
// output full of NaN or an overwritten input file.
#include <string>

#include "rubble/config/parameters.hpp"
#include "rubble/config/run_config.hpp"

namespace rubble::config {

/// Largest volume fraction a random cloud may ask for. Random sequential addition of equal
/// spheres jams at 0.384 (Torquato et al. 2006); the attempts needed per sphere diverge
/// before that, so 0.3 keeps placement fast with a margin for the walls and size spreads.
inline constexpr double max_cloud_volume_fraction = 0.3;

/// Memory a run needs per body (B), for refusing body counts that cannot fit: 410 B were
/// measured for 1e5 bodies without gravity (body arrays, placement grid, output buffers); the
/// tree, its interaction lists and the collision neighbour lists add about as much again.
inline constexpr double bytes_per_body = 1024.0;

/// Everything below, for a run started from a parameter file at `params_path`.
void check_new_run(const ParameterSet& p, const RunConfig& c, const std::string& params_path);

/// The initial conditions can be built: the body count fits in memory and does not overflow,
/// a cloud's spheres fit in its region at a volume fraction placement can reach, and the
/// derived scales (total mass, escape speed, binding and kinetic energy, free-fall rate,
/// softened distance) are finite and non-zero in double precision: from the parameters for
/// generated bodies, from the bodies of ic.file.path (read for this) otherwise.
void check_initial_conditions(const ParameterSet& p, const RunConfig& c);

/// output.file is usable and replaces no input: not the parameter file or ic.file.path, not
/// an existing file unless output.overwrite, and then only an earlier HDF5 output; names no
/// longer than the system allows. ic.file.path (ic.type = "file") is an existing HDF5 file.
void check_run_files(const ParameterSet& p, const RunConfig& c, const std::string& params_path);

/// Memory the system can give a new process (B): MemAvailable, else physical memory; 0 if
/// unknown (the memory check is then skipped).
[[nodiscard]] double available_memory();

} // namespace rubble::config
