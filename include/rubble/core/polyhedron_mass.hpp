// SPDX-License-Identifier: MIT
#pragma once
// Exact mass properties of a convex polyhedron of uniform density, by decomposition into
// tetrahedra from an interior point: each tetrahedron (o, a, b, c) has volume
// V = (a-o).((b-o) x (c-o)) / 6 and second moment about o
// C = V/20 [sum_i v_i v_i^T + (sum_i v_i)(sum_i v_i)^T], v_i = a-o, b-o, c-o
// (Tonon 2004, J. Math. Stat. 1, 8, eqs. for the canonical tetrahedron; the same covariance
// as Mirtich 1996's surface integrals, without the projections). Exact up to round-off.
#include "rubble/core/convex_hull.hpp"
#include "rubble/core/rigid_body.hpp"

namespace rubble::shapes {

/// Mass, centre of mass, inertia tensor about it (I = tr(C) 1 - C, C the second moment),
/// principal moments (ascending) and axes of `hull` filled with density rho (kg/m^3); its
/// bounding radius is the farthest vertex from the centre of mass.
[[nodiscard]] MassProperties polyhedron_mass_properties(const ConvexHull& hull, double rho);

/// The centroid of the hull (m): its centre of mass at any uniform density.
[[nodiscard]] Vec3 polyhedron_centroid(const ConvexHull& hull);

/// Volume of the hull (m^3).
[[nodiscard]] double polyhedron_volume(const ConvexHull& hull);

} // namespace rubble::shapes
