// SPDX-License-Identifier: MIT
// main() of the MPI build of rubble (RUBBLE_MPI, docs/mpi.md): the command line of the serial
// executable over the communicator of every rank.
#include <exception>
#include <iostream>

#include "rubble/cli/cli.hpp"
#include "rubble/mpi/mpi_session.hpp"

int main(int argc, char** argv) {
    try {
        rubble::mpi::MpiSession session(argc, argv);
        return rubble::cli::run_cli(argc, argv, std::cout, std::cerr, session.world());
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
}
