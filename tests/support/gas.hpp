// SPDX-License-Identifier: MIT
#pragma once
// Hard-sphere gases for the collision tests: equal spheres of unit mass on a jittered simple
// cubic lattice (any packing fraction below pi/6 without overlaps), Maxwellian velocities; and
// the same spheres bound in eights: rigid cubes of 2 x 2 x 2 of them (the aggregate
// benchmarks).
#include <cmath>
#include <cstdint>
#include <vector>

#include "rubble/core/bodies.hpp"
#include "rubble/core/random.hpp"
#include "rubble/core/rigid_body.hpp"

namespace rubble::test {

struct Gas {
    Bodies bodies;
    double box = 0.0;    ///< side of the cube the lattice fills, centred at the origin
    double radius = 0.0; ///< sphere radius
};

/// Standard normal deviate (Box & Muller 1958).
inline double normal_deviate(Rng& rng) {
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
    Rng rng(seed);
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

/// k^3 rigid cubes of 2 x 2 x 2 touching spheres, each sphere as lattice_gas((2k)^3, phi)
/// makes them (unit mass, radius (3 phi / 4 pi)^(1/3)), in the same cube of side 2k centred
/// at the origin: the same spheres at the same packing fraction phi, bound in eights. The cubes
/// sit on a simple cubic lattice of spacing 2, randomly oriented, each centre jittered within
/// the gap its bounding sphere (radius (1 + sqrt 3) R) leaves, which needs phi < 0.2054.
/// Velocities and spins at the temperature of lattice_gas's spheres, m sigma_v^2 per degree of
/// freedom: centre velocities Maxwellian with dispersion sigma_v / sqrt(8), spins isotropic
/// Gaussian with dispersion sigma_v / sqrt(I) (the cube's inertia is isotropic, I = 19.2 R^2);
/// centre-of-mass velocity removed.
inline Gas cube_gas(int k, double phi, double sigma_v, std::uint64_t seed) {
    Gas g;
    g.box = 2.0 * k;
    g.radius = std::cbrt(3.0 * phi / (4.0 * pi));
    const double r = g.radius;
    std::vector<SpherePart> cube;
    for (int s = 0; s < 8; ++s)
        cube.push_back({Vec3(s & 1 ? r : -r, s & 2 ? r : -r, s & 4 ? r : -r), r, 1.0});
    const double bounding = (1.0 + std::sqrt(3.0)) * r;
    const double jitter = 0.5 * (2.0 - 2.0 * bounding) * (1.0 - 1e-9);
    const double inertia = 19.2 * r * r;
    Rng rng(seed);
    Vec3 mean_v = Vec3::Zero();
    const int n = k * k * k;
    for (int i = 0; i < n; ++i) {
        const Vec3 site = 2.0 * Vec3(i % k + 0.5 - 0.5 * k, (i / k) % k + 0.5 - 0.5 * k,
                                     i / (k * k) + 0.5 - 0.5 * k);
        const Vec3 d(rng.uniform(-jitter, jitter), rng.uniform(-jitter, jitter),
                     rng.uniform(-jitter, jitter));
        const Vec3 v = sigma_v / std::sqrt(8.0) *
                       Vec3(normal_deviate(rng), normal_deviate(rng), normal_deviate(rng));
        const Vec3 w = sigma_v / std::sqrt(inertia) *
                       Vec3(normal_deviate(rng), normal_deviate(rng), normal_deviate(rng));
        // Shoemake (1992): a uniformly random orientation.
        const double u1 = rng.uniform(), u2 = 2.0 * pi * rng.uniform(),
                     u3 = 2.0 * pi * rng.uniform();
        const double a = std::sqrt(1.0 - u1), c = std::sqrt(u1);
        const Quat q(a * std::sin(u2), a * std::cos(u2), c * std::sin(u3), c * std::cos(u3));
        mean_v += v / n;
        add_rigid_body(g.bodies, i, cube, site + d, v, w, q);
    }
    for (Vec3& v : g.bodies.vel)
        v -= mean_v;
    return g;
}

} // namespace rubble::test
