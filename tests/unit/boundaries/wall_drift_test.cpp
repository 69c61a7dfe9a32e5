// SPDX-License-Identifier: MIT
// Walls inside the event-driven drift, against what the KDK leapfrog and the restitution model
// predict exactly: a ball bouncing on a floor under uniform g (the discrete map of its energy,
// then the rest cycle), a sliding ball brought to rolling at 5/7 of its speed, an elastic gas
// overlaps with walls and the refusal to go on colliding for ever (the elastic gas in a closed
// box: tests/validation/box_gas_test.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "rubble/boundaries/wall.hpp"
#include "rubble/collisions/event_drift.hpp"
#include "rubble/core/error.hpp"
#include "rubble/gravity/no_gravity.hpp"
#include "rubble/integrate/simulation.hpp"
#include "tolerances.hpp"

namespace rubble::boundaries {
namespace {

using collisions::CollisionConfig;
using collisions::EventDrivenDrift;
using test::eps;

Wall floor_at(double z) {
    Wall w;
    w.shape = WallShape::plane;
    w.point = Vec3(0, 0, z);
    w.normal = Vec3::UnitZ();
    w.name = "walls[0] (plane)";
    return w;
}

CollisionConfig config_with(std::vector<Wall> walls, double eps_n, double eps_t) {
    CollisionConfig c;
    c.eps_n = eps_n;
    c.eps_t = eps_t;
    c.log = true;
    c.walls = std::move(walls);
    return c;
}

integrate::Simulation ball_simulation(const Vec3& x, const Vec3& v, double radius, double dt,
                                      const Vec3& g, const CollisionConfig& c) {
    Bodies b;
    b.add_sphere(1, 1.0, radius, x, v, Vec3::Zero());
    integrate::Simulation sim(std::move(b), std::make_unique<gravity::NoGravity>(), dt);
    sim.set_uniform_field(g);
    sim.set_stepper(std::make_unique<EventDrivenDrift>(c));
    return sim;
}

// A ball dropped on a floor under g. Within a drift it moves on a straight line with the
// half-step velocity u, so the contact is not the parabola's: what is exact is this. With
// z the height of the centre above contact and v the synchronised (full-step) velocity, the
// kicks and drifts keep E = v^2/2 + g z exactly between contacts (v_{n+1}^2 - v_n^2 =
// -2 g (z_{n+1} - z_n) for constant g); the apex of the parabola through the step points is
// H = E / g. A contact t_c into a drift at speed |u| gives, from z_{n+1} = eps |u| (h - t_c)
// and v_{n+1} = eps |u| - g h/2,
//   E' = eps^2 E + g eps (1 + eps) |u| (h/2 - t_c) + (1 - eps^2) g^2 h^2 / 8.
// So heights follow H eps^(2k) only to O(|u| h + g h^2) per bounce; the map holds to
// round-off. Below about g h the ball settles into the KDK's rest cycle: one contact per
// step at u* = -g h / (1 + eps), leaving it at z* = eps g h^2 / (1 + eps)^2 at every step.
TEST(WallDrift, BallOnAFloorFollowsTheKdkMapThenRests) {
    const double g = 9.81, h = 1e-3, e = 0.8, radius = 0.1, drop = 1.0;
    integrate::Simulation sim = ball_simulation(Vec3(0, 0, drop + radius), Vec3::Zero(), radius, h,
                                                Vec3(0, 0, -g), config_with({floor_at(0.0)}, e, 1));
    const auto energy = [&] {
        const double z = sim.bodies().pos[0].z() - radius, v = sim.bodies().vel[0].z();
        return 0.5 * v * v + g * z;
    };
    double E = energy(); // = g drop
    const double E0 = E;
    double bound = 0.0; // on |H_k - eps^(2k) H_0|, accumulated from the per-bounce terms
    int bounces = 0;
    const int steps = 6000;
    std::vector<int> contact_steps;
    for (int step = 0; step < steps; ++step) {
        const double t_start = sim.time();
        sim.step();
        const auto log = sim.stepper().take_log();
        ASSERT_LE(log.size(), 1u) << "a straight drift meets a plane at most once";
        const double E_new = energy();
        if (log.empty()) {
            EXPECT_NEAR(E_new, E, 16 * eps * E0) << step;
        } else {
            const double u = log[0].normal_speed, tc = log[0].time - t_start;
            const double predicted =
                e * e * E + g * e * (1 + e) * u * (0.5 * h - tc) + (1 - e * e) * g * g * h * h / 8;
            EXPECT_NEAR(E_new, predicted, 64 * eps * E0) << "bounce " << bounces;
            bound = e * e * bound + e * (1 + e) * u * 0.5 * h + (1 - e * e) * g * h * h / 8;
            ++bounces;
            if (bounces <= 12) {
                // Apex heights against h eps^(2k), within the derived bound.
                EXPECT_NEAR(E_new / g, drop * std::pow(e, 2 * bounces), bound + 1e-12 * drop)
                    << "bounce " << bounces;
            }
            contact_steps.push_back(step);
        }
        E = E_new;
    }
    // The rest cycle: from some step on, a contact every step, and the ball stands at z*.
    const double z_star = e * g * h * h / ((1 + e) * (1 + e));
    EXPECT_NEAR(sim.bodies().pos[0].z() - radius, z_star, 1e-6 * z_star);
    std::size_t first = contact_steps.size();
    while (first > 0 &&
           contact_steps[first - 1] == steps - 1 - static_cast<int>(contact_steps.size() - first))
        --first;
    EXPECT_GT(contact_steps.size() - first, 1000u);
    // Bounded: a flight of two steps or more needs a speed above about g h / 2 after the
    // bounce, and the speeds fall by eps per bounce, so the flights before the rest cycle are
    // at most log(sqrt(2 g drop) / (g h / 2)) / log(1 / eps), plus one for the O(g h) terms.
    const double flights = std::log(std::sqrt(2 * g * drop) / (0.5 * g * h)) / std::log(1 / e);
    EXPECT_LE(static_cast<double>(first), flights + 1.0);
}

// A ball sliding on a floor under g (eps_t < 1): each contact sets the contact point's
// tangential velocity u_t to eps_t u_t (the restitution model), and nothing else changes it
// between contacts (g is normal to the floor), so after k contacts |u_t| = eps_t^k |u_t0|.
// The impulses act at the contact point, so the angular momentum about it, m R v + I w, is
// kept: with u_t = 0 (v = w R, rolling) that is v = m R v0 / (m R + I / R) = 5/7 v0 for a
// solid sphere, whatever eps_t.
TEST(WallDrift, SlidingBallReachesRollingAtFiveSevenths) {
    const double g = 9.81, h = 1e-3, radius = 0.1, v0 = 1.0, et = 0.5;
    integrate::Simulation sim =
        ball_simulation(Vec3(0, 0, radius), Vec3(v0, 0, 0), radius, h, Vec3(0, 0, -g),
                        config_with({floor_at(0.0)}, 0.5, et));
    std::vector<double> ut;
    for (int step = 0; step < 200; ++step) {
        sim.step();
        for (const auto& r : sim.stepper().take_log())
            ut.push_back(r.tangential_speed);
    }
    ASSERT_GT(ut.size(), 60u);
    EXPECT_EQ(ut[0], v0);
    for (std::size_t k = 1; k < ut.size(); ++k)
        EXPECT_NEAR(ut[k], et * ut[k - 1], 16 * eps * v0) << k;
    // After 60 contacts |u_t| < 0.5^60 v0: rolling to round-off.
    const Vec3 v = sim.bodies().vel[0], w = sim.bodies().spin[0];
    EXPECT_NEAR(v.x(), 5.0 / 7.0 * v0, 64 * eps * v0);
    EXPECT_NEAR(w.y() * radius, 5.0 / 7.0 * v0, 64 * eps * v0);
    EXPECT_EQ(v.y(), 0.0);
}

TEST(WallDrift, OverlapWithAWallAbortsNamingBodyWallAndDepth) {
    Bodies b;
    b.add_sphere(42, 1.0, 1.0, Vec3(0, 0, 0.75), Vec3::Zero(), Vec3::Zero());
    EventDrivenDrift drift(config_with({floor_at(0.0)}, 0.5, 1.0));
    try {
        (void)drift.drift(b, 1.0, 0.0);
        FAIL() << "no error";
    } catch (const PhysicsError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("body 42"), std::string::npos) << what;
        EXPECT_NE(what.find("walls[0] (plane)"), std::string::npos) << what;
        EXPECT_NE(what.find("2.500e-01 m"), std::string::npos) << what;
    }
}

TEST(WallDrift, TraceBackAndPushApartClearTheWall) {
    for (const auto strategy :
         {collisions::OverlapStrategy::trace_back, collisions::OverlapStrategy::push_apart}) {
        Bodies b;
        b.add_sphere(1, 1.0, 1.0, Vec3(0, 0, 0.75), Vec3(0, 0, -0.5), Vec3::Zero());
        CollisionConfig c = config_with({floor_at(0.0)}, 1.0, 1.0);
        c.overlaps = strategy;
        EventDrivenDrift drift(c);
        const auto s = drift.drift(b, 0.25, 0.0);
        EXPECT_EQ(s.overlaps, 1);
        if (strategy == collisions::OverlapStrategy::trace_back) {
            // Touched 0.5 s ago: bounced then, now 0.5 s + 0.25 s out at 0.5 m/s.
            EXPECT_NEAR(b.pos[0].z(), 1.375, 8 * eps);
            EXPECT_EQ(b.vel[0].z(), 0.5);
        } else {
            // Pushed to touching, then the contact of the drift bounces it (elastic).
            EXPECT_NEAR(b.pos[0].z(), 1.125, 8 * eps);
            EXPECT_EQ(b.vel[0].z(), 0.5);
        }
    }
}

TEST(WallDrift, WallContactsCountTowardsMaxPerBody) {
    // A sphere trapped in a tube barely wider than itself, moving across it fast: thousands of
    // contacts in one drift stop the run as pairs would.
    Bodies b;
    b.add_sphere(5, 1.0, 1.0, Vec3::Zero(), Vec3(1e4, 0, 0), Vec3::Zero());
    CollisionConfig c = config_with(
        box_walls(Vec3(-1.5, -2, -2), Vec3(1.5, 2, 2), Vec3::Zero(), "walls[0]"), 1.0, 1.0);
    c.max_per_body = 100;
    EventDrivenDrift drift(c);
    EXPECT_THROW((void)drift.drift(b, 1.0, 0.0), PhysicsError);
}

} // namespace
} // namespace rubble::boundaries
