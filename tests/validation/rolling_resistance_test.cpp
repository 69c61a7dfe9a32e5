// SPDX-License-Identifier: MIT
// Rolling and twisting resistance of the non-smooth contact stepper (collisions.mu_roll,
// mu_twist; contact_solver.hpp): the angular impulse of a contact is bounded by mu_roll R
// gamma_n about the tangents and mu_twist R gamma_n about the normal (Tasora & Anitescu
// 2013), with R the contact's rolling radius (a sphere on a wall: its radius). A solid ball
// (I = 2/5 m R^2) of mass m rolling without slipping on a floor under g then decelerates at
// a = 5/7 mu_roll g (m a = -F, I a / R = F R - mu_roll R m g) and stops after 7 v0^2 / (10
// mu_roll g); on a slope of angle theta it holds while tan(theta) <= mu_roll and rolls down at
// 5/7 g (sin(theta) - mu_roll cos(theta)) beyond; a ball spinning about the vertical stops
// after 2/5 R w0 / (mu_twist g).
//
// Tolerances: each step applies the bound's impulse exactly (the solve is tight), so speeds
// follow the analytic ones to a step's change (a dt) and places to a step's travel (v dt);
// at rest the solver's tolerance times the contact speeds (g dt) bounds any creep.
#include <cmath>
#include <memory>

#include <gtest/gtest.h>

#include "rubble/core/rigid_body.hpp"
#include "rubble/gravity/no_gravity.hpp"
#include "rubble/integrate/simulation.hpp"
#include "rubble/polyhedra/nsc_stepper.hpp"

using namespace rubble;

namespace {

constexpr double g_rolling = 9.81;   // m/s^2
constexpr double rho_rolling = 2500; // kg/m^3
constexpr double radius_rolling = 0.1;
constexpr double dt_rolling = 1e-3;

// One ball resting on the floor z = 0 under a field of g_rolling at angle theta from the
// vertical (in the xz plane), moving at v along x and turning at w, with a tight PGS solve.
integrate::Simulation ball_on_floor(double theta, double v, const Vec3& w, double mu_roll,
                                    double mu_twist) {
    polyhedra::NscConfig c;
    c.mu = 0.6;
    c.eps_n = 0.0;
    c.solver.method = polyhedra::ContactMethod::pgs;
    c.solver.tolerance = 1e-10;
    c.solver.max_iterations = 500;
    c.solver.coulomb_max_iterations = 1;
    c.mu_roll = mu_roll;
    c.mu_twist = mu_twist;
    boundaries::Wall floor;
    floor.name = "floor";
    floor.normal = Vec3::UnitZ();
    c.walls.push_back(floor);
    Bodies b;
    b.add_sphere(1, sphere_mass(rho_rolling, radius_rolling), radius_rolling,
                 Vec3(0, 0, radius_rolling), Vec3(v, 0, 0), w);
    integrate::Simulation sim(std::move(b), std::make_unique<gravity::NoGravity>(), dt_rolling);
    sim.set_uniform_field(g_rolling * Vec3(std::sin(theta), 0, -std::cos(theta)));
    sim.set_stepper(std::make_unique<polyhedra::NscStepper>(c));
    return sim;
}

// The ball's velocity in the drift of the last step: the stored one (after the step's closing
// half kick of the field) less that half kick.
Vec3 drift_velocity(const integrate::Simulation& sim, double theta) {
    return sim.bodies().vel[0] -
           0.5 * dt_rolling * g_rolling * Vec3(std::sin(theta), 0, -std::cos(theta));
}

} // namespace

