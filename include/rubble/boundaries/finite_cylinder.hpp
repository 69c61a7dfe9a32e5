// SPDX-License-Identifier: MIT
#pragma once
// Finite cylinders (wall.hpp, Wall::length > 0): the cylinder of radius R about the unit axis a
// runs from the wall's point (z = 0) to z = L along a. Three kinds:
//   closed can   (inside, caps):  bodies inside; side and two end discs (Richardson's rotating
//                                 drum); a sphere inside never reaches the rim edges;
//   post         (outside, caps): bodies outside a solid cylinder: side, two end discs and the
//                                 two circular rim edges between them;
//   open tube    (no caps):       a thin shell, both faces are walls; spheres leave through the
//                                 open ends, and may hit the outer face or the rims.
// Every distance is taken in the meridional half-plane (rho, z) of the centre, since the
// surface is one of revolution; the normal at a rim points from the rim point to the centre.
// Contact prediction is exact for a centre moving on a straight line relative to the wall
// (turning about the axis leaves the shape unchanged): the earliest of the candidate contacts
// with each piece (side: the cylinder quadratic, discs: linear, rims: rim_contact.hpp's quartic),
// each accepted only where its contact point lies on the piece (a candidate of an unbounded
// surface elsewhere is not a contact; the true first contact is always one of the candidates,
// and no candidate comes before it).
#include <optional>

#include "rubble/boundaries/wall.hpp"
#include "rubble/core/types.hpp"

namespace rubble::boundaries {

/// The gap of a sphere of radius r (m) at d (m, from the wall's point) to the finite cylinder
/// w (w.length > 0), as wall_gap gives it.
[[nodiscard]] WallGap finite_cylinder_gap(const Wall& w, const Vec3& d, double r);

/// Time (s, >= 0) until a sphere of radius r (m) at d (m, from the wall's point) moving with v
/// (m/s, relative to the wall) touches the finite cylinder w, or nothing; touching or
/// overlapping and moving in: now (0), as for the infinite walls (wall_predict.hpp).
[[nodiscard]] std::optional<double> predict_finite_cylinder_contact(const Wall& w, const Vec3& d,
                                                                    const Vec3& v, double r);

/// How long ago (s, >= 0) a sphere at d overlapping the finite cylinder w was touching it,
/// moving on its present line with v (relative to the wall), or nothing when it is not moving
/// further in (wall_contact_ago); found by bisection on the gap along the line backwards.
[[nodiscard]] std::optional<double> finite_cylinder_contact_ago(const Wall& w, const Vec3& d,
                                                                const Vec3& v, double r);

} // namespace rubble::boundaries
