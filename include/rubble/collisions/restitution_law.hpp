// SPDX-License-Identifier: MIT
#pragma once
// Which coefficients of restitution a given impact gets.
#include "rubble/collisions/collision_config.hpp"
#include "rubble/collisions/resolve.hpp"
#include "rubble/collisions/rigid_impulse.hpp"

namespace rubble::collisions {

/// The coefficients for an impact with normal speed `normal_speed` (m/s, >= 0):
/// - the law: constant eps_n, or the power law of Bridges, Hatzes & Lin 1984 (Nature 309, 333)
///   eps_n(u) = (u / v_ref)^-exponent, capped at the configured eps_n and at 1;
/// - the inelastic-collapse guards of Richardson's PiTP lectures ("Inelastic collapse"):
///   eps_n = 1 when u < v_min, and a fully elastic impact (eps_n = eps_t = 1) when either body
///   has moved less than f_crit times its radius since its last collision (`recent`).
[[nodiscard]] Restitution restitution_for(const CollisionConfig& c, double normal_speed,
                                          bool recent);

/// The off-centre impulse (rigid_impulse.hpp) of the run's contact law for a contact with a
/// rigid aggregate: Coulomb friction c.mu with Newton's eps.normal when c.mu > 0, unless the
/// f_crit guard made the impact fully elastic (`recent`: frictionless, as for spheres); else
/// the eps_n, eps_t model with `eps` (from restitution_for).
[[nodiscard]] RigidOutcome resolve_rigid_by_law(const CollisionConfig& c, const RigidState& b1,
                                                const RigidState& b2, const Vec3& p, const Vec3& n,
                                                const Restitution& eps, bool recent);

} // namespace rubble::collisions
