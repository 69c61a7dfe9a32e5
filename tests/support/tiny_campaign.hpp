// SPDX-License-Identifier: MIT
#pragma once
// The tiny campaign of the campaign tests (tests/unit/cli/campaign_test.cpp, and over MPI
// ranks tests/mpi/mpi_campaign_test.cpp): four runs of a few seconds; the polyhedral ones
// settle, the sphere ones may rattle on to t_end in the event-driven drift (with
// collisions.stepper = "nsc" they settle too).
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <thread>

#include "rubble/runfile/run_file.hpp"

namespace rubble::test {

// Eight hulls of 40 to 130 m at 3000 kg/m^3 in a 700 m cube (free-fall time about 1.1e4 s):
// they meet within a few thousand seconds and settle; two sets, two grain models.
inline std::string campaign(const std::string& dir, const std::string& extra = "",
                            const std::string& models = "\"sphere\", \"polyhedron\"") {
    return "[campaign]\nname = \"tiny\"\ndirectory = \"" + dir + "\"\nmodels = [" + models +
           "]\nseeds = [3]\nsets = [\"0\", \"1.1\"]\nlevels = [1.0]\nv0 = 0.01\n" + extra +
           "[integrator]\ndt = 5.0\nt_end = 80000.0\n[gravity]\nbackend = \"direct\"\n"
           "[collisions]\nenabled = true\neps_n = 0.5\nmu = 0.6\nv_min = 2.0e-3\n"
           "f_crit = 0.01\n[output]\nsnapshot_interval = 500.0\n[stop]\n"
           "settled_window = 12000.0\n[ic.cloud]\nn = 8\nshape = \"cube\"\nsize = 700.0\n"
           "radius_distribution = \"uniform\"\nradius_min = 40.0\nradius_max = 130.0\n"
           "density = 3000.0\ngrain = \"hull\"\n";
}

inline const char* const run_files[] = {"set0_seed3_sphere.h5", "set0_seed3_polyhedron.h5",
                                        "set1.1@1_seed3_sphere.h5", "set1.1@1_seed3_polyhedron.h5"};

// Polls until `path` holds at least `snapshots` snapshots (false after ten minutes: the
// sanitizer build on a loaded machine takes half a minute for one tiny run).
inline bool wait_for_snapshots(const std::string& path, std::int64_t snapshots) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(10);
    while (std::chrono::steady_clock::now() < deadline) {
        try {
            if (std::filesystem::exists(path) && rubble::runfile::snapshot_count(path) >= snapshots)
                return true;
        } catch (const std::exception&) {
            // being written
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

} // namespace rubble::test
