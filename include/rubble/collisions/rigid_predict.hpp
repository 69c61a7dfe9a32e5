// SPDX-License-Identifier: MIT
#pragma once
// When do two rigid bodies made of spheres touch during a drift? (docs/aggregates.md,
// "Contact prediction".)
//
// Within a drift a body's centre of mass moves on a straight line and its orientation follows
// its rotor path (integrate/rotor_path.hpp), so each of its spheres follows a curve with no
// closed-form contact time (a helix when the body spins about a fixed axis). The earliest time
// two spheres of different bodies touch is found by a root search on their gap
// g(t) = |d(t)| - (R_a + R_b), d the vector between their centres, that can never step over a
// root: from a time t where g > 0, with its exact derivative g'(t) and a bound G2 on |g''| over
// the drift, g(t + s) >= g + g' s - G2 s^2 / 2, so no contact can come before the smallest
// positive root s of that parabola. Stepping to it is conservative advancement with a
// second-order bound (Mirtich 1996, PhD thesis, ch. 4, advances with the first-order bound
// |g'| <= |v_rel| + |w_1| rho_1 + |w_2| rho_2): far from a contact, or moving apart, the steps
// are long; near a contact each step is a Newton step shortened just enough never to overshoot,
// so the search converges quadratically to the root, from below, to the clock's round-off.
//
// With |d'| <= V = |v_2 - v_1| + W_1 rho_1 + W_2 rho_2 and |d''| <= A = Y_1 rho_1 + Y_2 rho_2
// (W, Y: the rotor paths' bounds, rho: the spheres' distances from their centres of mass),
// g'' = d.d''/|d| + (|d'|^2 - (d.d'/|d|)^2)/|d| is at most A + V^2 / |d| in size, and
// |d| >= R_a + R_b wherever g >= 0, the only place the search looks.
#include <optional>
#include <span>

#include "rubble/core/types.hpp"
#include "rubble/integrate/rotor_path.hpp"

namespace rubble::collisions {

/// A body over one segment of a drift: from `time` (s into the drift) its centre of mass moves
/// from `pos` at `vel` and its principal frame turns along `*rotor` (rotor time 0 = `time`),
/// which the caller keeps; every sphere of it lies within `reach` of its centre of mass
/// (reach_of its spheres, which the predictions trust).
struct RigidMotion {
    Vec3 pos;          ///< m
    Vec3 vel;          ///< m/s
    double time = 0.0; ///< s
    const integrate::RotorPath* rotor = nullptr;
    double reach = 0.0; ///< m

    /// Where a point fixed in the body at `offset` (principal frame, from the centre of mass)
    /// is at time t (s into the drift, t >= time).
    [[nodiscard]] Vec3 point_at(const Vec3& offset, double t) const {
        return pos + (t - time) * vel + rotor->principal_at(t - time) * offset;
    }
};

/// A sphere of a body: centre in the body's principal frame, from the centre of mass.
struct PartSphere {
    Vec3 offset;         ///< m
    double radius = 0.0; ///< m
};

/// The radius of the sphere about the centre of mass that holds all of `parts`: the largest
/// |offset| + radius (m).
[[nodiscard]] double reach_of(std::span<const PartSphere> parts);

/// When the bodies' bounding spheres (radius `reach` about the centres of mass, which move on
/// straight lines; grown by 1e-12 against round-off) first touch, from `now` on (s into the
/// drift), body 2 shifted by `shift`: `now` when they overlap already, nothing when never.
/// No spheres of the two can touch before (predict_contact, predict.hpp).
[[nodiscard]] std::optional<double>
bounding_contact(const RigidMotion& body1, const RigidMotion& body2, const Vec3& shift, double now);

/// When the bodies' bounding spheres, touching or overlapping at `start` (bounding_contact's
/// time), part for good (infinite when they never do): no spheres of the two can touch after.
[[nodiscard]] double bounding_exit(const RigidMotion& body1, const RigidMotion& body2,
                                   const Vec3& shift, double start);

/// A predicted contact: its time (s into the drift) and the two spheres (indices into the
/// spans given to predict_rigid_contact).
struct RigidContact {
    double time = 0.0;
    int part1 = 0, part2 = 0;
};

/// The earliest time in [now, until] (s into the drift, now >= both segments' starts) at which
/// sphere s1 of body 1 and sphere s2 of body 2 touch, body 2 shifted by `shift` (a periodic
/// image, m). Spheres touching or overlapping at `now` touch now if their centres approach
/// each other at the bodies' physical spins (RotorPath::spin_for), and are otherwise left
/// alone in this search (they part; the rotor path can make them meet again only within the
/// splitting error, far below the overlap tolerance). Nothing when they do not touch.
[[nodiscard]] std::optional<double> first_touch(const RigidMotion& body1, const PartSphere& s1,
                                                const RigidMotion& body2, const PartSphere& s2,
                                                const Vec3& shift, double now, double until);

/// The earliest contact in [now, until] between any sphere of body 1 and any sphere of body 2
/// (shifted by `shift`), or nothing.
[[nodiscard]] std::optional<RigidContact>
predict_rigid_contact(const RigidMotion& body1, std::span<const PartSphere> parts1,
                      const RigidMotion& body2, std::span<const PartSphere> parts2,
                      const Vec3& shift, double now, double until);

} // namespace rubble::collisions
