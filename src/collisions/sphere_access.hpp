// SPDX-License-Identifier: MIT
#pragma once
// Reading a body as a sphere for the contact formulas, and writing the result back.
#include "rubble/collisions/resolve.hpp"
#include "rubble/core/bodies.hpp"

namespace rubble::collisions {

/// Body i as a sphere, its position shifted by `shift` (a periodic image). Free spheres have
/// three equal principal moments; the first one is the scalar inertia.
inline SphereState sphere_of(const Bodies& b, std::size_t i, const Vec3& shift) {
    return SphereState{b.mass[i],        b.radius[i], b.inertia[i].x(),
                       b.pos[i] + shift, b.vel[i],    b.spin[i]};
}

/// Stores a merged sphere in body i, whose own frame differs from s's by `shift`.
inline void store_merged(Bodies& b, std::size_t i, const SphereState& s, const Vec3& shift) {
    b.set_free_sphere(i, s.mass, s.radius); // s.inertia is 2/5 m R^2 (merge_spheres)
    b.pos[i] = s.pos - shift;
    b.vel[i] = s.vel;
    b.spin[i] = s.spin;
}

} // namespace rubble::collisions
