// SPDX-License-Identifier: MIT
// Contact prediction between spheres of rotating rigid bodies and walls (rigid_wall_predict.hpp):
// a spinning dumbbell over a plane against its analytic contact time, the same in a moving
// frame, and thousands of random spinning aggregates against planes and infinite cylinders
// (inside and outside) against a brute-force predictor that samples the paths finely and
// bisects.
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include "aggregates.hpp"
#include "rubble/boundaries/wall.hpp"
#include "rubble/collisions/rigid_wall_predict.hpp"
#include "rubble/core/random.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/integrate/rotor_path.hpp"
#include "tolerances.hpp"

using namespace rubble;
using boundaries::Wall;
using boundaries::WallShape;
using collisions::PartSphere;
using collisions::predict_rigid_wall_contact;
using collisions::RigidMotion;
using integrate::RotorPath;
using rubble::test::eps;

namespace {

using Body = test::PathBody;
using test::random_path_body;

// The smallest gap between any sphere of the body and the wall at time t (independent of the
// search: the wall's own gap function on the sampled path).
double wall_gap_at(const Body& b, const Wall& w, double t) {
    const Quat q = b.rotor.principal_at(t);
    double g = std::numeric_limits<double>::infinity();
    for (const PartSphere& p : b.parts)
        g = std::min(g, boundaries::wall_gap(w, boundaries::wall_point_at(w, t),
                                             b.pos + t * b.vel + q * p.offset, p.radius)
                            .gap);
    return g;
}

std::optional<double> brute_force(const Body& b, const Wall& w, double h, int samples) {
    double prev = 0.0;
    for (int k = 1; k <= samples; ++k) {
        const double t = h * k / samples;
        if (wall_gap_at(b, w, t) > 0.0) {
            prev = t;
            continue;
        }
        double lo = prev, hi = t;
        while (hi - lo > 2 * eps * hi)
            (wall_gap_at(b, w, 0.5 * (lo + hi)) > 0.0 ? lo : hi) = 0.5 * (lo + hi);
        return hi;
    }
    return std::nullopt;
}

// A dumbbell of two spheres of radius r at +-a along its principal x axis, centred at height z0
// over the plane z = 0, turning about y at w from horizontal: sphere +a sits at height
// z0 - a sin(w t), so it touches at sin(w t) = (z0 - r) / a. About a principal axis the
// splitting's only flow is the exact one about y, so the path is exact.
struct Dumbbell {
    double a = 2.0, r = 0.5, z0 = 2.0, w = 0.7;
    [[nodiscard]] double contact_time() const { return std::asin((z0 - r) / a) / w; }
};

Body dumbbell(const Dumbbell& d, const Vec3& frame_velocity, double h) {
    const double m = 1.0, i_axis = 2 * 0.4 * m * d.r * d.r;
    const double i_perp = i_axis + 2 * m * d.a * d.a;
    Body b;
    b.pos = Vec3(0, 0, d.z0) + Vec3(0.3, -0.2, 0.0); // off the origin
    b.vel = frame_velocity;
    b.parts = {{Vec3(d.a, 0, 0), d.r}, {Vec3(-d.a, 0, 0), d.r}};
    // Turning about +y takes +x towards -z.
    b.rotor = RotorPath(Quat::Identity(), Vec3(0, d.w, 0), Vec3(i_axis, i_perp, i_perp), h);
    return b;
}

} // namespace

TEST(RigidWallPredict, ASpinningDumbbellTouchesAPlaneAtTheAnalyticTime) {
    const Dumbbell d;
    const double h = 3.0;
    const Body b = dumbbell(d, Vec3::Zero(), h);
    Wall floor; // z = 0, bodies above
    const auto c = predict_rigid_wall_contact(b.motion(), b.parts, floor, floor.point, 0.0, h);
    ASSERT_TRUE(c.has_value());
    EXPECT_NEAR(c->time, d.contact_time(), 64 * eps * h);
    EXPECT_EQ(c->part, 0); // the sphere at +a
    // A plane turning about its normal is the same plane: the same contact.
    floor.angular_velocity = 5.0;
    const auto turning =
        predict_rigid_wall_contact(b.motion(), b.parts, floor, floor.point, 0.0, h);
    ASSERT_TRUE(turning.has_value());
    EXPECT_EQ(turning->time, c->time);
}

