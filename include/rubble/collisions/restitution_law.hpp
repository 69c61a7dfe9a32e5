// SPDX-License-Identifier: MIT
#pragma once
// Which coefficients of restitution a given impact gets.
#include "rubble/collisions/collision_config.hpp"
#include "rubble/collisions/resolve.hpp"

namespace rubble::collisions {

/// The coefficients for an impact with normal speed `normal_speed` (m/s, >= 0):
/// - the law: constant eps_n, or the power law of Bridges, Hatzes & Lin 1984 (Nature 309, 333)
///   eps_n(u) = (u / v_ref)^-exponent, capped at the configured eps_n and at 1;
/// - the inelastic-collapse guards of Richardson's PiTP lectures ("Inelastic collapse"):
///   eps_n = 1 when u < v_min, and a fully elastic impact (eps_n = eps_t = 1) when either body
///   has moved less than f_crit times its radius since its last collision (`recent`).
[[nodiscard]] Restitution restitution_for(const CollisionConfig& c, double normal_speed,
                                          bool recent);

} // namespace rubble::collisions
