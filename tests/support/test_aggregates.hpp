// SPDX-License-Identifier: MIT
#pragma once
// Irregular rigid aggregates for the rotation and gravity tests, built here so that these tests
// do not depend on the aggregate generators (src/ic/) they are meant to check beside.
#include <cmath>
#include <cstdint>
#include <vector>

#include "rubble/core/rigid_body.hpp"
#include "rubble/ic/random.hpp"

namespace rubble::test {

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

/// A rotation drawn uniformly from SO(3) (Shoemake 1992, Graphics Gems III: uniform unit
/// quaternion from three uniform numbers).
inline Quat random_rotation(ic::Rng& rng) {
    const double u1 = rng.uniform(), u2 = 2.0 * pi * rng.uniform(), u3 = 2.0 * pi * rng.uniform();
    const double a = std::sqrt(1.0 - u1), b = std::sqrt(u1);
    return Quat(a * std::sin(u2), a * std::cos(u2), b * std::sin(u3), b * std::cos(u3));
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
