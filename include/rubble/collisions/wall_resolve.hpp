// SPDX-License-Identifier: MIT
#pragma once
// A sphere's contact with a wall: Richardson's restitution model with spin (collisions/
// resolve.hpp, the same impulse) with the wall as a body of infinite mass, whose surface moves
// at the contact point with the velocity surface_velocity() gives (translating or turning
// walls).
#include "rubble/collisions/resolve.hpp"
#include "rubble/core/types.hpp"

namespace rubble::collisions {

/// What one wall has given the bodies, summed over its contacts (for momentum and angular
/// momentum budgets: a drum's torque on its contents).
struct WallImpulse {
    Vec3 linear = Vec3::Zero();  ///< kg m/s, sum of the impulses J on the bodies
    Vec3 angular = Vec3::Zero(); ///< kg m^2/s about the origin, sum of (contact point) x J
    void add(const Vec3& contact, const Vec3& impulse) {
        linear += impulse;
        angular += contact.cross(impulse);
    }
};

struct WallOutcome {
    Vec3 vel;     ///< m/s, the sphere's new velocity
    Vec3 spin;    ///< rad/s, its new spin
    Vec3 impulse; ///< kg m/s, on the sphere (the wall receives -impulse at the contact point)
};

/// beta = 1 / (1 + m R^2 / I) against a wall (the reduced mass is the sphere's mass): 2/7 for a
/// solid sphere, as tangential_beta gives for a partner of infinite mass and inertia.
[[nodiscard]] double wall_beta(const collisions::SphereState& s);

/// The contact of sphere s with a wall whose surface at the contact point moves with
/// `wall_velocity` (m/s); n is the unit normal from the wall to the sphere's centre, the
/// contact point s.pos - R n. With u the velocity of the sphere's surface point relative to
/// the wall's, split into u_n and u_t, the impulse on the sphere is
/// J = -m [(1 + eps_n) u_n + beta (1 - eps_t) u_t] (restitution_impulse with mu = m), so that
/// u_n' = -eps_n u_n and u_t' = eps_t u_t; the spin changes by (-R n) x J_t / I. In the wall's
/// frame the kinetic energy drops by m/2 [(1 - eps_n^2) |u_n|^2 + beta (1 - eps_t^2) |u_t|^2]
/// (wall_contact_energy_loss). Requires an approaching sphere (u.n < 0) in contact.
[[nodiscard]] WallOutcome resolve_wall_contact(const collisions::SphereState& s, const Vec3& n,
                                               const Vec3& wall_velocity,
                                               const collisions::Restitution& eps);

/// Kinetic energy (J) lost in that contact, in the frame moving with the wall's surface point.
[[nodiscard]] double wall_contact_energy_loss(const collisions::SphereState& s, const Vec3& n,
                                              const Vec3& wall_velocity,
                                              const collisions::Restitution& eps);

} // namespace rubble::collisions
