// SPDX-License-Identifier: MIT
// The engine's sequence of pair and wall contacts against an independent event loop that finds
// wall contacts without the engine's predictor: it samples each straight path's gap to the
// wall finely and bisects the first sign change (pairs by predict_contact_at, shared with the
// engine as in tests/unit/collisions/event_drift_test.cpp). Both resolve with the same pure
// functions, so the sequences agree contact for contact, at times equal to the bisection's
// resolution (the bisected root differs from the closed form by round-off, and that difference
// is carried, amplified by the few collisions per body of the drift).
#include <gtest/gtest.h>

#include <cmath>
#include <queue>
#include <tuple>
#include <vector>

#include "gas.hpp"
#include "rubble/boundaries/wall.hpp"
#include "rubble/collisions/event_drift.hpp"
#include "rubble/collisions/resolve.hpp"
#include "rubble/collisions/wall_resolve.hpp"
#include "rubble/core/contact_time.hpp"

namespace rubble::boundaries {
namespace {

using collisions::resolve_wall_contact;
using collisions::WallOutcome;

using collisions::Restitution;
using collisions::SphereState;

struct Hit {
    double time;
    std::int64_t id1, id2; // a wall k as -1 - k, as in the engine's log
};

// Earliest t in [now, h] at which a sphere (x at time now, velocity v) touches wall w while
// moving into it: the gap sampled at 4000 points, then 200 bisections of the first interval
// where it turns negative. Overlapping and moving in at `now`: now.
std::optional<double> sampled_contact(const Wall& w, const Vec3& p0, const Vec3& x, const Vec3& v,
                                      double r, double now, double h) {
    const auto gap = [&](double t) {
        return wall_gap(w, p0 + t * w.velocity, x + (t - now) * v, r).gap;
    };
    const auto closing = [&](double t) {
        const WallGap g = wall_gap(w, p0 + t * w.velocity, x + (t - now) * v, r);
        return (v - w.velocity).dot(g.normal) < 0.0;
    };
    if (gap(now) <= 0.0) {
        if (closing(now)) return now;
        return std::nullopt; // (leaving an overlap; does not happen in this test)
    }
    constexpr int samples = 4000;
    double lo = now;
    for (int k = 1; k <= samples; ++k) {
        double hi = now + (h - now) * k / samples;
        if (gap(hi) <= 0.0) {
            for (int it = 0; it < 200 && lo < hi; ++it) {
                const double mid = 0.5 * (lo + hi);
                if (mid <= lo || mid >= hi) break;
                if (gap(mid) > 0.0) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            return hi;
        }
        lo = hi;
    }
    return std::nullopt;
}

std::vector<Hit> reference_sequence(Bodies b, const std::vector<Wall>& walls, double h,
                                    const Restitution& restitution) {
    const std::size_t n = b.size();
    struct Ev {
        double t;
        std::size_t i;
        std::int64_t j; // >= 0 body, < 0 wall -1 - k
        std::uint32_t ci, cj;
        bool operator>(const Ev& o) const { return std::tie(t, i, j) > std::tie(o.t, o.i, o.j); }
    };
    std::priority_queue<Ev, std::vector<Ev>, std::greater<>> q;
    std::vector<double> t_of(n, 0.0);
    std::vector<std::uint32_t> count(n, 0);
    const auto predict_pair = [&](std::size_t i, std::size_t j, double now) {
        if (i > j) std::swap(i, j);
        const auto t = predict_contact_at(b.pos[i], b.vel[i], t_of[i], b.pos[j], b.vel[j], t_of[j],
                                          b.radius[i] + b.radius[j], now);
        if (t && *t <= h) q.push(Ev{*t, i, static_cast<std::int64_t>(j), count[i], count[j]});
    };
    const auto predict_walls = [&](std::size_t i) {
        for (std::size_t k = 0; k < walls.size(); ++k) {
            const auto t = sampled_contact(walls[k], walls[k].point, b.pos[i], b.vel[i],
                                           b.radius[i], t_of[i], h);
            if (t) q.push(Ev{*t, i, -1 - static_cast<std::int64_t>(k), count[i], 0});
        }
    };
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = i + 1; j < n; ++j)
            predict_pair(i, j, 0.0);
        predict_walls(i);
    }
    std::vector<Hit> out;
    const auto state = [&](std::size_t i) {
        return SphereState{b.mass[i], b.radius[i], b.inertia[i].x(), b.pos[i], b.vel[i], b.spin[i]};
    };
    while (!q.empty()) {
        const Ev e = q.top();
        q.pop();
        if (count[e.i] != e.ci) continue;
        if (e.j >= 0 && count[static_cast<std::size_t>(e.j)] != e.cj) continue;
        const auto advance = [&](std::size_t k) {
            b.pos[k] += (e.t - t_of[k]) * b.vel[k];
            t_of[k] = e.t;
        };
        advance(e.i);
        if (e.j < 0) {
            const Wall& w = walls[static_cast<std::size_t>(-1 - e.j)];
            const Vec3 p = w.point + e.t * w.velocity;
            const SphereState s = state(e.i);
            const Vec3 nrm = wall_gap(w, p, s.pos, s.radius).normal;
            const Vec3 uw = surface_velocity(w, p, s.pos - s.radius * nrm);
            const WallOutcome o = resolve_wall_contact(s, nrm, uw, restitution);
            b.vel[e.i] = o.vel;
            b.spin[e.i] = o.spin;
            ++count[e.i];
            out.push_back(Hit{e.t, e.j, b.id[e.i]});
            for (std::size_t k = 0; k < n; ++k)
                if (k != e.i) predict_pair(e.i, k, e.t);
            predict_walls(e.i);
            continue;
        }
        const auto j = static_cast<std::size_t>(e.j);
        advance(j);
        const auto o = collisions::resolve_collision(state(e.i), state(j), restitution);
        b.vel[e.i] = o.vel1;
        b.vel[j] = o.vel2;
        b.spin[e.i] = o.spin1;
        b.spin[j] = o.spin2;
        ++count[e.i];
        ++count[j];
        out.push_back(Hit{e.t, b.id[e.i], b.id[j]});
        for (const std::size_t a : {e.i, j}) {
            for (std::size_t k = 0; k < n; ++k)
                if (k != e.i && k != j) predict_pair(a, k, e.t);
            predict_walls(a);
        }
        predict_pair(e.i, j, e.t);
    }
    return out;
}

TEST(WallSequence, EngineMatchesASampledAndBisectedReference) {
    // 343 spheres (packing 0.2) in a closed box around a turning post, spins random, eps_n =
    // 0.8, eps_t = 0.7: the post's rotation enters every contact with it.
    test::Gas gas = test::lattice_gas(343, 0.2, 1.0, 3);
    const double half = 0.5 * gas.box;
    std::vector<Wall> walls =
        box_walls(Vec3::Constant(-half), Vec3::Constant(half), Vec3::Zero(), "walls[0]");
    Wall post;
    post.shape = WallShape::cylinder;
    post.normal = Vec3(0.3, 0.2, 1.0).normalized();
    post.radius = 0.4;
    post.inside = false;
    post.angular_velocity = 3.0;
    post.name = "walls[1]";
    walls.push_back(post);
    Bodies b;
    Rng rng(9);
    for (std::size_t i = 0; i < gas.bodies.size(); ++i) {
        if (wall_gap(post, post.point, gas.bodies.pos[i], gas.radius).gap <= 0.0) continue;
        b.add_sphere(gas.bodies.id[i], 1.0, gas.radius, gas.bodies.pos[i], gas.bodies.vel[i],
                     rng.unit_vector());
    }
    collisions::CollisionConfig c;
    c.eps_n = 0.8;
    c.eps_t = 0.7;
    c.log = true;
    c.walls = walls;
    const double h = 0.5; // about two contacts per body
    const auto reference = reference_sequence(b, walls, h, Restitution{c.eps_n, c.eps_t});
    collisions::EventDrivenDrift engine(c);
    (void)engine.drift(b, h, 0.0);
    const auto log = engine.take_log();
    int on_walls = 0, on_post = 0;
    ASSERT_EQ(log.size(), reference.size());
    for (std::size_t k = 0; k < log.size(); ++k) {
        ASSERT_EQ(log[k].id1, reference[k].id1) << "contact " << k;
        ASSERT_EQ(log[k].id2, reference[k].id2) << "contact " << k;
        // Bisection to the last bit of t, then amplified through a few collisions.
        ASSERT_NEAR(log[k].time, reference[k].time, 1e-9 * h) << "contact " << k;
        on_walls += log[k].id1 < 0;
        on_post += log[k].id1 == -7;
    }
    EXPECT_GT(log.size(), 300u);
    EXPECT_GT(on_walls, 60);
    EXPECT_GT(on_post, 5);
}

} // namespace
} // namespace rubble::boundaries
