// SPDX-License-Identifier: MIT
#pragma once
// The contact search of the NSC stepper (nsc_stepper.hpp) for bodies made of spheres: free
// spheres and rigid aggregates of bonded spheres (issue 35, item 2). It stands where the
// polyhedral stages place_bodies, narrow_phase and append_wall_contacts stand (nsc_stages.hpp)
// and hands the same FoundContact list to the same setup, solve and drift, so that spheres,
// aggregates and polyhedra share one contact law when a run asks for it (collisions.stepper =
// "nsc"): Coulomb cones, Newton restitution above v_min, speculative contacts, gentle recovery
// of overlaps, warm starts. A sphere's distance is exact, so no margin is taken off the shapes:
// the gap of two spheres is |c_a - c_b| - r_a - r_b, their normal the line of centres and their
// contact point the middle of the two surface points; a sphere and a plane meet at c - r n.
// Each sphere pair of two candidate bodies within the envelope plus the pair's approach in the
// step is one contact, whose warm-start key is the two spheres' indices within their bodies.
#include <cstddef>
#include <span>
#include <vector>

#include "rubble/boundaries/wall.hpp"
#include "rubble/core/bodies.hpp"
#include "rubble/core/types.hpp"
#include "rubble/polyhedra/nsc_stages.hpp"

namespace rubble::polyhedra {

/// The spheres of every body in the world at the start of the step.
struct SpherePlacement {
    std::vector<Vec3> centre;       ///< m, world centre of each row of b.spheres
    std::vector<std::size_t> first; ///< body k's spheres are rows first[k] .. first[k + 1] - 1
    /// m: the body's bounding radius grown by what it can cover in the step (h (|v| + |w| R))
    /// and half the envelope; two bodies whose spheres of these radii meet are candidates.
    std::vector<double> reach;
    std::vector<double> rim_speed; ///< m/s, |w| times the bounding radius
};

/// Places the spheres of b (every body made of spheres, grouped by body: b.hulls empty).
[[nodiscard]] SpherePlacement place_spheres(const Bodies& b, const StepScales& s);

/// The smallest sphere radius of b (m; +inf without spheres): the automatic margin's scale.
[[nodiscard]] double smallest_sphere_radius(const Bodies& b);

/// The contacts of the candidate pairs, in pair order then sphere order (a's spheres, then
/// b's): every two spheres of the pair within the envelope plus the pair's approach in the
/// step, with the bodies' velocities vel (m/s). The same list with any number of threads.
[[nodiscard]] std::vector<FoundContact> sphere_pair_contacts(const Bodies& b,
                                                             const SpherePlacement& placed,
                                                             std::span<const BodyPair> pairs,
                                                             const StepScales& s);

/// Appends, wall by wall then body by body, each sphere within its reach of each plane wall (at
/// wall_at), touching it at c - r n; the feature key is the sphere's index within its body.
void append_sphere_wall_contacts(const Bodies& b, const SpherePlacement& placed,
                                 std::span<const boundaries::Wall> walls,
                                 std::span<const Vec3> wall_at, const StepScales& s,
                                 std::vector<FoundContact>& found);

} // namespace rubble::polyhedra
