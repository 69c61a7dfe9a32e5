// SPDX-License-Identifier: MIT
// "Bouncing cubes" (Richardson, PiTP lectures, rigid aggregates): cubes of 2 x 2 x 2 spheres
// dropped onto a floor under g, randomly turned and tumbling, come to rest on a face. Exercises
// the whole aggregate path of the event-driven drift against a wall (root search, off-centre
// impulses with Coulomb friction, the inelastic-collapse guards) inside the KDK leapfrog.
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "aggregates.hpp"
#include "rubble/boundaries/wall.hpp"
#include "rubble/collisions/event_drift.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/gravity/no_gravity.hpp"
#include "rubble/integrate/simulation.hpp"

using namespace rubble;

namespace {

constexpr double g = 9.81;  // m/s^2
constexpr double r = 0.05;  // m, sphere radius: cube edge 4 r
constexpr double dt = 1e-3; // s

// The angle (rad) between the vertical and the nearest of body k's axes (a face's normal).
double face_tilt(const Bodies& b, std::size_t k) {
    const Mat3 rot = b.orientation[k].toRotationMatrix();
    double best = 0.0;
    for (int axis = 0; axis < 3; ++axis)
        best = std::max(best, std::abs(rot(2, axis)));
    return std::acos(std::min(best, 1.0));
}

} // namespace

TEST(BouncingCubes, CubesDroppedOnAFloorComeToRestOnAFace) {
    // Nine cubes, far enough apart never to meet, each dropped from 0.5 to 1 m with a random
    // orientation, a spin of up to 5 rad/s and 0.3 m/s sideways, onto a floor at z = 0;
    // eps_n = 0.5, Coulomb mu = 0.5, v_min = 2 g dt (a resting cube's kick into the floor,
    // g dt / 2, and its rebound are elastic, docs/collisions.md).
    Rng rng(11);
    Bodies b;
    for (int k = 0; k < 9; ++k) {
        const Vec3 x(2.0 * (k % 3), 2.0 * (k / 3), rng.uniform(0.5, 1.0));
        add_rigid_body(b, k, test::cube_parts(r, 2500.0), x,
                       rng.unit_vector() * 0.3 + Vec3(0, 0, 0),
                       rng.unit_vector() * rng.uniform(0.0, 5.0), test::random_rotation(rng));
    }
    collisions::CollisionConfig c;
    c.eps_n = 0.5;
    c.mu = 0.5;
    c.v_min = 2 * g * dt;
    c.f_crit = 1e-3;
    c.walls = {boundaries::Wall{}};
    integrate::Simulation sim(std::move(b), std::make_unique<gravity::NoGravity>(), dt);
    sim.set_uniform_field(Vec3(0, 0, -g));
    sim.set_stepper(std::make_unique<collisions::EventDrivenDrift>(c));
    std::int64_t overlaps = 0;
    for (int step = 0; step < 4000; ++step) {
        sim.step();
        overlaps += sim.last_stats().overlaps;
    }
    const Bodies& end = sim.bodies();
    // A cube of edge a = 4 r resting on a face has its centre of mass at a / 2; to tip onto an
    // edge it must be lifted to a / sqrt(2): the barrier M g (a / 2)(sqrt(2) - 1). At rest the
    // event-driven drift cannot be still: a resting body is kicked into the floor each step and
    // impacts below v_min are elastic, so its corners keep jittering at about v_min (the
    // guard's floor, docs/collisions.md). "At rest on a face" is therefore: the energy above
    // the face's minimum, kinetic + M g (z - a / 2), is a small fraction of the barrier, which
    // a cube on an edge (the whole barrier) or still tumbling cannot meet. The jitter's own
    // energy, (1/2) M (few v_min)^2 with v_min = 2 g dt, is 1e-3 of the barrier here; the test
    // allows 1e-2. The tilt this energy allows: for small tilts the potential rises as
    // M g (a / 2) theta, so theta <= 1e-2 (sqrt(2) - 1).
    const double a = 4 * r;
    for (std::size_t k = 0; k < end.size(); ++k) {
        const double m = end.mass[k];
        const double kinetic = 0.5 * m * end.vel[k].squaredNorm() +
                               0.5 * end.spin[k].dot(inertia_tensor(end, k) * end.spin[k]);
        const double excess = kinetic + m * g * (end.pos[k].z() - 0.5 * a);
        const double barrier = m * g * 0.5 * a * (std::sqrt(2.0) - 1.0);
        EXPECT_LE(excess, 1e-2 * barrier) << "cube " << k;
        EXPECT_GE(excess, -1e-6 * barrier) << "cube " << k << " sunk into the floor";
        EXPECT_LE(face_tilt(end, k), 1e-2 * (std::sqrt(2.0) - 1.0)) << "cube " << k;
        RecordProperty("excess_over_barrier_" + std::to_string(k),
                       std::to_string(excess / barrier));
    }
    EXPECT_EQ(overlaps, 0);
}
