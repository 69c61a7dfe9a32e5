// SPDX-License-Identifier: MIT
#pragma once
// The strategies for bodies found overlapping at the start of a drift (collisions.overlaps;
// Richardson, PiTP lectures, "Round-off error and overlaps"), written once over the primitives
// of each kind of overlap: free sphere pairs (overlaps.cpp), free spheres and walls
// (wall_overlaps.cpp), and spheres of rigid bodies with each other or with walls
// (rigid_overlaps.cpp). The control flow is here: the abort, the order of handling, the skip of
// overlaps already cleared, merges after walls, and the skeleton of pkdgrav's back-up (carry
// back to the moment of touching, resolve the missed contact, carry forward). The arithmetic
// stays each kind's own (a sphere pair's exact quadratic against an aggregate's depth / -u_n,
// the reduced mass against the collision matrix): unifying it would change results.
// Internal to src/collisions.
#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "rubble/collisions/collision_config.hpp"
#include "rubble/core/bodies.hpp"

namespace rubble::collisions::detail {

/// A kind of overlap: its record (Overlap), what its strategies share (Touch: computed once per
/// overlap, before the strategy, and pure), and its primitives.
template <class K>
concept OverlapKind = requires(const K& k, Bodies& b, const typename K::Overlap& o,
                               const typename K::Touch& t, std::vector<std::uint8_t>& removed,
                               std::span<const typename K::Overlap> all, double dt) {
    { K::rigid } -> std::convertible_to<bool>; // effective_overlaps' `aggregates`
    { k.is_wall(o) } -> std::same_as<bool>;
    /// Already undone by an earlier overlap (merged away; moved clear of a wall).
    { k.cleared(b, o, removed) } -> std::same_as<bool>;
    { k.touch(b, o) } -> std::same_as<typename K::Touch>;
    k.push_apart(b, o, t);
    k.repulse(b, o, t, dt);
    /// How long ago (s, > 0) the overlap's bodies touched, if it came from a missed contact
    /// (they are closing in).
    { k.touched_ago(b, o, t) } -> std::same_as<std::optional<double>>;
    /// Moves the overlap's bodies by dt (s; negative: back) at their velocities and spins.
    k.carry(b, o, dt);
    /// Resolves the missed contact, the bodies carried back to touching `dt` ago (a wall's
    /// impulse booked).
    k.resolve_missed(b, o, dt);
    k.merge(b, o, removed);
    k.abort(b, all, dt); // [[noreturn]]: the message names each overlap (dt: the time)
};

/// pkdgrav's back-up (Richardson et al. 2000, Icarus 143, 45, sec. 2.4): carry the bodies back
/// along their motion to the moment they touched, resolve the contact missed there, and carry
/// them forward again with their new velocities; bodies not closing in did not come from a
/// missed contact and are pushed apart instead.
template <OverlapKind K>
void trace_back(const K& k, Bodies& b, const typename K::Overlap& o, const typename K::Touch& t) {
    const std::optional<double> ago = k.touched_ago(b, o, t);
    if (!ago) {
        k.push_apart(b, o, t);
        return;
    }
    k.carry(b, o, -*ago);
    k.resolve_missed(b, o, *ago);
    k.carry(b, o, *ago);
}

/// Applies strategy effective_overlaps(c.overlaps, K::rigid) to each overlap in order, from the
/// bodies' state at the start of a drift of dt seconds at absolute time `time`. Bodies merged
/// away are flagged in `removed` (the caller removes them).
template <OverlapKind K>
void handle_start_overlaps(const K& k, Bodies& b, std::span<const typename K::Overlap> overlaps,
                           const CollisionConfig& c, double dt, double time,
                           std::vector<std::uint8_t>& removed) {
    if (overlaps.empty()) return;
    const OverlapStrategy strategy = effective_overlaps(c.overlaps, K::rigid);
    if (strategy == OverlapStrategy::abort) k.abort(b, overlaps, time);
    if (strategy == OverlapStrategy::merge) {
        // A body cannot merge with a wall: pushed out, first, while every sphere row named by
        // an overlap is still where it was; then the pairs merge (a merge removes rows).
        for (const auto& o : overlaps)
            if (k.is_wall(o) && !k.cleared(b, o, removed)) k.push_apart(b, o, k.touch(b, o));
        for (const auto& o : overlaps)
            if (!k.is_wall(o) && !k.cleared(b, o, removed)) k.merge(b, o, removed);
        return;
    }
    for (const auto& o : overlaps) {
        if (k.cleared(b, o, removed)) continue;
        const typename K::Touch t = k.touch(b, o);
        switch (strategy) {
        case OverlapStrategy::trace_back:
            trace_back(k, b, o, t);
            break;
        case OverlapStrategy::push_apart:
            k.push_apart(b, o, t);
            break;
        case OverlapStrategy::repulse:
            k.repulse(b, o, t, dt);
            break;
        case OverlapStrategy::merge:
        case OverlapStrategy::automatic:
        case OverlapStrategy::abort:
            break;
        }
    }
}

} // namespace rubble::collisions::detail
