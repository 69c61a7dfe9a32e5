// SPDX-License-Identifier: MIT
// The event-driven drift with rigid aggregates (issue 20, items 3 and 4): the full sequence of
// contacts in a dense system of spinning aggregates and free spheres against a brute-force
// event loop that samples the exact paths finely and bisects; momentum and angular momentum
// over drifts full of off-centre contacts; no overlap left behind.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "aggregates.hpp"
#include "rubble/collisions/event_drift.hpp"
#include "rubble/collisions/rigid_impulse.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/integrate/diagnostics.hpp"
#include "tolerances.hpp"

namespace rubble::collisions {
namespace {

using test::eps;

// n lumpy aggregates of k spheres and free spheres between them (aggregates.hpp),
// falling together: each moves towards the centroid at 0.4 of its distance per second plus a
// random 0.3 m/s, spinning at up to w_max.
Bodies converging_cloud(int n, int k, double w_max, std::uint64_t seed) {
    Bodies b = test::aggregate_cloud(n, k, w_max, seed);
    Rng rng(seed + 1);
    Vec3 centre = Vec3::Zero();
    for (std::size_t i = 0; i < b.size(); ++i)
        centre += b.pos[i] / static_cast<double>(b.size());
    for (std::size_t i = 0; i < b.size(); ++i)
        b.vel[i] = -0.4 * (b.pos[i] - centre) + rng.in_ball(0.3);
    return b;
}

CollisionConfig aggregate_config() {
    CollisionConfig c;
    c.eps_n = 0.7;
    c.eps_t = 0.6;
    c.log = true;
    c.max_per_body = 200;
    return c;
}

struct Hit {
    double time;
    std::int64_t id1, id2;
};

// Reference: every body's path from its last contact (the same rotor paths as the drift), the
// smallest gap over all pairs of spheres of different bodies sampled `samples` times per drift,
// the first sampled interval where some pair's gap turns non-positive bisected for each pair
// that crosses in it, the earliest taken and resolved with the same impulse. Shares with the
// engine only the paths (RotorPath) and the impulse (resolve_rigid_contact), not its
// prediction, neighbour search or queue.
std::vector<Hit> brute_force_sequence(Bodies b, double h, const CollisionConfig& config,
                                      int samples) {
    const std::size_t n = b.size();
    std::vector<std::vector<PartSphere>> parts(n);
    for (std::size_t s = 0; s < b.spheres.size(); ++s) {
        const auto k = static_cast<std::size_t>(b.spheres.body[s]);
        parts[k].push_back(
            PartSphere{b.principal_axes[k].conjugate() * b.spheres.offset[s], b.spheres.radius[s]});
    }
    std::vector<double> since(n, 0.0);
    std::vector<integrate::RotorPath> rotor(n);
    for (std::size_t k = 0; k < n; ++k)
        rotor[k] = integrate::RotorPath(principal_to_inertial(b, k), b.spin[k], b.inertia[k], h);
    const auto centres = [&](std::size_t k, double t) {
        const Quat q = rotor[k].principal_at(t - since[k]);
        std::vector<Vec3> out;
        for (const PartSphere& p : parts[k])
            out.push_back(b.pos[k] + (t - since[k]) * b.vel[k] + q * p.offset);
        return out;
    };
    const auto pair_gap = [&](std::size_t i, std::size_t j, double t) {
        const std::vector<Vec3> ci = centres(i, t), cj = centres(j, t);
        double g = std::numeric_limits<double>::infinity();
        for (std::size_t a = 0; a < ci.size(); ++a)
            for (std::size_t c = 0; c < cj.size(); ++c)
                g = std::min(g, (cj[c] - ci[a]).norm() - (parts[i][a].radius + parts[j][c].radius));
        return g;
    };
    std::vector<Hit> out;
    double now = 0.0;
    while (true) {
        // The first sample after `now` at which some pair touches.
        double lo = now, hi = -1.0;
        for (int s = 1; s <= samples && hi < 0.0; ++s) {
            const double t = now + (h - now) * s / samples;
            for (std::size_t i = 0; i < n && hi < 0.0; ++i)
                for (std::size_t j = i + 1; j < n && hi < 0.0; ++j)
                    if (pair_gap(i, j, t) <= 0.0) hi = t;
            if (hi < 0.0) lo = t;
        }
        if (hi < 0.0) break;
        double best = std::numeric_limits<double>::infinity();
        std::size_t bi = 0, bj = 0;
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = i + 1; j < n; ++j) {
                if (pair_gap(i, j, hi) > 0.0) continue;
                double a = lo, c = hi;
                while (c - a > 2 * eps * c)
                    (pair_gap(i, j, 0.5 * (a + c)) > 0.0 ? a : c) = 0.5 * (a + c);
                if (c < best) {
                    best = c;
                    bi = i;
                    bj = j;
                }
            }
        }
        // Both bodies to the contact, and the impulse at the touching spheres.
        std::array<RigidState, 2> st;
        std::array<Quat, 2> q;
        const std::array<std::size_t, 2> k{bi, bj};
        for (std::size_t a = 0; a < 2; ++a) {
            q[a] = rotor[k[a]].principal_at(best - since[k[a]]);
            b.pos[k[a]] += (best - since[k[a]]) * b.vel[k[a]];
            since[k[a]] = best;
            const Mat3 r = q[a].toRotationMatrix();
            st[a] =
                RigidState{1.0 / b.mass[k[a]], b.pos[k[a]], b.vel[k[a]], rotor[k[a]].spin_for(q[a]),
                           r * b.inertia[k[a]].cwiseInverse().asDiagonal() * r.transpose()};
        }
        double gap = std::numeric_limits<double>::infinity();
        Vec3 c1 = Vec3::Zero(), c2 = Vec3::Zero();
        double r1 = 0.0;
        for (const PartSphere& a : parts[bi])
            for (const PartSphere& c : parts[bj]) {
                const Vec3 x1 = st[0].centre + q[0] * a.offset, x2 = st[1].centre + q[1] * c.offset;
                const double g = (x2 - x1).norm() - (a.radius + c.radius);
                if (g < gap) {
                    gap = g;
                    c1 = x1;
                    c2 = x2;
                    r1 = a.radius;
                }
            }
        const Vec3 nrm = (c2 - c1).normalized();
        const Vec3 p = c1 + r1 * nrm;
        const RigidOutcome o =
            resolve_rigid_contact(st[0], st[1], p, nrm, Restitution{config.eps_n, config.eps_t});
        out.push_back(Hit{best, std::min(b.id[bi], b.id[bj]), std::max(b.id[bi], b.id[bj])});
        const std::array<Vec3, 2> vel{o.vel1, o.vel2}, spin{o.spin1, o.spin2};
        for (std::size_t a = 0; a < 2; ++a) {
            b.vel[k[a]] = vel[a];
            rotor[k[a]] = integrate::RotorPath(q[a], spin[a], b.inertia[k[a]], h - best);
        }
        now = best;
    }
    return out;
}

