// SPDX-License-Identifier: MIT
#pragma once
// Perfect merging of two spheres (the "merge" outcome of collisions and overlaps).
#include "rubble/collisions/resolve.hpp"

namespace rubble::collisions {

/// One homogeneous sphere replacing two: mass m1 + m2 at the centre of mass, moving with the
/// centre-of-mass velocity; radius (R1^3 + R2^3)^(1/3) (volume, hence density, kept for equal
/// densities); spin from the total angular momentum about the new centre, orbital
/// m_k (x_k - X) x (v_k - V) plus the spins I_k w_k, divided by I = 2/5 M R^2. Mass, momentum
/// and angular momentum are conserved exactly; the kinetic energy of the relative motion that
/// the new spin cannot hold is lost (Richardson et al. 2000, Icarus 143, 45, sec. 2.4).
[[nodiscard]] SphereState merge_spheres(const SphereState& s1, const SphereState& s2);

} // namespace rubble::collisions
