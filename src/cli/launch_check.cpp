// SPDX-License-Identifier: MIT
#include "launch_check.hpp"

#include <cstdlib>
#include <string>

namespace rubble::cli {

int ranks_started_by_launcher() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
        const char* value = std::getenv(name);
        if (value == nullptr) continue;
        try {
            const int n = std::stoi(value);
            if (n > 1) return n;
        } catch (const std::exception&) {
            // not a number: not a launcher's
        }
    }
    return 1;
}

} // namespace rubble::cli
