// SPDX-License-Identifier: MIT
#pragma once
// The pair kinds of the event-driven drift (event_drift.hpp): what a body can meet, and how the
// contact is predicted and resolved. Internal to src/collisions.
//
//                 | another body                    | a wall
//   free sphere   | SphereSphere (exact quadratic)  | SphereWall (closed form per shape)
//   aggregate     | RigidPair (root search on the   | RigidWall (root search on the
//                 |   rotor paths; also every pair  |   rotor path)
//                 |   when bodies may stick)        |
//
// Each kind is a struct of static functions of the drift's state (drift_state.hpp), checked by
// the concepts below: no virtual calls, so SphereSphere::offer inlines into the scheduler's
// loops over neighbours. The kind of a pair is a property of its bodies and of the outcome,
// decided per pair by the two predicates below; the scheduler (event_drift.cpp) calls them at
// its four dispatch points (offer, offer_walls, collide, collide_wall), and a new body shape is
// one kind, one branch in each. A new wall shape touches no kind: it lives in boundaries/
// (wall_gap, predict_wall_contact, surface_velocity) and rigid_wall_predict.cpp.
#include <concepts>
#include <cstddef>
#include <cstdint>

#include "kind_rigid_pair.hpp"
#include "kind_rigid_wall.hpp"
#include "kind_sphere_sphere.hpp"
#include "kind_sphere_wall.hpp"
#include "rubble/collisions/drift_state.hpp"

namespace rubble::collisions::detail {

/// A kind of body-body pair: offer(state, kept, i, j, image, h) predicts the contact of i < j
/// within the drift of h and keeps it among i's two earliest; collide(state, bodies, event,
/// t0, stats) resolves it with both bodies advanced to its time.
template <class K>
concept BodyPairKind = requires(const DriftState& cs, DriftState& s, Upcoming& u, Bodies& b,
                                const CollisionEvent& e, DriftStats& stats, std::int32_t i,
                                std::int8_t image, double h) {
    { K::offer(cs, u, i, i, image, h) } -> std::same_as<void>;
    { K::collide(s, b, e, h, stats) } -> std::same_as<void>;
};

/// A kind of body-wall pair: offer_walls(state, kept, i, h) predicts body i against every
/// wall by ascending index; collide as BodyPairKind's, the partner a wall.
template <class K>
concept WallPairKind = requires(const DriftState& cs, DriftState& s, Upcoming& u, Bodies& b,
                                const CollisionEvent& e, DriftStats& stats, std::int32_t i,
                                double h) {
    { K::offer_walls(cs, u, i, h) } -> std::same_as<void>;
    { K::collide(s, b, e, h, stats) } -> std::same_as<void>;
};

static_assert(BodyPairKind<SphereSphere> && BodyPairKind<RigidPair>);
static_assert(WallPairKind<SphereWall> && WallPairKind<RigidWall>);

/// Bodies i and j meet as a RigidPair (else as SphereSphere): in a drift with aggregates, when
/// either is not a free sphere or when bodies may stick.
[[gnu::always_inline]] inline bool meet_as_rigid(const DriftState& s, std::size_t i,
                                                 std::size_t j) {
    return s.aggregates && (s.outcome.rigid_pairs() || !(s.free[i] && s.free[j]));
}

/// Body i meets walls as a RigidWall (else as SphereWall).
[[gnu::always_inline]] inline bool meets_walls_as_rigid(const DriftState& s, std::size_t i) {
    return s.is_rigid(i);
}

} // namespace rubble::collisions::detail
