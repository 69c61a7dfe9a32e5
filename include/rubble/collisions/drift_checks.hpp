// SPDX-License-Identifier: MIT
#pragma once
// The invariants of the event-driven drift (event_drift.hpp), checked under RUBBLE_DEBUG_CHECKS
// (core/debug_checks.hpp; docs/collisions.md, "Invariant checks"). Each function only reads
// and, when the invariant is broken, throws InvariantError naming the bodies, the absolute time
// and the numbers; without RUBBLE_DEBUG_CHECKS each does nothing. The engine calls them (only
// when debug_checks is true) with states brought to the event's time on copies.
#include <cstddef>
#include <cstdint>

#include "rubble/boundaries/wall.hpp"
#include "rubble/core/bodies.hpp"
#include "rubble/core/types.hpp"

namespace rubble::collisions::checks {

/// A sphere at some instant: its body's id, centre (m, periodic image applied) and radius (m).
struct SphereAt {
    std::int64_t id;
    Vec3 pos;
    double radius;
};

/// Two spheres at the same instant `time` (s, absolute) overlap by no more than tolerance
/// (collisions.overlap_tolerance) x (R_a + R_b).
void pair_clear(const SphereAt& a, const SphereAt& b, double tolerance, double time);

/// A sphere overlaps wall number `wall` (its point at p, m, at the same instant) by no more
/// than tolerance x its radius.
void wall_clear(const SphereAt& s, const boundaries::Wall& w, std::size_t wall, const Vec3& p,
                double tolerance, double time);

/// The event of body `id` being resolved at `event_time` (s, absolute) is no later than its
/// contact with `partner` predicted afresh (`contact_time`, absolute): else the queue would
/// have missed that contact. `partner` is the other body's id, or -1 - k for wall k (as in the
/// collision log).
void no_earlier_contact(std::int64_t id, std::int64_t partner, double event_time,
                        double contact_time);

/// Every body's centre is inside the periodic cube [-L/2, L/2)^3 (no check when L = 0).
void inside_box(const Bodies& b, double box, double time);

/// Ids unique, storage consistent (Bodies::check_consistent) and index_of(id[k]) == k.
void ids_consistent(const Bodies& b, double time);

} // namespace rubble::collisions::checks
