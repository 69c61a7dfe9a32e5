// SPDX-License-Identifier: MIT
#pragma once
// Pair kind: two bodies of which one at least is made of several spheres (a rigid aggregate),
// or any two bodies when they may stick (pair_kinds.hpp). The contact is the root search of
// rigid_predict.hpp along the bodies' rotor paths, resolved by the off-centre impulse of
// rigid_impulse.hpp at the touching spheres (contact_pick.hpp), or with outcome = stick by
// the impulse that joins the two (docs/aggregates.md). Internal to src/collisions.
#include <cstdint>

#include "rubble/collisions/drift_state.hpp"

namespace rubble::collisions::detail {

struct RigidPair {
    /// As SphereSphere::offer: from the later of the two bodies' times and in the order i < j,
    /// so that both bodies get bitwise the same answer; the search ends at the later of u's
    /// two kept events. Bodies stuck together in this drift meet no more.
    static void offer(const DriftState& s, Upcoming& u, std::int32_t i, std::int32_t j,
                      std::int8_t image, double h);
    /// Resolves e, both bodies advanced to e.time: the off-centre impulse at the touching
    /// spheres, the stick impulse (the bodies then joined), or none for a graze.
    static void collide(DriftState& s, Bodies& b, const CollisionEvent& e, double t0,
                        DriftStats& stats);
};

} // namespace rubble::collisions::detail
