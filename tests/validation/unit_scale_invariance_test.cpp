// SPDX-License-Identifier: MIT
// Unit-scale invariance (issue 18, item 2): the physics of a self-gravitating collisional
// system does not know its units, so neither may the code. One scenario (cold collapse of 300
// spheres: direct-sum gravity, eps_n = 0.5, eps_t = 0.8, the inelastic-collapse guards v_min
// and f_crit, overlaps traced back, the adaptive skin) runs in SI and again with lengths,
// times and masses rescaled by L, T and M over many decades, including G = 1 units, with
// G' = G L^3 / (M T^2) and every dimensional input (dt, v_min) rescaled with it. Every
// tolerance of the collision engine is relative to the bodies' own sizes and speeds and to the
// step (docs/collisions.md, "Tolerances"); an absolute length or time anywhere would change
// which collisions happen at some scale.
//
// Required: the same collisions (pairs, in the same order, at the same scaled times) and the
// same final state after unscaling. Powers of two scale every floating-point operation exactly
// (no over- or underflow here), so those runs must be bitwise the same; other scales differ by
// round-off, which the chaotic collapse amplifies (see rel_tol).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "rubble/collisions/event_drift.hpp"
#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/ic/generators.hpp"
#include "rubble/integrate/simulation.hpp"

using namespace rubble;

namespace {

// Unit of length, time and mass of a run, in SI units: a quantity of dimension
// m^a s^b kg^c is multiplied by L^a T^b M^c.
struct Scale {
    double L, T, M;
};

struct Outcome {
    std::vector<integrate::ContactRecord> log;
    Bodies bodies; // final state, back in SI units
    std::int64_t elastic_by_guard = 0;
};

Bodies rescaled(Bodies b, const Scale& s) {
    for (std::size_t i = 0; i < b.size(); ++i) {
        b.mass[i] *= s.M;
        b.radius[i] *= s.L;
        b.pos[i] *= s.L;
        b.vel[i] *= s.L / s.T;
        b.spin[i] /= s.T;
        b.inertia[i] *= s.M * s.L * s.L;
        b.free_path[i] *= s.L;
    }
    for (std::size_t k = 0; k < b.spheres.size(); ++k) {
        b.spheres.offset[k] *= s.L;
        b.spheres.radius[k] *= s.L;
        b.spheres.mass[k] *= s.M;
    }
    return b;
}

// The scenario in SI units (G, dt, v_min) run at scale s.
struct Scenario {
    Bodies bodies;
    double G, dt, v_min;
    int steps;
};

Outcome run_at(const Scenario& sc, const Scale& s) {
    const double G = sc.G * s.L * s.L * s.L / (s.M * s.T * s.T);
    integrate::Simulation sim(rescaled(sc.bodies, s),
                              std::make_unique<gravity::DirectGravity>(G, 0.0), sc.dt * s.T);
    collisions::CollisionConfig k;
    k.eps_n = 0.5;
    k.eps_t = 0.8; // rough: spins and inertia enter too
    k.v_min = sc.v_min * s.L / s.T;
    k.f_crit = 0.01;
    k.overlaps = collisions::OverlapStrategy::trace_back;
    k.log = true;
    sim.set_stepper(std::make_unique<collisions::EventDrivenDrift>(k));
    Outcome out;
    for (int i = 0; i < sc.steps; ++i) {
        sim.step();
        out.elastic_by_guard += static_cast<std::int64_t>(
            integrate::work_counter(sim.last_stats(), "elastic_by_guard"));
        for (integrate::ContactRecord c : sim.stepper().take_log()) {
            c.time /= s.T; // back in SI units (exact for powers of two)
            out.log.push_back(c);
        }
    }
    out.bodies = rescaled(sim.bodies(), Scale{1.0 / s.L, 1.0 / s.T, 1.0 / s.M});
    return out;
}

Scenario cold_collapse() {
    // 300 spheres of radius 1 m and 2000 kg/m^3 at volume fraction 0.1, at rest: bulk density
    // 200 kg/m^3, t_ff = 4697 s. dt = t_ff / 100; 80 steps reach the first bounce of the
    // collapse (about 3,900 collisions, a third of them made elastic by the guards).
    Scenario sc;
    sc.G = 6.6743e-11;
    const std::int64_t n = 300;
    const double r = 1.0;
    const double R_cloud = std::cbrt(static_cast<double>(n) / 0.1) * r;
    Rng rng(18);
    ic::CloudConfig cloud;
    cloud.n = n;
    cloud.size = R_cloud;
    cloud.radii.radius = r;
    cloud.density = 2000.0;
    sc.bodies = ic::make_cloud(cloud, rng);
    const double M = total_mass(sc.bodies);
    const double t_ff =
        std::sqrt(3.0 * pi / (32.0 * sc.G * M / (4.0 / 3.0 * pi * std::pow(R_cloud, 3))));
    sc.dt = t_ff / 100.0;
    // A tenth of what one step of surface gravity of the final pile gives (R_pile at random
    // close packing), as in cloud_collision_collapse_test.cpp.
    const double R_pile = std::cbrt(static_cast<double>(n) / 0.6) * r;
    sc.v_min = 0.1 * sc.G * M / (R_pile * R_pile) * sc.dt;
    sc.steps = 80;
    return sc;
}

// Round-off scale for these 80 steps: each step adds relative errors of a few ulp (1.1e-16)
// per operation to every force sum and every collision, and the collapse amplifies any
// difference (hard-sphere collisions multiply it by about the ratio of free path to radius;
// self-gravity by exp(t / t_dyn)). Measured between these scales: at most 3e-13 in position
// (of the cloud radius) and 1e-11 in velocity (of the fastest body), growing about tenfold
// every 10 steps from step 80 on as the pile forms. 1e-9 leaves a factor 100 above that; a
// unit-dependent guard changes collisions themselves and shows as differences far above it.
constexpr double rel_tol = 1e-9;

void expect_same_run(const Outcome& ref, const Outcome& x, const Scenario& sc, bool bitwise) {
    ASSERT_EQ(x.log.size(), ref.log.size());
    for (std::size_t k = 0; k < ref.log.size(); ++k) {
        ASSERT_EQ(x.log[k].id1, ref.log[k].id1) << "collision " << k;
        ASSERT_EQ(x.log[k].id2, ref.log[k].id2) << "collision " << k;
        if (bitwise)
            ASSERT_EQ(x.log[k].time, ref.log[k].time) << "collision " << k;
        else
            ASSERT_NEAR(x.log[k].time, ref.log[k].time, rel_tol * sc.dt) << "collision " << k;
    }
    ASSERT_EQ(x.bodies.size(), ref.bodies.size());
    if (bitwise) {
        EXPECT_EQ(x.bodies.pos, ref.bodies.pos);
        EXPECT_EQ(x.bodies.vel, ref.bodies.vel);
        EXPECT_EQ(x.bodies.spin, ref.bodies.spin);
        return;
    }
    double size = 0.0, speed = 0.0, spin = 0.0;
    for (std::size_t i = 0; i < ref.bodies.size(); ++i) {
        size = std::max(size, ref.bodies.pos[i].norm());
        speed = std::max(speed, ref.bodies.vel[i].norm());
        spin = std::max(spin, ref.bodies.spin[i].norm());
    }
    for (std::size_t i = 0; i < ref.bodies.size(); ++i) {
        EXPECT_LE((x.bodies.pos[i] - ref.bodies.pos[i]).norm(), rel_tol * size) << i;
        EXPECT_LE((x.bodies.vel[i] - ref.bodies.vel[i]).norm(), rel_tol * speed) << i;
        EXPECT_LE((x.bodies.spin[i] - ref.bodies.spin[i]).norm(), rel_tol * spin) << i;
    }
}

} // namespace

