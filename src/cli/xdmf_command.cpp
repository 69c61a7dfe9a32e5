// SPDX-License-Identifier: MIT
#include "xdmf_command.hpp"

#include <unistd.h>

#include <filesystem>

#include "rubble/config/parameters.hpp"
#include "rubble/config/run_config.hpp"
#include "rubble/core/error.hpp"
#include "rubble/runfile/run_file.hpp"
#include "rubble/runfile/xdmf_sidecar.hpp"
#include "rubble/storage/file_lock.hpp"

namespace rubble::cli {

int xdmf_command(const std::vector<std::string>& paths, std::ostream& out) {
    for (const auto& path : paths) {
        runfile::check_rubble_file(path);
        // Reading a file a run is writing could see a session half done, and this sidecar
        // could then replace the run's newer one: wait for the run to end. A file that is not
        // writable cannot be locked, and no run can be writing it either.
        const auto lock = storage::FileLock::try_acquire(path);
        if (!lock.held() && ::access(path.c_str(), W_OK) == 0)
            throw InputError("'" + path +
                             "' is being written by a running rubble, which writes its sidecar "
                             "after each snapshot");
        const std::int64_t count = runfile::write_xdmf_sidecar(path);
        out << "rubble xdmf: wrote '" << runfile::xdmf_sidecar_path(path) << "' (" << count
            << (count == 1 ? " snapshot)\n" : " snapshots)\n");
        if (count == 0) continue;
        // The shapes sidecar, as the run keeps it: walls from the run's own parameters (none
        // when they do not make a run any more: an older rubble's, a file written by hand).
        runfile::Scene scene;
        std::string no_walls;
        try {
            const config::RunConfig c = config::make_run_config(config::parse_parameters(
                runfile::read_parameters_toml(path), path + ":/parameters"));
            scene = {c.collisions.walls, c.polyhedra.fixed_hulls};
        } catch (const std::exception& e) { // no parameters, or parameters of another rubble
            no_walls = e.what();
        }
        if (scene.empty() && runfile::read_snapshot(path, -1).bodies.all_free_spheres()) continue;
        const std::int64_t shown = runfile::ShapesSidecar(path, scene).refresh();
        for (const auto kind :
             {runfile::ShapeKind::spheres, runfile::ShapeKind::hulls, runfile::ShapeKind::walls}) {
            const std::string sidecar = runfile::shapes_sidecar_path(path, kind);
            if (std::filesystem::exists(sidecar))
                out << "rubble xdmf: wrote '" << sidecar << "' (" << shown
                    << (shown == 1 ? " snapshot, true shapes)\n" : " snapshots, true shapes)\n");
        }
        if (!no_walls.empty())
            out << "rubble xdmf: no walls drawn for '" << path
                << "': its parameters do not make a run (" << no_walls << ")\n";
    }
    return 0;
}

} // namespace rubble::cli
