// SPDX-License-Identifier: MIT
#include "rubble/collisions/wall_resolve.hpp"

namespace rubble::collisions {
namespace {

// The relative velocity of the sphere's contact point (arm -R n) and the wall's surface.
collisions::SplitVelocity contact_velocity(const collisions::SphereState& s, const Vec3& n,
                                           const Vec3& wall_velocity) {
    const Vec3 u = s.vel + s.spin.cross(-s.radius * n) - wall_velocity;
    return collisions::split_velocity(u, n);
}

} // namespace

double wall_beta(const collisions::SphereState& s) {
    return 1.0 / (1.0 + s.mass * s.radius * s.radius / s.inertia);
}

WallOutcome resolve_wall_contact(const collisions::SphereState& s, const Vec3& n,
                                 const Vec3& wall_velocity, const collisions::Restitution& eps) {
    const collisions::ContactImpulse j = collisions::restitution_impulse(
        contact_velocity(s, n, wall_velocity), s.mass, wall_beta(s), eps);
    WallOutcome o;
    o.impulse = j.total;
    o.vel = s.vel + j.total / s.mass;
    // Only the tangential part turns the sphere (the normal part acts along the arm), so a
    // smooth wall (eps_t = 1) leaves the spin exactly alone, as for pairs.
    o.spin = s.spin + (-s.radius * n).cross(j.tangential) / s.inertia;
    return o;
}

double wall_contact_energy_loss(const collisions::SphereState& s, const Vec3& n,
                                const Vec3& wall_velocity, const collisions::Restitution& eps) {
    const collisions::SplitVelocity u = contact_velocity(s, n, wall_velocity);
    return 0.5 * s.mass *
           ((1.0 - eps.normal * eps.normal) * u.normal.squaredNorm() +
            wall_beta(s) * (1.0 - eps.tangential * eps.tangential) * u.tangential.squaredNorm());
}

} // namespace rubble::collisions
