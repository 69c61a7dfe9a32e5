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

RigidOutcome resolve_rigid_by_law(const CollisionConfig& c, const RigidState& b1,
                                  const RigidState& b2, const Vec3& p, const Vec3& n,
                                  const Restitution& eps, bool recent) {
    if (c.mu > 0.0 && !recent)
        return resolve_rigid_contact(b1, b2, p, n, Friction{eps.normal, c.mu});
    return resolve_rigid_contact(b1, b2, p, n, eps);
}

} // namespace rubble::collisions