TEST(RollingResistance, ARollingBallStopsWhereItsResistanceSays) {
    constexpr double v0 = 1.0, mu_roll = 0.05;
    // Rolling without slipping: v + w x (-R z) = 0.
    integrate::Simulation sim =
        ball_on_floor(0.0, v0, Vec3(0, v0 / radius_rolling, 0), mu_roll, 0.0);
    const double a = 5.0 / 7.0 * mu_roll * g_rolling;
    const double t_stop = v0 / a, distance = v0 * v0 / (2.0 * a);
    while (sim.time() < 0.5 * t_stop)
        sim.step();
    EXPECT_NEAR(sim.bodies().vel[0].x(), v0 - a * sim.time(), 2.0 * a * dt_rolling);
    while (sim.time() < t_stop + 1.0)
        sim.step();
    const Bodies& b = sim.bodies();
    EXPECT_NEAR(b.pos[0].x(), distance, 2.0 * v0 * dt_rolling);
    EXPECT_LT(drift_velocity(sim, 0.0).norm(), 1e-6 * g_rolling * dt_rolling);
    EXPECT_LT(b.spin[0].norm() * radius_rolling, 1e-6 * g_rolling * dt_rolling);
    // Without it the ball rolls on at v0 (nothing else takes its energy).
    integrate::Simulation free = ball_on_floor(0.0, v0, Vec3(0, v0 / radius_rolling, 0), 0, 0);
    while (free.time() < 1.0)
        free.step();
    EXPECT_NEAR(drift_velocity(free, 0.0).x(), v0, 1e-6 * g_rolling * dt_rolling);
}

TEST(RollingResistance, ABallHoldsOnASlopeBelowItsResistanceAndRollsDownAbove) {
    constexpr double mu_roll = 0.1, t_end = 1.0;
    const double holding = std::atan(0.5 * mu_roll), rolling = std::atan(2.0 * mu_roll);
    integrate::Simulation held = ball_on_floor(holding, 0, Vec3::Zero(), mu_roll, 0.0);
    while (held.time() < t_end)
        held.step();
    EXPECT_LT(std::abs(held.bodies().pos[0].x()), 1e-6 * g_rolling * dt_rolling * t_end);
    EXPECT_LT(drift_velocity(held, holding).norm(), 1e-6 * g_rolling * dt_rolling);
    integrate::Simulation rolls = ball_on_floor(rolling, 0, Vec3::Zero(), mu_roll, 0.0);
    while (rolls.time() < t_end)
        rolls.step();
    const double a = 5.0 / 7.0 * g_rolling * (std::sin(rolling) - mu_roll * std::cos(rolling));
    const double t = rolls.time();
    EXPECT_NEAR(drift_velocity(rolls, rolling).x(), a * t, 2.0 * a * dt_rolling);
    EXPECT_NEAR(rolls.bodies().pos[0].x(), 0.5 * a * t * t, 2.0 * a * t * dt_rolling);
    // It rolls (its contact point at rest), it does not slide.
    const Vec3 contact =
        drift_velocity(rolls, rolling) + rolls.bodies().spin[0].cross(Vec3(0, 0, -radius_rolling));
    EXPECT_LT(contact.norm(), 1e-6 * g_rolling * dt_rolling);
}

TEST(RollingResistance, ABallSpinningAboutTheVerticalStopsWhereItsTwistingResistanceSays) {
    constexpr double w0 = 10.0, mu_twist = 0.05;
    integrate::Simulation sim = ball_on_floor(0.0, 0.0, Vec3(0, 0, w0), 0.0, mu_twist);
    // I dw/dt = -mu_twist R m g with I = 2/5 m R^2.
    const double alpha = mu_twist * g_rolling / (0.4 * radius_rolling);
    const double t_stop = w0 / alpha;
    while (sim.time() < 0.5 * t_stop)
        sim.step();
    EXPECT_NEAR(sim.bodies().spin[0].z(), w0 - alpha * sim.time(), 2.0 * alpha * dt_rolling);
    while (sim.time() < t_stop + 0.2)
        sim.step();
    EXPECT_LT(sim.bodies().spin[0].norm() * radius_rolling, 1e-6 * g_rolling * dt_rolling);
    EXPECT_LT(sim.bodies().pos[0].head<2>().norm(), 1e-9 * radius_rolling);
}