TEST(RigidWallPredict, ADumbbellAndAWallMovingTogetherMeetAsAtRest) {
    // Galilean invariance: body and wall both carried at V meet when they meet at rest.
    const Dumbbell d;
    const double h = 3.0;
    const Vec3 v(3.0, -1.0, 0.4);
    const Body b = dumbbell(d, v, h);
    Wall floor;
    floor.velocity = v;
    const auto c = predict_rigid_wall_contact(b.motion(), b.parts, floor, floor.point, 0.0, h);
    ASSERT_TRUE(c.has_value());
    EXPECT_NEAR(c->time, d.contact_time(), 64 * eps * h);
    // Too short a drift: none.
    EXPECT_FALSE(predict_rigid_wall_contact(b.motion(), b.parts, floor, floor.point, 0.0,
                                            0.99 * d.contact_time())
                     .has_value());
}

TEST(RigidWallPredict, FiniteCylindersAreNotTaken) {
    Wall can;
    can.shape = WallShape::cylinder;
    can.radius = 5.0;
    can.length = 2.0;
    EXPECT_FALSE(collisions::rigid_bodies_meet(can));
    can.length = 0.0;
    EXPECT_TRUE(collisions::rigid_bodies_meet(can));
    EXPECT_TRUE(collisions::rigid_bodies_meet(Wall{}));
}

TEST(RigidWallPredict, AgreesWithABruteForceSearchOnSpinningAggregates) {
    // Random aggregates of 1 to 10 spheres, moving and spinning up to 3 rad per drift, near a
    // plane, inside a cylinder and outside a post, each wall moving in a third of the trials.
    // Where the brute force (4000 samples per drift, bisected) finds a contact, the prediction
    // equals it to the root's round-off (the clock's, plus the gap's over the gap's rate) and
    // is never later; an earlier prediction must be a true touch that the samples stepped
    // over (zero gap there, positive at every sample before).
    Rng rng(2026);
    const double h = 1.0;
    int contacts = 0, between_samples = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        const int k = 1 + static_cast<int>(rng.uniform() * 10);
        const double spin = trial % 5 == 1 ? 0.0 : rng.uniform(0.0, 3.0);
        Wall w;
        Vec3 x;
        const int shape = trial % 3;
        if (shape == 0) { // a plane with a random normal through the origin
            w.normal = rng.unit_vector();
            x = w.normal * rng.uniform(2.5, 5.0) + rng.in_ball(3.0).cross(w.normal);
        } else {
            w.shape = WallShape::cylinder;
            w.normal = rng.unit_vector();
            w.inside = shape == 1;
            w.radius = w.inside ? rng.uniform(6.0, 9.0) : rng.uniform(1.0, 3.0);
            const Vec3 radial = w.normal.unitOrthogonal();
            const double from_axis =
                w.inside ? w.radius - rng.uniform(2.5, 4.0) : w.radius + rng.uniform(2.5, 4.0);
            x = from_axis * (Quat(Eigen::AngleAxisd(rng.uniform(0, 2 * pi), w.normal)) * radial) +
                rng.uniform(-3.0, 3.0) * w.normal;
        }
        if (trial % 3 == 2) w.velocity = rng.unit_vector() * rng.uniform(0.0, 1.0);
        // Mostly towards the wall (up to 4 m/s), partly across.
        const Vec3 towards = -boundaries::wall_gap(w, w.point, x, 0.0).normal;
        const Vec3 v = towards * rng.uniform(-1.0, 4.0) + rng.unit_vector() * 0.5;
        const Body b = random_path_body(rng, k, x, v, spin, h);
        if (wall_gap_at(b, w, 0.0) <= 0.0) continue; // touching at the start: not this test
        const auto predicted = predict_rigid_wall_contact(b.motion(), b.parts, w, w.point, 0.0, h);
        const auto sampled = brute_force(b, w, h, 4000);
        if (sampled) {
            ASSERT_TRUE(predicted.has_value()) << "missed a contact, trial " << trial;
            ++contacts;
        }
        if (!predicted) continue;
        const double t = predicted->time;
        const double gap_roundoff = 64 * eps * 20.0; // positions ~ 10 m
        EXPECT_LE(std::abs(wall_gap_at(b, w, t)), gap_roundoff) << "trial " << trial;
        if (sampled && t >= *sampled - 1e-9) {
            const double dt = 1e-7;
            const double rate =
                std::abs(wall_gap_at(b, w, t + dt) - wall_gap_at(b, w, t - dt)) / (2 * dt);
            EXPECT_NEAR(t, *sampled, 8 * eps * h + gap_roundoff / std::max(rate, 1e-300))
                << "trial " << trial;
        } else {
            ++between_samples;
            for (int s = 0; s < 4000 && h * s / 4000 < t - 1e-9; ++s)
                ASSERT_GT(wall_gap_at(b, w, h * s / 4000), 0.0) << "trial " << trial;
        }
    }
    EXPECT_GT(contacts, 800); // the test sees many contacts, or it tests nothing
    RecordProperty("contacts", contacts);
    RecordProperty("between_samples", between_samples);
}
