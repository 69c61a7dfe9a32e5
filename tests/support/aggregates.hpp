// SPDX-License-Identifier: MIT
#pragma once
// Random rigid aggregates for the tests, built here so that the tests do not depend on the
// aggregate generators (src/ic/) they check beside: lopsided clusters with a contact between
// two of them set up exactly (the contact tests), and lumpy aggregates and clouds of them (the
// rotation, gravity and drift tests).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "rubble/core/bodies.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/ic/random.hpp"

namespace rubble::test {

/// `count` spheres of density `rho` (kg/m^3) and radii in [0.4, 1] `scale` (m), each touching
/// or overlapping an earlier one: an irregular, lopsided cluster (off-diagonal inertia).
inline std::vector<SpherePart> random_cluster(ic::Rng& rng, int count, double scale, double rho) {
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
inline Quat random_rotation(ic::Rng& rng) {
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
inline ContactGeometry touch(Bodies& b, std::size_t i, std::size_t j, ic::Rng& rng) {
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
inline std::vector<SpherePart> lumpy_aggregate(int k, double r, double rho, ic::Rng& rng) {
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
    ic::Rng rng(seed);
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

} // namespace rubble::test
