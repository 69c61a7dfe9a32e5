// SPDX-License-Identifier: MIT
#include "rubble/core/debug_checks.hpp"

namespace rubble {

void invariant_failed(const char* file, int line, const std::string& message) {
    throw InvariantError("invariant failed (" + std::string(file) + ":" + std::to_string(line) +
                         "): " + message);
}

} // namespace rubble
