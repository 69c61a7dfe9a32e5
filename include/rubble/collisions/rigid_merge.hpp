// SPDX-License-Identifier: MIT
#pragma once
// Sticking: two bodies (free spheres or aggregates) that touch become one rigid aggregate, as
// pkdgrav's sticky aggregates (Richardson, PiTP lectures, "rigid aggregates"). Unlike
// merge_spheres (merge.hpp), no sphere moves or changes: the new body is the union of both
// bodies' spheres, and only the velocities change.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "rubble/core/bodies.hpp"
#include "rubble/core/types.hpp"

namespace rubble::collisions {

struct StickOutcome {
    std::size_t survivor; ///< row of the body that now holds both bodies' spheres
    std::size_t absorbed; ///< row flagged for removal
    double energy_loss;   ///< J, kinetic energy lost (formula at stick_bodies)
};

/// Joins bodies i and j of b into one aggregate in the survivor's row (first_survives of
/// merge.hpp: the heavier, the lower id between equal masses) and sets removed[absorbed] = 1;
/// the caller removes that row with remove_flagged before anything else reads b (until then
/// the absorbed body's spheres are in the table twice). `shift` (m) is added to body j's
/// position (the periodic image that touches i; zero without a periodic box).
///
/// The aggregate: the survivor's spheres, then the absorbed body's, with offsets in the
/// survivor's body frame about the new centre of mass (so no sphere moves); mass properties
/// from mass_properties of that union; the orientation the survivor's. With M = m_i + m_j,
///   X = (m_i x_i + m_j x_j) / M,   V = (m_i v_i + m_j v_j) / M,
///   L = sum_k [m_k (x_k - X) x (v_k - V) + I_k w_k],   w = I^-1 L,
/// I_k the bodies' inertia tensors and I the union's (inertial frame), so that mass, linear
/// momentum and angular momentum about any point are conserved (to round-off). The kinetic
/// energy lost is the relative motion the rigid union cannot hold:
///   (1/2) mu |v_j - v_i|^2 + (1/2) sum_k w_k.I_k w_k - (1/2) L.I^-1 L,  mu = m_i m_j / M.
/// The survivor's free_path becomes 0 (a contact has just happened).
[[nodiscard]] StickOutcome stick_bodies(Bodies& b, std::size_t i, std::size_t j,
                                        std::vector<std::uint8_t>& removed,
                                        const Vec3& shift = Vec3::Zero());

} // namespace rubble::collisions
