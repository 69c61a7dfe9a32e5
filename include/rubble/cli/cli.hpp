// SPDX-License-Identifier: MIT
#pragma once
#include <ostream>

#include "rubble/core/communicator.hpp"

namespace rubble::cli {

/// The whole command line: `rubble run ...`, `rubble campaign ...`, `rubble params ...`,
/// `rubble --version`. Returns the process exit code: 0 success, 1 I/O or internal error, 2
/// bad input (one line on `err` naming file, key and value), 3 a state no longer finite, 130
/// interrupted by a signal (output resumable).
///
/// `world` is every rank of the job: the serial communicator for the serial executable, or
/// MPI's (src/mpi/main.cpp). Every rank calls run_cli with the same arguments and gets the
/// same exit code; an error that every rank meets alike is printed by rank 0 only.
int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
            core::Communicator& world = core::serial_communicator());

} // namespace rubble::cli
