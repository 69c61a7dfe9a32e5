// SPDX-License-Identifier: MIT
// "Bouncing cubes" (Richardson, PiTP lectures, rigid aggregates): cubes of 2 x 2 x 2 spheres
// dropped onto a floor under g, randomly turned and tumbling, come to rest on a face. Exercises
// the whole aggregate path of the event-driven drift against a wall (root search, off-centre
// impulses with Coulomb friction, the inelastic-collapse guards) inside the KDK leapfrog.
#include <algorithm>
#include <array>
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

std::vector<SpherePart> cube_parts() {
    std::vector<SpherePart> parts;
    for (int i = 0; i < 8; ++i)
        parts.push_back(
            {r * Vec3(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1), r, sphere_mass(2500.0, r)});
    return parts;
}

struct Rest {
    double face_tilt;  // rad, angle between the nearest body axis and the vertical
    double height_gap; // m, spread of the four lowest sphere centres' heights
    double lowest;     // m, lowest sphere surface above the floor
    double speed;      // m/s, centre of mass
    double spin;       // rad/s
};

Rest rest_of(const Bodies& b, std::size_t k) {
    const Mat3 rot = b.orientation[k].toRotationMatrix();
    double best = 0.0;
    for (int a = 0; a < 3; ++a)
        best = std::max(best, std::abs(rot(2, a)));
    std::vector<double> z;
    for (std::size_t s = 0; s < b.spheres.size(); ++s)
        if (b.spheres.body[s] == static_cast<std::int64_t>(k)) z.push_back(sphere_centre(b, s).z());
    std::sort(z.begin(), z.end());
    return Rest{std::acos(std::min(best, 1.0)), z[3] - z[0], z[0] - r, b.vel[k].norm(),
                b.spin[k].norm()};
}

} // namespace

TEST(BouncingCubes, CubesDroppedOnAFloorComeToRestOnAFace) {
    // Nine cubes, far enough apart never to meet, each dropped from 0.5 to 1 m with a random
    // orientation, a spin of up to 5 rad/s and 0.3 m/s sideways, onto a floor at z = 0;
    // eps_n = 0.5, Coulomb mu = 0.5, v_min = 2 g dt (a resting cube's kick into the floor,
    // g dt / 2, and its rebound are elastic, docs/collisions.md).
    ic::Rng rng(11);
    Bodies b;
    for (int k = 0; k < 9; ++k) {
        const Vec3 x(2.0 * (k % 3), 2.0 * (k / 3), rng.uniform(0.5, 1.0));
        add_rigid_body(b, k, cube_parts(), x, rng.unit_vector() * 0.3 + Vec3(0, 0, 0),
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
    for (int step = 0; step < 4000; ++step)
        sim.step();
    const Bodies& end = sim.bodies();
    // At rest the KDK leaves a body in its rest cycle (docs/collisions.md, "Walls"): each step
    // it is kicked into the floor at g dt / 2 and bounces elastically (v_min), so its spheres
    // hover within g dt^2 of the floor and its speed is at most g dt. A face down means four
    // spheres at that height: their heights differ by at most the cycle's g dt^2, and the
    // nearest body axis is vertical to within the angle that spread makes across the face,
    // g dt^2 / (2 r).
    for (std::size_t k = 0; k < end.size(); ++k) {
        const Rest s = rest_of(end, k);
        EXPECT_LE(s.height_gap, g * dt * dt) << "cube " << k;
        EXPECT_LE(s.face_tilt, g * dt * dt / (2 * r)) << "cube " << k;
        EXPECT_LE(std::abs(s.lowest), g * dt * dt) << "cube " << k;
        EXPECT_LE(s.speed, g * dt) << "cube " << k;
        EXPECT_LE(s.spin * 2 * r, g * dt) << "cube " << k;
        RecordProperty("tilt_" + std::to_string(k), std::to_string(s.face_tilt));
    }
}
