// SPDX-License-Identifier: MIT
#pragma once
// Where each body's spheres are in Bodies::spheres: the start of every body's run of rows, for
// the engines that walk a body's spheres (the event-driven drift's aggregates, the NSC
// stepper's sphere contacts).
#include <cstddef>
#include <vector>

#include "rubble/core/bodies.hpp"

namespace rubble {

/// Body k's spheres are rows first[k] .. first[k + 1] - 1 of b.spheres (n + 1 entries). Spheres
/// are grouped by body, in body order (Bodies::check_consistent). O(N + spheres).
[[nodiscard]] inline std::vector<std::size_t> sphere_starts(const Bodies& b) {
    std::vector<std::size_t> first(b.size() + 1, 0);
    for (std::size_t s = 0; s < b.spheres.size(); ++s)
        ++first[static_cast<std::size_t>(b.spheres.body[s]) + 1];
    for (std::size_t k = 0; k < b.size(); ++k)
        first[k + 1] += first[k];
    return first;
}

} // namespace rubble
