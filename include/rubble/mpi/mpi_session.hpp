// SPDX-License-Identifier: MIT
#pragma once
// MPI for the lifetime of the process (issue 34, docs/mpi.md): MPI_Init_thread at the start of
// main, MPI_Finalize at its end, and the communicator of all ranks for the command line. The
// only layer that includes <mpi.h>; it is built when CMake finds MPI (RUBBLE_MPI) and linked
// into the MPI executable only, never into the serial `rubble`.
//
// OpenMP threads run inside each rank, and only the thread that called MPI_Init_thread calls
// MPI (MPI_THREAD_FUNNELED), as in pkdgrav and SWIFT's hybrid mode.
#include <memory>

#include "rubble/core/communicator.hpp"

namespace rubble::mpi {

class MpiSession {
public:
    /// Initialises MPI. Throws std::runtime_error if the library cannot give FUNNELED threads.
    MpiSession(int& argc, char**& argv);
    ~MpiSession();
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;
    /// Every rank of the job (a duplicate of MPI_COMM_WORLD, so that rubble's messages never
    /// match a library's).
    [[nodiscard]] core::Communicator& world();

private:
    std::unique_ptr<core::Communicator> world_;
};

} // namespace rubble::mpi
