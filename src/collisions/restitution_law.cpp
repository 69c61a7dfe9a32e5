// SPDX-License-Identifier: MIT
#include "rubble/collisions/restitution_law.hpp"

#include <algorithm>
#include <cmath>

namespace rubble::collisions {

Restitution restitution_for(const CollisionConfig& c, double normal_speed, bool recent) {
    if (recent) return Restitution{1.0, 1.0};
    Restitution r{c.eps_n, c.eps_t};
    if (c.law == RestitutionLaw::power_law && normal_speed > 0.0)
        r.normal = std::min({c.eps_n, 1.0, std::pow(normal_speed / c.v_ref, -c.exponent)});
    if (normal_speed < c.v_min) r.normal = 1.0;
    return r;
}

} // namespace rubble::collisions
