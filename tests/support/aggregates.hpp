// SPDX-License-Identifier: MIT
#pragma once
// Random rigid aggregates for the tests, built here so that the tests do not depend on the
// aggregate generators (src/ic/) they check beside: lopsided clusters with a contact between
// two of them set up exactly (the contact tests), and lumpy aggregates and clouds of them (the
// rotation, gravity and drift tests).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "rubble/boundaries/wall.hpp"
#include "rubble/collisions/rigid_predict.hpp"
#include "rubble/core/bodies.hpp"
#include "rubble/core/random.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/integrate/rotor_path.hpp"

namespace rubble::test {

/// `count` spheres of density `rho` (kg/m^3) and radii in [0.4, 1] `scale` (m), each touching
/// or overlapping an earlier one: an irregular, lopsided cluster (off-diagonal inertia).
inline std::vector<SpherePart> random_cluster(Rng& rng, int count, double scale, double rho) {
    std::vector<SpherePart> parts;
    for (int k = 0; k < count; ++k) {
        const double r = scale * rng.uniform(0.4, 1.0);
        Vec3 c = Vec3::Zero();
        if (k > 0) {
            const SpherePart& on =
                parts[static_cast<std::size_t>(rng.uniform(0.0, 1.0) * static_cast<double>(k))];
            c = on.centre + rng.uniform(0.5, 1.0) * (on.radius + r) * rng.unit_vector();
        }
        parts.push_back({c, r, sphere_mass(rho, r)});
    }
    return parts;
}

/// A uniformly random rotation (Shoemake 1992, "Uniform random rotations").
inline Quat random_rotation(Rng& rng) {
    const double u1 = rng.uniform(), u2 = 2.0 * pi * rng.uniform(), u3 = 2.0 * pi * rng.uniform();
    const double a = std::sqrt(1.0 - u1), c = std::sqrt(u1);
    return Quat(a * std::sin(u2), a * std::cos(u2), c * std::sin(u3), c * std::cos(u3));
}

/// A contact point p and unit normal n (from body 1 to body 2) between two bodies.
struct ContactGeometry {
    Vec3 p, n;
};

/// Moves body j of b so that a random sphere of it touches a random sphere of body i (their
/// centres (R_i + R_j) apart along a random normal); returns the contact point and normal.
inline ContactGeometry touch(Bodies& b, std::size_t i, std::size_t j, Rng& rng) {
    const auto pick = [&](std::size_t k) {
        std::vector<std::size_t> rows;
        for (std::size_t s = 0; s < b.spheres.size(); ++s)
            if (b.spheres.body[s] == static_cast<std::int64_t>(k)) rows.push_back(s);
        return rows[static_cast<std::size_t>(rng.uniform() * static_cast<double>(rows.size()))];
    };
    const std::size_t si = pick(i), sj = pick(j);
    const Vec3 n = rng.unit_vector();
    const Vec3 ci = sphere_centre(b, si);
    const Vec3 cj = ci + (b.spheres.radius[si] + b.spheres.radius[sj]) * n;
    b.pos[j] = cj - b.orientation[j] * b.spheres.offset[sj];
    return {ci + b.spheres.radius[si] * n, n};
}

/// k spheres of radii 0.6 r to r and density rho (kg/m^3), each new one overlapping a random
/// earlier one by a fifth of their radii (a random walk of spheres: an irregular, asymmetric
/// lump with three distinct principal moments).
inline std::vector<SpherePart> lumpy_aggregate(int k, double r, double rho, Rng& rng) {
    std::vector<SpherePart> parts;
    while (static_cast<int>(parts.size()) < k) {
        const double radius = r * rng.uniform(0.6, 1.0);
        Vec3 centre = Vec3::Zero();
        if (!parts.empty()) {
            const auto j =
                static_cast<std::size_t>(rng.uniform() * static_cast<double>(parts.size()));
            centre = parts[j].centre + 0.8 * (parts[j].radius + radius) * rng.unit_vector();
            bool crowded = false; // keep spheres apart but for the chosen neighbour's overlap
            for (const SpherePart& p : parts)
                crowded = crowded || (p.centre - centre).norm() < 0.75 * (p.radius + radius);
            if (crowded) continue;
        }
        parts.push_back({centre, radius, sphere_mass(rho, radius)});
    }
    return parts;
}

/// n lumpy aggregates of k spheres (radius r = 1 m, density 1 kg/m^3), randomly oriented and
/// spinning at up to w_max (rad/s), at rest on a jittered cubic lattice of spacing 3 k^(1/3) m
/// (bounding spheres apart), with a free sphere of radius 1 m between every two.
inline Bodies aggregate_cloud(int n, int k, double w_max, std::uint64_t seed) {
    Rng rng(seed);
    Bodies b;
    const int side = static_cast<int>(std::ceil(std::cbrt(n)));
    const double spacing = 3.0 * std::cbrt(k) + 4.0;
    std::int64_t id = 0;
    for (int i = 0; i < n; ++i) {
        const Vec3 cell(i % side, (i / side) % side, i / (side * side));
        const Vec3 x = spacing * cell + rng.in_ball(0.5);
        add_rigid_body(b, id++, lumpy_aggregate(k, 1.0, 1.0, rng), x, Vec3::Zero(),
                       w_max * rng.uniform() * rng.unit_vector(), random_rotation(rng));
        if (i % 2 == 1)
            b.add_sphere(id++, sphere_mass(1.0, 1.0), 1.0, x + Vec3(0.5, 0.5, 0.5) * spacing,
                         Vec3::Zero(), Vec3::Zero());
    }
    return b;
}

/// A 2 x 2 x 2 cube of touching spheres of radius r (m) and density rho (kg/m^3), centred on
/// the origin, edge 4 r.
inline std::vector<SpherePart> cube_parts(double r, double rho) {
    std::vector<SpherePart> parts;
    for (int i = 0; i < 8; ++i)
        parts.push_back(
            {r * Vec3(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1), r, sphere_mass(rho, r)});
    return parts;
}

/// What contacts conserve, summed over the bodies, with the sums of magnitudes that their
/// round-off is relative to.
struct Totals {
    double mass = 0.0;                   ///< kg
    Vec3 p = Vec3::Zero();               ///< kg m/s
    Vec3 l = Vec3::Zero();               ///< kg m^2/s about the origin, orbital + spin
    double kinetic = 0.0;                ///< J, translation + rotation
    double p_scale = 0.0, l_scale = 0.0; ///< sum m |v|; sum m |x| |v| + |I w|
};

inline Totals totals(const Bodies& b) {
    Totals t;
    for (std::size_t k = 0; k < b.size(); ++k) {
        const Vec3 spin_l = inertia_tensor(b, k) * b.spin[k];
        t.mass += b.mass[k];
        t.p += b.mass[k] * b.vel[k];
        t.l += b.mass[k] * b.pos[k].cross(b.vel[k]) + spin_l;
        t.kinetic += 0.5 * b.mass[k] * b.vel[k].squaredNorm() + 0.5 * b.spin[k].dot(spin_l);
        t.p_scale += b.mass[k] * b.vel[k].norm();
        t.l_scale += b.mass[k] * b.pos[k].norm() * b.vel[k].norm() + spin_l.norm();
    }
    return t;
}

/// A body over one drift for the contact-prediction tests: its centre of mass from `pos` at
/// `vel`, its principal frame along `rotor`, its spheres in the principal frame.
struct PathBody {
    Vec3 pos, vel;
    integrate::RotorPath rotor;
    std::vector<collisions::PartSphere> parts;
    [[nodiscard]] collisions::RigidMotion motion() const {
        return collisions::RigidMotion{pos, vel, 0.0, &rotor, collisions::reach_of(parts)};
    }
};

/// A body of k random spheres (radii 0.3 to 1, within 1.5 of each other; k = 1: a free
/// sphere) with its true mass properties (three distinct moments), at x moving at v, randomly
/// turned, spinning at `spin` rad/s about a random axis, over a drift of h seconds.
inline PathBody random_path_body(Rng& rng, int k, const Vec3& x, const Vec3& v, double spin,
                                 double h) {
    std::vector<SpherePart> spheres;
    for (int s = 0; s < k; ++s) {
        const double r = rng.uniform(0.3, 1.0);
        const Vec3 c = k == 1 ? Vec3::Zero() : rng.in_ball(1.5);
        spheres.push_back(SpherePart{c, r, r * r * r});
    }
    const MassProperties mp = mass_properties(spheres);
    PathBody a;
    for (const SpherePart& s : spheres)
        a.parts.push_back(
            collisions::PartSphere{mp.axes.conjugate() * (s.centre - mp.centre), s.radius});
    const Quat principal = Quat(Eigen::AngleAxisd(rng.uniform(0, 2 * pi), rng.unit_vector()));
    const Vec3 moments = k == 1 ? Vec3::Constant(mp.moments.x()) : mp.moments;
    a.pos = x;
    a.vel = v;
    a.rotor = integrate::RotorPath(principal, rng.unit_vector() * spin, moments, h);
    return a;
}

/// The deepest overlap, relative to the radii, between spheres of different bodies and between
/// spheres and walls (at their points of t = 0); negative when nothing touches.
inline double deepest_overlap(const Bodies& b, const std::vector<boundaries::Wall>& walls) {
    double worst = -1.0;
    for (std::size_t s = 0; s < b.spheres.size(); ++s) {
        const Vec3 xs = sphere_centre(b, s);
        for (std::size_t t = s + 1; t < b.spheres.size(); ++t) {
            if (b.spheres.body[s] == b.spheres.body[t]) continue;
            const double sigma = b.spheres.radius[s] + b.spheres.radius[t];
            worst = std::max(worst, (sigma - (sphere_centre(b, t) - xs).norm()) / sigma);
        }
        for (const boundaries::Wall& w : walls)
            worst = std::max(worst, -boundaries::wall_gap(w, w.point, xs, b.spheres.radius[s]).gap /
                                        b.spheres.radius[s]);
    }
    return worst;
}

} // namespace rubble::test