// The smallest gap (m) between spheres of different bodies, relative to their radii's sum.
double deepest_overlap(const Bodies& b) {
    double worst = 0.0;
    for (std::size_t s = 0; s < b.spheres.size(); ++s)
        for (std::size_t r = s + 1; r < b.spheres.size(); ++r) {
            if (b.spheres.body[s] == b.spheres.body[r]) continue;
            const double sigma = b.spheres.radius[s] + b.spheres.radius[r];
            const double d = (sphere_centre(b, r) - sphere_centre(b, s)).norm();
            worst = std::max(worst, (sigma - d) / sigma);
        }
    return worst;
}

} // namespace

TEST(AggregateDrift, ContactSequenceMatchesABruteForceEventLoop) {
    // 8 aggregates of 4 spheres and 4 free spheres falling together while spinning at up to
    // 0.5 rad/s, one drift of 6 s (up to 3 rad of turning, many splitting steps). Each contact
    // of the drift equals the reference's: the same pair at the same time, to the bisection's
    // round-off amplified through the contacts before it (1e-9 of the drift).
    const double h = 6.0;
    const CollisionConfig config = aggregate_config();
    std::size_t total = 0;
    for (const std::uint64_t seed : {3, 4, 5, 6}) {
        Bodies b = converging_cloud(8, 4, 0.5, seed);
        const std::vector<Hit> expected = brute_force_sequence(b, h, config, 3000);
        EventDrivenDrift engine(config);
        (void)engine.drift(b, h, 0.0);
        const std::vector<CollisionRecord> got = engine.take_log();
        ASSERT_EQ(got.size(), expected.size()) << "seed " << seed;
        for (std::size_t k = 0; k < got.size(); ++k) {
            EXPECT_EQ(got[k].id1, expected[k].id1) << "seed " << seed << " contact " << k;
            EXPECT_EQ(got[k].id2, expected[k].id2) << "seed " << seed << " contact " << k;
            EXPECT_NEAR(got[k].time, expected[k].time, 1e-9 * h)
                << "seed " << seed << " contact " << k;
        }
        total += expected.size();
    }
    std::printf("[measured] %zu contacts, the same in the drift and the reference\n", total);
    EXPECT_GE(total, 40u); // the drifts are dense, or the test shows nothing
}

TEST(AggregateDrift, MomentumAndAngularMomentumSurviveOffCentreContacts) {
    // Every contact exchanges equal and opposite impulses at one point, and each body's path
    // keeps its own angular momentum: linear and total angular momentum (orbital + spin, about
    // the origin) change only by round-off per contact.
    const CollisionConfig config = aggregate_config();
    Bodies b = converging_cloud(27, 6, 1.0, 7);
    const std::vector<double> no_potential(b.size(), 0.0);
    const auto before = integrate::compute_diagnostics(b, no_potential, 0.0, 0);
    EventDrivenDrift engine(config);
    std::int64_t contacts = 0;
    for (int step = 0; step < 20; ++step)
        contacts += engine.drift(b, 0.5, 0.5 * step).collisions;
    std::printf("[measured] %lld contacts\n", static_cast<long long>(contacts));
    const auto after = integrate::compute_diagnostics(b, no_potential, 0.0, 0);
    EXPECT_GT(contacts, 50);
    double p_scale = 0.0; // kg m/s, sum m |v|: what momentum errors are measured against
    for (std::size_t k = 0; k < b.size(); ++k)
        p_scale += b.mass[k] * b.vel[k].norm();
    const double l_scale = before.angular_momentum_scale;
    EXPECT_LE((after.momentum - before.momentum).norm(),
              test::summation_bound(static_cast<double>(contacts)) * p_scale);
    EXPECT_LE((after.angular_momentum - before.angular_momentum).norm(),
              test::summation_bound(static_cast<double>(contacts)) * l_scale);
    // Nothing overlaps beyond the tolerance afterwards.
    EXPECT_LE(deepest_overlap(b), config.overlap_tolerance);
}

} // namespace rubble::collisions