TEST(UnitScaleInvariance, SameCollisionsAndFinalStateAtEveryScale) {
    const Scenario sc = cold_collapse();
    const Outcome ref = run_at(sc, Scale{1.0, 1.0, 1.0});
    // Enough collisions, and the guards at work, for the comparison to mean something.
    ASSERT_GT(ref.log.size(), 1000u);
    ASSERT_GT(ref.elastic_by_guard, 100);

    // Powers of two: bitwise.
    for (const Scale s : {Scale{std::ldexp(1.0, -10), std::ldexp(1.0, 20), std::ldexp(1.0, 40)},
                          Scale{std::ldexp(1.0, 20), std::ldexp(1.0, -7), std::ldexp(1.0, -30)}}) {
        SCOPED_TRACE(testing::Message() << "L = " << s.L << ", T = " << s.T << ", M = " << s.M);
        expect_same_run(ref, run_at(sc, s), sc, true);
    }

    // G = 1 units: the cloud radius and its mass are 1, and T makes G' = 1.
    const double R_cloud = std::cbrt(300.0 / 0.1);
    const double L1 = 1.0 / R_cloud, M1 = 1.0 / total_mass(sc.bodies);
    const double T1 = std::sqrt(sc.G * L1 * L1 * L1 / M1);
    for (const Scale s : {Scale{L1, T1, M1}, Scale{1e-3, 1e3, 1e-6}, Scale{1e6, 1e-2, 1e15},
                          Scale{1e3, 1e5, 1e12}, Scale{1e-3, 1e-3, 1e15}}) {
        SCOPED_TRACE(testing::Message() << "L = " << s.L << ", T = " << s.T << ", M = " << s.M);
        expect_same_run(ref, run_at(sc, s), sc, false);
    }
}
