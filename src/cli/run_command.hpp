// SPDX-License-Identifier: MIT
#pragma once
// `rubble run`: the run driver (run/run_driver.hpp) with its report on stdout, its warnings and
// progress line on stderr, and SIGINT / SIGTERM stopping it resumably (interrupt.hpp). Over
// several MPI ranks every rank calls it alike; rank 0 reports.
#include <ostream>
#include <string>

#include "rubble/core/communicator.hpp"
#include "rubble/run/run_driver.hpp"

namespace rubble::cli {

struct RunOptions {
    run::RunRequest request;
    bool quiet = false;
    std::string progress_prefix; ///< written before each progress line ("run 3/24: ")
};

/// Exit codes: 0 done (at its end time, settled, or stopped by --stop-after), 130 interrupted
/// by a signal (resumable).
/// Throws InputError (exit 2), PhysicsError and IoError (exit 1); the caller prints them. Over
/// several ranks every rank returns, or throws, the same (run::run_simulation).
int run_command(const RunOptions& options, std::ostream& out, std::ostream& err,
                core::Communicator& world);

} // namespace rubble::cli
