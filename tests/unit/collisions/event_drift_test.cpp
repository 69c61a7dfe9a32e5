// SPDX-License-Identifier: MIT
// The event-driven drift against an independent brute-force O(N^2) event loop, and the
// classic exact outcomes (Newton's cradle, merging, periodic images).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <queue>
#include <tuple>
#include <vector>

#include "gas.hpp"
#include "rubble/collisions/event_drift.hpp"
#include "rubble/collisions/resolve.hpp"
#include "rubble/core/contact_time.hpp"
#include "rubble/core/error.hpp"

namespace rubble::collisions {
namespace {

struct Hit {
    double time;
    std::int64_t id1, id2;
    bool operator==(const Hit&) const = default;
};

// Reference: every pair predicted at the start, and after each collision the two bodies
// predicted against all N others. Shares only the contact formulas (predict_contact_at,
// resolve_collision) with the engine, not its neighbour search or queue.
std::vector<Hit> brute_force_sequence(Bodies b, double h, const Restitution& eps) {
    const std::size_t n = b.size();
    struct Ev {
        double t;
        std::size_t i, j;
        std::uint32_t ci, cj;
        bool operator>(const Ev& o) const { return std::tie(t, i, j) > std::tie(o.t, o.i, o.j); }
    };
    std::priority_queue<Ev, std::vector<Ev>, std::greater<>> q;
    std::vector<double> t_of(n, 0.0);
    std::vector<std::uint32_t> count(n, 0);
    const auto predict = [&](std::size_t i, std::size_t j, double now) {
        if (i > j) std::swap(i, j);
        const auto t = predict_contact_at(b.pos[i], b.vel[i], t_of[i], b.pos[j], b.vel[j], t_of[j],
                                          b.radius[i] + b.radius[j], now);
        if (t && *t <= h) q.push(Ev{*t, i, j, count[i], count[j]});
    };
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j)
            predict(i, j, 0.0);
    std::vector<Hit> out;
    while (!q.empty()) {
        const Ev e = q.top();
        q.pop();
        if (count[e.i] != e.ci || count[e.j] != e.cj) continue;
        for (const std::size_t k : {e.i, e.j}) {
            b.pos[k] += (e.t - t_of[k]) * b.vel[k];
            t_of[k] = e.t;
        }
        const SphereState si{b.mass[e.i], b.radius[e.i], b.inertia[e.i].x(),
                             b.pos[e.i],  b.vel[e.i],    b.spin[e.i]};
        const SphereState sj{b.mass[e.j], b.radius[e.j], b.inertia[e.j].x(),
                             b.pos[e.j],  b.vel[e.j],    b.spin[e.j]};
        const Outcome o = resolve_collision(si, sj, eps);
        b.vel[e.i] = o.vel1;
        b.vel[e.j] = o.vel2;
        b.spin[e.i] = o.spin1;
        b.spin[e.j] = o.spin2;
        ++count[e.i];
        ++count[e.j];
        out.push_back(Hit{e.t, b.id[e.i], b.id[e.j]});
        for (std::size_t k = 0; k < n; ++k) {
            if (k != e.i && k != e.j) predict(e.i, k, e.t);
        }
        for (std::size_t k = 0; k < n; ++k) {
            if (k != e.i) predict(e.j, k, e.t);
        }
    }
    return out;
}

class AgainstBruteForce : public ::testing::TestWithParam<std::tuple<double, std::uint64_t>> {};

TEST_P(AgainstBruteForce, SameCollisionsInTheSameOrderAtTheSameTimes) {
    const auto [phi, seed] = GetParam();
    test::Gas gas = test::lattice_gas(2000, phi, 1.0, seed);
    // Spins make the outcome depend on the tangential model too.
    Rng rng(seed + 100);
    for (Vec3& w : gas.bodies.spin)
        w = rng.unit_vector();
    // Several mean free times: most bodies collide more than once, chains of re-collisions.
    const double h = 0.6;
    CollisionConfig c;
    c.eps_n = 0.8;
    c.eps_t = 0.7;
    c.log = true;
    const auto reference = brute_force_sequence(gas.bodies, h, Restitution{c.eps_n, c.eps_t});
    EventDrivenDrift engine(c);
    const DriftStats stats = engine.drift(gas.bodies, h, 0.0);
    const auto log = engine.take_log();
    ASSERT_EQ(static_cast<std::size_t>(stats.collisions), log.size());
    std::vector<Hit> got;
    for (const auto& r : log)
        got.push_back(Hit{r.time, r.id1, r.id2});
    ASSERT_GT(reference.size(), 2000u) << "the test needs a dense, busy system";
    ASSERT_EQ(got.size(), reference.size());
    for (std::size_t k = 0; k < got.size(); ++k)
        ASSERT_EQ(got[k], reference[k]) << "collision " << k;
    EXPECT_GT(stats.renewals, 0) << "velocities changed enough to need new regions";
}

// Sizes spread over a factor 10 (neighbourhoods on four grid levels, pairs across levels).
TEST(EventDrift, PolydisperseGasMatchesBruteForce) {
    test::Gas gas = test::lattice_gas(2000, 0.5, 1.0, 5);
    Rng rng(17);
    for (std::size_t i = 0; i < gas.bodies.size(); ++i) {
        // Body and sphere alike (the storage invariants, checked under RUBBLE_DEBUG_CHECKS).
        const double r = gas.bodies.radius[i] * std::pow(10.0, -std::pow(rng.uniform(), 2.0));
        gas.bodies.set_free_sphere(i, gas.bodies.mass[i], r);
        gas.bodies.spin[i] = rng.unit_vector();
    }
    CollisionConfig c;
    c.eps_n = 0.8;
    c.eps_t = 0.7;
    c.log = true;
    const double h = 1.0;
    const auto reference = brute_force_sequence(gas.bodies, h, Restitution{c.eps_n, c.eps_t});
    EventDrivenDrift engine(c);
    const DriftStats stats = engine.drift(gas.bodies, h, 0.0);
    const auto log = engine.take_log();
    ASSERT_GT(reference.size(), 1000u) << "the test needs a busy system";
    ASSERT_EQ(log.size(), reference.size());
    for (std::size_t k = 0; k < log.size(); ++k)
        ASSERT_EQ((Hit{log[k].time, log[k].id1, log[k].id2}), reference[k]) << "collision " << k;
    EXPECT_GT(stats.renewals, 0);
}

INSTANTIATE_TEST_SUITE_P(DenseGases, AgainstBruteForce,
                         ::testing::Combine(::testing::Values(0.3, 0.5),
                                            ::testing::Values(1u, 2u, 3u)));

// A line of touching equal spheres, the first moving: with eps_n = 1 all the momentum ends in
// the last one and the rest stand still (to round-off), through a chain of contacts at t = 0.
TEST(EventDrift, NewtonsCradle) {
    Bodies b;
    const int n = 5;
    for (int i = 0; i < n; ++i)
        b.add_sphere(i, 1.0, 0.5, Vec3(i, 0, 0), Vec3(i == 0 ? 1.0 : 0.0, 0, 0), Vec3::Zero());
    CollisionConfig c;
    c.eps_n = 1.0;
    EventDrivenDrift engine(c);
    const DriftStats s = engine.drift(b, 0.1, 0.0);
    EXPECT_EQ(s.collisions, n - 1);
    for (int i = 0; i < n - 1; ++i)
        EXPECT_NEAR(b.vel[static_cast<std::size_t>(i)].norm(), 0.0, 1e-15) << i;
    EXPECT_NEAR(b.vel[n - 1].x(), 1.0, 1e-15);
    EXPECT_NEAR(b.pos[n - 1].x(), n - 1 + 0.1, 1e-14);
}

// Merging in a drift conserves mass, momentum and angular momentum (orbital + spin) and keeps
// the volume; the survivor is the heavier body.
TEST(EventDrift, MergeConservesMassMomentumAndAngularMomentum) {
    Bodies b;
    b.add_sphere(7, 2.0, 1.0, Vec3(0, 0, 0), Vec3(0.3, 0, 0), Vec3(0, 0, 0.2));
    b.add_sphere(9, 1.0, 0.8, Vec3(3, 0.5, 0), Vec3(-1.0, 0, 0), Vec3(0.1, 0, 0));
    const auto momentum = [](const Bodies& x) {
        Vec3 p = Vec3::Zero();
        for (std::size_t i = 0; i < x.size(); ++i)
            p += x.mass[i] * x.vel[i];
        return p;
    };
    const auto angular = [](const Bodies& x) {
        Vec3 l = Vec3::Zero();
        for (std::size_t i = 0; i < x.size(); ++i)
            l += x.mass[i] * x.pos[i].cross(x.vel[i]) + x.inertia[i].x() * x.spin[i];
        return l;
    };
    const Vec3 p0 = momentum(b), l0 = angular(b);
    CollisionConfig c;
    c.outcome = ContactOutcome::merge;
    EventDrivenDrift engine(c);
    const DriftStats s = engine.drift(b, 2.0, 0.0);
    ASSERT_EQ(s.merges, 1);
    ASSERT_EQ(b.size(), 1u);
    EXPECT_EQ(b.id[0], 7);
    EXPECT_DOUBLE_EQ(b.mass[0], 3.0);
    EXPECT_NEAR(b.radius[0], std::cbrt(1.0 + 0.512), 1e-15);
    EXPECT_LT((momentum(b) - p0).norm(), 1e-15 * p0.norm() + 1e-15);
    EXPECT_LT((angular(b) - l0).norm(), 1e-14 * l0.norm());
}

// A pair on opposite faces of a periodic box meets through the boundary, at the time the
// gap across the boundary closes.
TEST(EventDrift, PeriodicImagesCollideAcrossTheBoundary) {
    Bodies b;
    b.add_sphere(0, 1.0, 0.5, Vec3(-4.0, 0, 0), Vec3(-1.0, 0, 0), Vec3::Zero());
    b.add_sphere(1, 1.0, 0.5, Vec3(4.0, 0, 0), Vec3(1.0, 0, 0), Vec3::Zero());
    CollisionConfig c;
    c.eps_n = 1.0;
    c.periodic_box = 10.0;
    c.log = true;
    EventDrivenDrift engine(c);
    const DriftStats s = engine.drift(b, 1.0, 0.0);
    ASSERT_EQ(s.collisions, 1);
    // Gap across the boundary: 10 - 8 - 1 = 1, closing at 2: contact at t = 0.5.
    EXPECT_NEAR(engine.take_log()[0].time, 0.5, 1e-15);
    EXPECT_NEAR(b.pos[0].x(), -4.0, 1e-14); // out to -4.5, back to -4
    EXPECT_NEAR(b.pos[1].x(), 4.0, 1e-14);
    for (const Vec3& x : b.pos)
        EXPECT_TRUE((x.array() >= -5.0).all() && (x.array() < 5.0).all());
}

TEST(EventDrift, PositionsAreWrappedIntoThePeriodicBox) {
    Bodies b;
    b.add_sphere(0, 1.0, 0.1, Vec3(4.9, 0, 0), Vec3(1.0, 0, 0), Vec3::Zero());
    CollisionConfig c;
    c.periodic_box = 10.0;
    EventDrivenDrift engine(c);
    (void)engine.drift(b, 0.5, 0.0);
    EXPECT_NEAR(b.pos[0].x(), -4.6, 1e-14);
}

} // namespace
} // namespace rubble::collisions
