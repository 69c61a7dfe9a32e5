// SPDX-License-Identifier: MIT
#include <iostream>

#include "rubble/cli/cli.hpp"

int main(int argc, char** argv) {
    return rubble::cli::run_cli(argc, argv, std::cout, std::cerr);
}
