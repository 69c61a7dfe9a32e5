// SPDX-License-Identifier: MIT
#pragma once
// When does a sphere moving on a straight line touch a wall (wall.hpp)? Inside a drift of the
// KDK leapfrog every body moves on a straight line and every wall translates at a constant
// velocity, so the contact is predicted exactly, as for sphere pairs (core/contact_time.hpp):
// linear for a plane, quadratic for a cylinder (finite ones: finite_cylinder.hpp, whose rims
// need a quartic). The rules that keep round-off from letting a
// sphere through are the same as for pairs (Bannerman, Strobl, Formella & Poschel 2014, Comput.
// Part. Mech. 1, 191): a sphere touching or overlapping the wall while moving into it collides
// now (t = 0); one moving away, or at rest relative to the wall, never does; roots are taken in
// forms without cancellation.
#include <cmath>
#include <optional>

#include "rubble/boundaries/finite_cylinder.hpp"
#include "rubble/boundaries/wall.hpp"
#include "rubble/core/contact_time.hpp"
#include "rubble/core/types.hpp"

namespace rubble::boundaries {

/// Time (s, >= 0) until a sphere of radius r (m) touches a plane with unit normal n (towards
/// the sphere's side), or nothing. d = x - p (m) from a point of the plane to the centre,
/// v (m/s) the sphere's velocity relative to the plane. Gap d.n - r, closing speed -v.n.
[[nodiscard]] inline std::optional<double> predict_plane_contact(const Vec3& d, const Vec3& v,
                                                                 const Vec3& n, double r) {
    const double vn = v.dot(n);
    if (!(vn < 0.0)) return std::nullopt; // moving away, along, or NaN
    const double gap = d.dot(n) - r;
    if (gap <= 0.0) return 0.0; // touching or overlapping and moving in: now
    return gap / -vn;
}

/// Time (s, >= 0) until a sphere of radius r (m) at d = x - p (m, from a point of the axis)
/// moving with v (m/s, relative to the cylinder) touches the infinite cylinder of radius R (m)
/// about the unit axis a, from inside or from outside, or nothing.
///
/// With q and w the parts of d and v perpendicular to the axis, contact is |q + w t| = s:
/// outside, s = R + r and the centre approaches the axis from beyond s: the same quadratic as
/// a sphere pair of sigma = R + r (predict_contact, its cancellation-free form);
/// inside, s = R - r and the centre leaves the disc of radius s: the larger root of
/// a t^2 + 2 b t + c = 0 (a = w.w, b = q.w, c = q.q - s^2 < 0), whose discriminant
/// b^2 - a c = b^2 + a |c| is a sum of positive terms, taken as (sqrt(D) - b) / a for b <= 0 and
/// as -c / (b + sqrt(D)) for b > 0 (no cancellation either way). Inside, a centre at or
/// beyond s moving outwards (b > 0) collides now; moving inwards (b < 0: just bounced off,
/// c >= 0 by round-off) it crosses the disc to the far side, the larger root again; exactly
/// tangentially (b = 0) nothing, as for pairs at rest relative to each other (its normal
/// velocity is zero, so a contact could not change it, and would repeat).
[[nodiscard]] inline std::optional<double> predict_cylinder_contact(const Vec3& d, const Vec3& v,
                                                                    const Vec3& a, double R,
                                                                    double r, bool inside) {
    const Vec3 q = d - d.dot(a) * a;
    const Vec3 w = v - v.dot(a) * a;
    if (!inside) return predict_contact(q, w, R + r);
    const double s = R - r;
    const double b = q.dot(w);
    const double c = q.squaredNorm() - s * s;
    if (!(c < 0.0)) {
        if (b > 0.0) return 0.0;             // at or beyond the surface and moving out: now
        if (!(b < 0.0)) return std::nullopt; // tangential (or NaN)
        // Moving back in, as just after a contact with c >= 0 by round-off: it crosses the
        // disc and meets the far side at the larger root (when the line enters the disc).
        const double aa = w.squaredNorm(), D = b * b - aa * c;
        if (!(D >= 0.0)) return std::nullopt;
        return (std::sqrt(D) - b) / aa;
    }
    const double aa = w.squaredNorm();
    if (!(aa > 0.0)) return std::nullopt; // moving along the axis only
    const double root = std::sqrt(b * b - aa * c);
    return b > 0.0 ? -c / (b + root) : (root - b) / aa;
}

/// Time (s, >= 0) until a sphere of radius r (m) at x (m) moving with v (m/s) touches wall w
/// whose point is at p (m) at the same instant, or nothing.
[[nodiscard]] inline std::optional<double>
predict_wall_contact(const Wall& w, const Vec3& p, const Vec3& x, const Vec3& v, double r) {
    const Vec3 d = x - p;
    const Vec3 rel = v - w.velocity;
    if (w.shape == WallShape::plane) return predict_plane_contact(d, rel, w.normal, r);
    if (w.length > 0.0) return predict_finite_cylinder_contact(w, d, rel, r);
    return predict_cylinder_contact(d, rel, w.normal, w.radius, r, w.inside);
}

/// How long ago (s, >= 0) a sphere overlapping wall w touched it, moving on its present line
/// (relative to the wall), or nothing when it is not moving further into the wall (it did not
/// arrive through a missed contact). For the trace_back overlap strategy.
[[nodiscard]] inline std::optional<double>
wall_contact_ago(const Wall& w, const Vec3& p, const Vec3& x, const Vec3& v, double r) {
    const Vec3 d = x - p;
    const Vec3 back = w.velocity - v; // the relative motion reversed
    if (w.shape == WallShape::plane) {
        const double vn = back.dot(w.normal);
        const double gap = d.dot(w.normal) - r;
        if (!(vn > 0.0) || !(gap < 0.0)) return std::nullopt;
        return -gap / vn;
    }
    if (w.length > 0.0) return finite_cylinder_contact_ago(w, d, v - w.velocity, r);
    // Reversed, the centre re-enters the disc of radius R - r (inside) or leaves the disc of
    // radius R + r (outside): the other side's formula.
    const Vec3 q = d - d.dot(w.normal) * w.normal;
    const Vec3 u = back - back.dot(w.normal) * w.normal;
    if (w.inside) {
        if (!(q.dot(u) < 0.0)) return std::nullopt;
        return predict_contact(q, u, w.radius - r);
    }
    if (!(q.dot(u) > 0.0)) return std::nullopt;
    return predict_cylinder_contact(d, back, w.normal, w.radius + r, 0.0, true);
}

} // namespace rubble::boundaries
