// SPDX-License-Identifier: MIT
#include "rubble/boundaries/contact_config.hpp"

#include <cmath>

#include "rubble/core/error.hpp"

namespace rubble::boundaries {

void check_contact_config(const ContactConfig& c) {
    if (!(c.eps_n >= 0.0 && c.eps_n <= 1.0))
        throw KeyError("collisions.eps_n", c.eps_n, "must be in [0, 1]");
    if (!(c.mu >= 0.0) || !std::isfinite(c.mu))
        throw KeyError("collisions.mu", c.mu, "must be >= 0 and finite");
    if (!(c.v_min >= 0.0) || !std::isfinite(c.v_min))
        throw KeyError("collisions.v_min", c.v_min, "must be >= 0 and finite (m/s)");
    if (!(c.overlap_tolerance >= 0.0) || !std::isfinite(c.overlap_tolerance))
        throw KeyError("collisions.overlap_tolerance", c.overlap_tolerance,
                       "must be >= 0 and finite");
}

} // namespace rubble::boundaries
