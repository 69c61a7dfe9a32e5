// SPDX-License-Identifier: MIT
#include "rubble/boundaries/finite_cylinder.hpp"

#include <algorithm>
#include <cmath>

#include "rubble/boundaries/rim_contact.hpp"
#include "rubble/boundaries/wall_predict.hpp"

namespace rubble::boundaries {
namespace {

// The centre in the meridional half-plane: z along the axis, rho >= 0 from it along e.
struct Meridional {
    double z, rho;
    Vec3 e; // unit, perpendicular to the axis, from the axis towards the centre
};

Meridional meridional(const Vec3& d, const Vec3& a) {
    const double z = d.dot(a);
    const Vec3 q = d - z * a;
    const double rho = q.norm();
    return {z, rho, rho > 0.0 ? Vec3(q / rho) : a.unitOrthogonal()};
}

WallGap from_offset(const Meridional& m, const Vec3& a, double drho, double dz, double r) {
    const double dist = std::hypot(drho, dz);
    if (!(dist > 0.0)) return WallGap{-m.e, -r}; // centre on the surface: some normal
    return WallGap{(drho * m.e + dz * a) / dist, dist - r};
}

// Times of |q + w t| = s: t_in (rho falling through s) <= t_out (rising), cancellation-free as
// in wall_predict.hpp; nothing when the line stays beyond s or does not move across the axis.
struct Crossings {
    double t_in, t_out;
};
std::optional<Crossings> crossings(const Vec3& q, const Vec3& w, double s) {
    const double A = w.squaredNorm(), B = q.dot(w), C = q.squaredNorm() - s * s;
    const double D = B * B - A * C;
    if (!(A > 0.0) || !(D >= 0.0)) return std::nullopt;
    const double root = std::sqrt(D);
    if (B > 0.0) return Crossings{(-B - root) / A, -C / (B + root)};
    if (!(root - B > 0.0)) return std::nullopt;
    return Crossings{C / (root - B), (root - B) / A};
}

bool within(double x, double lo, double hi) {
    return x >= lo && x <= hi;
}

// The closed can: the centre stays in the convex region rho <= R - r, r <= z <= L - r, and
// leaves it first through one of its three faces.
std::optional<double> predict_can(const Wall& w, const Vec3& d, const Vec3& v, double r) {
    const Vec3& a = w.normal;
    std::optional<double> t = predict_cylinder_contact(d, v, a, w.radius, r, true);
    for (const auto& cap :
         {predict_plane_contact(d, v, a, r), predict_plane_contact(d - w.length * a, v, -a, r)})
        if (cap && (!t || *cap < *t)) t = cap;
    return t;
}

} // namespace

WallGap finite_cylinder_gap(const Wall& w, const Vec3& d, double r) {
    const Vec3& a = w.normal;
    const Meridional m = meridional(d, a);
    const double R = w.radius, L = w.length;
    if (!w.caps) // open tube: distance to the segment rho = R, 0 <= z <= L
        return from_offset(m, a, m.rho - R, m.z - std::clamp(m.z, 0.0, L), r);
    const bool in_solid = m.rho <= R && within(m.z, 0.0, L);
    if (w.inside) { // can: the nearest of side and discs, signed (beyond a face: negative)
        WallGap g{-m.e, R - m.rho - r};
        if (m.z - r < g.gap) g = WallGap{a, m.z - r};
        if (L - m.z - r < g.gap) g = WallGap{-a, L - m.z - r};
        return g;
    }
    if (!in_solid) // post, from outside: nearest point of the solid (side, disc or rim)
        return from_offset(m, a, m.rho - std::min(m.rho, R), m.z - std::clamp(m.z, 0.0, L), r);
    // Centre inside the post: out through the nearest face.
    WallGap g{m.e, -(R - m.rho) - r};
    if (-m.z - r > g.gap) g = WallGap{-a, -m.z - r};
    if (-(L - m.z) - r > g.gap) g = WallGap{a, -(L - m.z) - r};
    return g;
}

std::optional<double> predict_finite_cylinder_contact(const Wall& w, const Vec3& d, const Vec3& v,
                                                      double r) {
    if (w.inside && w.caps) return predict_can(w, d, v, r);
    const Vec3& a = w.normal;
    const double R = w.radius, L = w.length;
    const WallGap now = finite_cylinder_gap(w, d, r);
    if (!(now.gap > 0.0)) {
        const double vn = v.dot(now.normal);
        if (vn < 0.0) return 0.0;
        // Leaving a convex post never comes back (the distance to a convex set is convex along
        // a line); leaving one face of a tube may lead to another.
        if (w.caps || !(vn >= 0.0)) return std::nullopt;
    }
    const Vec3 q = d - d.dot(a) * a, u = v - v.dot(a) * a;
    const double z0 = d.dot(a), vz = v.dot(a);
    std::optional<double> best;
    const auto offer = [&](std::optional<double> t) {
        if (t && *t >= 0.0 && (!best || *t < *best)) best = t;
    };
    const auto on_side = [&](double t) { return within(z0 + vz * t, 0.0, L); };
    const auto disc = [&](double t) {
        return (q + u * t).norm() <= R ? std::optional<double>(std::max(t, 0.0)) : std::nullopt;
    };
    if (const auto c = crossings(q, u, R + r); c && c->t_in >= 0.0 && on_side(c->t_in))
        offer(c->t_in);   // outer face of the side
    if (!w.caps && R > r) // inner face of the tube
        if (const auto c = crossings(q, u, R - r); c && c->t_out >= 0.0 && on_side(c->t_out))
            offer(c->t_out);
    if (w.caps) {
        // The post's end discs, from outside: only from beyond the disc's plane (from anywhere
        // else the side or a rim comes first), with the gap finite_cylinder_gap takes there.
        if (z0 < 0.0 && vz > 0.0) offer(disc((-z0 - r) / vz));
        if (z0 > L && vz < 0.0) offer(disc(((z0 - L) - r) / -vz));
    }
    offer(predict_rim_contact(d, v, a, R, r));
    offer(predict_rim_contact(d - L * a, v, a, R, r));
    return best;
}

std::optional<double> finite_cylinder_contact_ago(const Wall& w, const Vec3& d, const Vec3& v,
                                                  double r) {
    const WallGap now = finite_cylinder_gap(w, d, r);
    const double vn = v.dot(now.normal);
    if (!(now.gap < 0.0) || !(vn < 0.0)) return std::nullopt;
    const auto gap_ago = [&](double t) { return finite_cylinder_gap(w, d - t * v, r).gap; };
    double in = 0.0, out = -now.gap / -vn; // straight back along the normal, as for a plane
    for (int k = 0; k < 64 && gap_ago(out) < 0.0; ++k) {
        in = out;
        out *= 2.0;
    }
    if (gap_ago(out) < 0.0) return std::nullopt;
    for (int it = 0; it < 200; ++it) {
        const double m = 0.5 * (in + out);
        if (!(m > in && m < out)) break;
        (gap_ago(m) < 0.0 ? in : out) = m;
    }
    return out;
}

} // namespace rubble::boundaries
