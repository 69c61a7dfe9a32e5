// SPDX-License-Identifier: MIT
#pragma once
// The collapsing cloud of rigid aggregates that the cold-collapse test
// (tests/validation/aggregate_collapse_test.cpp) and the collapse benchmark
// (bench/aggregates_bench.cpp) both run: units G = 1; n grains of bounding radius 1 filled with
// spheres of density 3 / (4 pi) (ic/aggregates.hpp), at a bounding-sphere volume fraction of
// 0.05, cold (no grain spin) and turning as a whole at a tenth of the breakup rate so that L
// is not zero; dt = t_ff / 100; eps_n = 0.5, eps_t = 0.8 (rough: collisions exchange orbital
// and spin angular momentum) and the inelastic-collapse guards of docs/collisions.md: impacts
// slower than one step of the final pile's surface gravity, G M / R_pile^2 dt (its spheres at
// a packing fraction of 0.4), are elastic, and so is a collision of a body that moved less
// than 1 % of its radius since its last one. collisions.overlaps stays "auto" (repulse).
#include <cmath>
#include <cstdint>

#include "rubble/collisions/collision_config.hpp"
#include "rubble/core/bodies.hpp"
#include "rubble/ic/generators.hpp"

namespace rubble::test {

struct AggregateCollapse {
    Bodies bodies;
    double G = 1.0;
    double mass = 0.0;          ///< of all spheres
    double sphere_volume = 0.0; ///< sum of the spheres' volumes
    double t_ff = 0.0;          ///< free-fall time of the uniform cloud
    double dt = 0.0;
    collisions::CollisionConfig collisions;
};

inline AggregateCollapse aggregate_collapse(std::int64_t n, ic::GrainKind kind,
                                            int spheres_per_grain) {
    AggregateCollapse c;
    ic::CloudConfig cloud;
    cloud.n = n;
    cloud.size = std::cbrt(static_cast<double>(n) / 0.05);
    cloud.radii.radius = 1.0;
    cloud.density = 3.0 / (4.0 * pi);
    cloud.grain.kind = kind;
    cloud.grain.spheres_per_grain = spheres_per_grain;
    Rng rng(2026);
    c.bodies = ic::make_cloud(cloud, rng);
    for (std::size_t s = 0; s < c.bodies.spheres.size(); ++s) {
        c.mass += c.bodies.spheres.mass[s];
        c.sphere_volume += 4.0 / 3.0 * pi * std::pow(c.bodies.spheres.radius[s], 3);
    }
    const double r3 = std::pow(cloud.size, 3);
    c.t_ff = std::sqrt(3.0 * pi / (32.0 * c.G * c.mass / (4.0 / 3.0 * pi * r3)));
    c.dt = c.t_ff / 100.0;
    ic::MotionConfig motion;
    motion.omega = 0.1 * std::sqrt(c.G * c.mass / r3);
    ic::apply_motion(c.bodies, motion, rng);
    c.collisions.eps_n = 0.5;
    c.collisions.eps_t = 0.8;
    const double r_pile = std::cbrt(3.0 * c.sphere_volume / (4.0 * pi * 0.4));
    c.collisions.v_min = c.G * c.mass / (r_pile * r_pile) * c.dt;
    c.collisions.f_crit = 0.01;
    return c;
}

} // namespace rubble::test
