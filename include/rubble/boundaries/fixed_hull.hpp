// SPDX-License-Identifier: MIT
#pragma once
// A fixed hull: a convex polyhedron held in place, of infinite mass (a boulder anchored to the
// ground, a tilted slab, the facets of a terrain), as a contact partner of polyhedral grains
// (issue 21, item 5). It is a wall of any convex shape: the NSC stepper finds its contacts with
// the grains as it does between two grains (GJK on the margin cores, EPA beyond the margin,
// manifolds; polyhedra/nsc_stepper.hpp), with the hull's velocity zero. Spheres do not see it.
#include <string>

#include "rubble/core/polyhedron.hpp"
#include "rubble/core/types.hpp"

namespace rubble::boundaries {

struct FixedHull {
    shapes::Polyhedron shape;            ///< body frame, m, about the origin it is placed by
    Vec3 position = Vec3::Zero();        ///< m, world, where the shape's origin sits
    Quat orientation = Quat::Identity(); ///< body -> world
    std::string name;                    ///< for messages: "fixed_hulls[0]"
};

} // namespace rubble::boundaries
