// SPDX-License-Identifier: MIT
#pragma once
// Random rigid aggregates for the contact tests: bodies built with add_rigid_body, at random
// orientations, with a contact between two of them set up exactly.
#include <cmath>
#include <cstddef>
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

} // namespace rubble::test
