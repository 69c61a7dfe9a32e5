// SPDX-License-Identifier: MIT
#pragma once
// Test clouds: equal masses in G = 1 units (total mass 1), and a moving cloud in SI units.
#include <cmath>
#include <vector>

#include "rubble/core/bodies.hpp"
#include "rubble/core/random.hpp"
#include "rubble/ic/generators.hpp"

namespace rubble::test {

/// N points uniform in the unit ball, radius 1e-4 each, at rest.
inline Bodies uniform_sphere(int n, std::uint64_t seed) {
    Rng rng(seed);
    Bodies b;
    for (int i = 0; i < n; ++i)
        b.add_sphere(i, 1.0 / n, 1e-4, rng.in_ball(1.0), Vec3::Zero(), Vec3::Zero());
    return b;
}

/// N points from a Plummer sphere of scale radius 1 (Plummer 1911; radii by inverting the
/// cumulative mass M(r) = r^3 / (1 + r^2)^(3/2), Aarseth, Henon & Wielen 1974), at rest.
inline Bodies plummer_sphere(int n, std::uint64_t seed) {
    Rng rng(seed);
    Bodies b;
    for (int i = 0; i < n; ++i) {
        const double u = std::max(rng.uniform(), 1e-12);
        const double r = 1.0 / std::sqrt(std::pow(u, -2.0 / 3.0) - 1.0);
        b.add_sphere(i, 1.0 / n, 1e-4, r * rng.unit_vector(), Vec3::Zero(), Vec3::Zero());
    }
    return b;
}

/// n non-overlapping spheres of radii 0.5 to 1.5 m in a 100 m cloud, moving and spinning
/// (v0 0.3 m/s, w0 0.2 rad/s, Omega 0.01 rad/s): every per-body field holds a value of its own.
inline Bodies moving_cloud(std::int64_t n, std::uint64_t seed) {
    ic::CloudConfig c;
    c.n = n;
    c.size = 100.0;
    c.radii = {ic::RadiusDistribution::uniform, 1.0, 0.5, 1.5, 0.0};
    Rng rng(seed);
    Bodies b = ic::make_cloud(c, rng);
    ic::apply_motion(b, {0.3, 0.2, 0.01}, rng);
    return b;
}

} // namespace rubble::test
