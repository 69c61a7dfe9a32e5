// SPDX-License-Identifier: MIT
#include "rubble/collisions/merge.hpp"

#include <cmath>

#include "rubble/core/bodies.hpp"

namespace rubble::collisions {

SphereState merge_spheres(const SphereState& s1, const SphereState& s2) {
    SphereState m;
    m.mass = s1.mass + s2.mass;
    m.pos = (s1.mass * s1.pos + s2.mass * s2.pos) / m.mass;
    m.vel = (s1.mass * s1.vel + s2.mass * s2.vel) / m.mass;
    m.radius = std::cbrt(s1.radius * s1.radius * s1.radius + s2.radius * s2.radius * s2.radius);
    m.inertia = solid_sphere_inertia(m.mass, m.radius);
    const Vec3 l = s1.inertia * s1.spin + s2.inertia * s2.spin +
                   s1.mass * (s1.pos - m.pos).cross(s1.vel - m.vel) +
                   s2.mass * (s2.pos - m.pos).cross(s2.vel - m.vel);
    m.spin = l / m.inertia;
    return m;
}

} // namespace rubble::collisions
