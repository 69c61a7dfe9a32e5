// SPDX-License-Identifier: MIT
#pragma once
// Hard-sphere gases for the collision tests: equal spheres of unit mass on a jittered simple
// cubic lattice (any packing fraction below pi/6 without overlaps), Maxwellian velocities.
#include <cmath>
#include <cstdint>

#include "rubble/core/bodies.hpp"
#include "rubble/ic/random.hpp"

namespace rubble::test {

struct Gas {
    Bodies bodies;
    double box = 0.0;    ///< side of the cube the lattice fills, centred at the origin
    double radius = 0.0; ///< sphere radius
};

/// Standard normal deviate (Box & Muller 1958).
inline double normal_deviate(ic::Rng& rng) {
    const double u = 1.0 - rng.uniform(), v = rng.uniform();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * pi * v);
}

/// n spheres (the first n sites of a k^3 lattice, k = ceil(n^(1/3))) of unit mass at packing
/// fraction phi of the full lattice, in a cube of side k (lattice spacing 1); each centre
/// jittered uniformly within its share of the gap; velocities Maxwellian with 1D dispersion
/// `sigma_v`, centre-of-mass velocity removed.
inline Gas lattice_gas(int n, double phi, double sigma_v, std::uint64_t seed) {
    Gas g;
    int k = 1;
    while (k * k * k < n)
        ++k;
    g.box = k;
    g.radius = std::cbrt(3.0 * phi / (4.0 * pi)); // phi = (4/3) pi R^3 per unit cell
    const double jitter = 0.5 * (1.0 - 2.0 * g.radius) * (1.0 - 1e-9);
    ic::Rng rng(seed);
    Vec3 mean_v = Vec3::Zero();
    for (int i = 0; i < n; ++i) {
        const Vec3 site(i % k + 0.5 - 0.5 * k, (i / k) % k + 0.5 - 0.5 * k,
                        i / (k * k) + 0.5 - 0.5 * k);
        const Vec3 d(rng.uniform(-jitter, jitter), rng.uniform(-jitter, jitter),
                     rng.uniform(-jitter, jitter));
        const Vec3 v =
            sigma_v * Vec3(normal_deviate(rng), normal_deviate(rng), normal_deviate(rng));
        mean_v += v / n;
        g.bodies.add_sphere(i, 1.0, g.radius, site + d, v, Vec3::Zero());
    }
    for (Vec3& v : g.bodies.vel)
        v -= mean_v;
    return g;
}

} // namespace rubble::test
