// SPDX-License-Identifier: MIT
#pragma once
// Perfect merging of two spheres (the "merge" outcome of collisions and overlaps).
#include <cstdint>

#include "rubble/collisions/resolve.hpp"

namespace rubble::collisions {

/// Whether the first of two merging bodies (mass kg, id) survives, keeping its id and its
/// place, while the second is removed: the heavier one, the lower id between equal masses,
/// so the survivor does not depend on the order in which the pair is named.
[[nodiscard]] inline bool first_survives(double mass1, std::int64_t id1, double mass2,
                                         std::int64_t id2) {
    return mass1 > mass2 || (mass1 == mass2 && id1 < id2);
}

/// One homogeneous sphere replacing two: mass m1 + m2 at the centre of mass, moving with the
/// centre-of-mass velocity; radius (R1^3 + R2^3)^(1/3) (volume, hence density, kept for equal
/// densities); spin from the total angular momentum about the new centre, orbital
/// m_k (x_k - X) x (v_k - V) plus the spins I_k w_k, divided by I = 2/5 M R^2. Mass, momentum
/// and angular momentum are conserved exactly; the kinetic energy of the relative motion that
/// the new spin cannot hold is lost (Richardson et al. 2000, Icarus 143, 45, sec. 2.4).
[[nodiscard]] SphereState merge_spheres(const SphereState& s1, const SphereState& s2);

} // namespace rubble::collisions
