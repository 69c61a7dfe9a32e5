// SPDX-License-Identifier: MIT
#pragma once
// mpirun started as a test's child (tests/mpi): as many ranks as asked on any machine and as
// root too (CI), through Open MPI's environment (other MPIs ignore it), and one OpenMP thread
// per rank so that four ranks do not oversubscribe two cores eightfold. RUBBLE_MPIEXEC and
// RUBBLE_MPIEXEC_NUMPROC_FLAG come from CMake's FindMPI.
#include <chrono>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "child_process.hpp"
#include "rubble/runfile/run_file.hpp"

namespace rubble::test {

struct Launched {
    ChildExit exit;
    std::string output;
};

inline std::string text_of(const std::string& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

/// Starts `mpirun -np ranks program args...`, its output (both streams) into `output`.
inline pid_t start_mpirun(int ranks, const std::string& program,
                          const std::vector<std::string>& args, const std::string& output) {
    ChildOptions o;
    o.output_path = output;
    o.environment = {{"OMPI_MCA_rmaps_base_oversubscribe", "1"},
                     {"OMPI_ALLOW_RUN_AS_ROOT", "1"},
                     {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"},
                     {"OMP_NUM_THREADS", "1"}};
    std::vector<std::string> a{RUBBLE_MPIEXEC_NUMPROC_FLAG, std::to_string(ranks), program};
    a.insert(a.end(), args.begin(), args.end());
    return spawn_program(RUBBLE_MPIEXEC, a, o);
}

/// Polls (every 5 ms) until the run file `path` holds `snapshots` snapshots while `child`
/// runs: true if it got there with the child still running.
inline bool snapshots_while_running(pid_t child, const std::string& path, std::int64_t snapshots) {
    bool there = false;
    while (!there && still_running(child)) {
        try {
            there = std::filesystem::exists(path) && runfile::snapshot_count(path) >= snapshots;
        } catch (const std::exception&) {
            // being written
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return there && still_running(child);
}

/// start_mpirun, then waits (ten minutes at most) and reads the output.
inline Launched mpirun(int ranks, const std::string& program, const std::vector<std::string>& args,
                       const std::string& output) {
    const pid_t child = start_mpirun(ranks, program, args, output);
    Launched r;
    r.exit = wait_for_child(child, std::chrono::minutes(10));
    r.output = text_of(output);
    return r;
}

} // namespace rubble::test
