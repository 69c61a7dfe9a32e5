// SPDX-License-Identifier: MIT
// A cold, slowly rotating cloud of N = 10,000 hard spheres with self-gravity (direct summation,
// so no tree approximation) and eps_n = 0.5 collapses into one aggregate (issue 4, item 8):
// no overlap beyond round-off at any step, and linear and angular momentum (orbital + spin)
// conserved to round-off: the direct sum's forces are central and pairwise antisymmetric, the
// drift is linear and every collision conserves both (docs/collisions.md). The collisions per
// step are reported, not asserted: the inelastic-collapse guards keep them finite, but in a
// resting pile elastic sub-v_min impacts run down columns like Newton's cradle, so the count
// grows with the pile's height.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

#include "rubble/collisions/event_drift.hpp"
#include "rubble/collisions/find_overlaps.hpp"
#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/ic/generators.hpp"
#include "rubble/integrate/diagnostics.hpp"
#include "rubble/integrate/simulation.hpp"

using namespace rubble;

namespace {

// Union-find over contacts (surface gap below `gap` x the radius sum): the size of the largest
// aggregate, as analysis/ identifies them (Ferrari et al. 2020, sec. 2.4.1). Contacts are the
// overlaps of the spheres grown by that gap.
std::size_t largest_aggregate(const Bodies& b, double gap) {
    Bodies grown = b;
    for (double& r : grown.radius)
        r *= 1.0 + gap;
    std::vector<std::size_t> parent(b.size());
    std::iota(parent.begin(), parent.end(), std::size_t{0});
    const auto find = [&](std::size_t i) {
        while (parent[i] != i)
            i = parent[i] = parent[parent[i]];
        return i;
    };
    for (const collisions::Overlap& o : collisions::find_overlaps(grown, 0.0))
        parent[find(static_cast<std::size_t>(o.i))] = find(static_cast<std::size_t>(o.j));
    std::vector<std::size_t> size(b.size(), 0);
    for (std::size_t i = 0; i < b.size(); ++i)
        ++size[find(i)];
    return *std::max_element(size.begin(), size.end());
}

} // namespace

TEST(CloudCollisionCollapse, TenThousandSpheresFormOneAggregateConservingMomenta) {
    // Units G = 1, sphere radius 1, mass 1 (density 3 / (4 pi)). Cloud radius 58.5: volume
    // fraction 0.05, bulk density rho = 0.0119, free-fall time t_ff = sqrt(3 pi / (32 G rho))
    // = 4.97. The time step resolves a body's own dynamical time 1 / sqrt(G rho_body) = 2.05
    // and t_ff (0.05 = t_ff / 100); collisions inside a step are exact events.
    const std::int64_t n = 10000;
    const double G = 1.0, r = 1.0, rho_body = 3.0 / (4.0 * pi);
    const double R_cloud = std::cbrt(static_cast<double>(n) / 0.05) * r;
    const double M = static_cast<double>(n);
    const double t_ff =
        std::sqrt(3.0 * pi / (32.0 * G * M / (4.0 / 3.0 * pi * std::pow(R_cloud, 3))));
    const double dt = 0.05;
    Rng rng(2026);
    ic::CloudConfig cloud;
    cloud.n = n;
    cloud.size = R_cloud;
    cloud.radii.radius = r;
    cloud.density = rho_body;
    Bodies b = ic::make_cloud(cloud, rng);
    // Slow solid-body rotation (a tenth of the breakup rate sqrt(G M / R^3)) so that the
    // angular momentum to conserve is not zero.
    const double omega = 0.1 * std::sqrt(G * M / std::pow(R_cloud, 3));
    for (std::size_t i = 0; i < b.size(); ++i)
        b.vel[i] = Vec3(-omega * b.pos[i].y(), omega * b.pos[i].x(), 0.0);

    integrate::Simulation sim(std::move(b), std::make_unique<gravity::DirectGravity>(G, 0.0), dt,
                              0.0, 0);
    collisions::CollisionConfig k;
    k.eps_n = 0.5;
    k.eps_t = 0.8; // rough: collisions exchange orbital and spin angular momentum
    // Inelastic-collapse guards (docs/collisions.md): impacts slower than the speed one step of
    // surface gravity gives, g dt with g = G M / R_pile^2 (R_pile = 26 at random close packing),
    // are elastic; so is a collision of a body that moved less than 1 % of its radius since its
    // last one.
    const double R_pile = std::cbrt(static_cast<double>(n) / 0.6) * r;
    k.v_min = G * M / (R_pile * R_pile) * dt;
    k.f_crit = 0.01;
    sim.set_stepper(std::make_unique<collisions::EventDrivenDrift>(
        k)); // overlaps = abort: any overlap beyond round-off fails the run
    const auto d0 = integrate::compute_diagnostics(sim.bodies(), sim.potentials(), 0.0, 0);

    const auto wall0 = std::chrono::steady_clock::now();
    const auto steps = static_cast<std::int64_t>(std::llround(2.0 * t_ff / dt));
    std::int64_t total = 0, most = 0, overlaps = 0;
    double max_overlap = 0.0;
    for (std::int64_t s = 0; s < steps; ++s) {
        sim.step();
        const auto& d = sim.last_stats();
        total += d.contacts;
        most = std::max(most, d.contacts);
        overlaps += d.overlaps;
        max_overlap = std::max(max_overlap, d.max_overlap);
        if ((s + 1) % 50 == 0)
            std::printf("[measured] t/t_ff %.2f: %lld collisions in the last step, largest "
                        "aggregate %zu\n",
                        sim.time() / t_ff, static_cast<long long>(d.contacts),
                        largest_aggregate(sim.bodies(), 0.05));
    }
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    const auto d1 =
        integrate::compute_diagnostics(sim.bodies(), sim.potentials(), sim.time(), steps);
    const std::size_t largest = largest_aggregate(sim.bodies(), 0.05);
    const double dL =
        (d1.angular_momentum - d0.angular_momentum).norm() / d0.angular_momentum.norm();
    double p_scale = 0.0;
    for (std::size_t i = 0; i < sim.bodies().size(); ++i)
        p_scale += sim.bodies().mass[i] * sim.bodies().vel[i].norm();
    const double dP = (d1.momentum - d0.momentum).norm() / p_scale;
    std::printf("[measured] %lld steps to 2 t_ff in %.0f s: %lld collisions (most in one step "
                "%lld, %.1f per body), overlaps %lld, max overlap %.2e of R1+R2; largest "
                "aggregate %zu of %lld; |dL/L| = %.2e, |dP|/sum m|v| = %.2e, |dE/E| = %.3f\n",
                static_cast<long long>(steps), wall, static_cast<long long>(total),
                static_cast<long long>(most), static_cast<double>(most) / static_cast<double>(n),
                static_cast<long long>(overlaps), max_overlap, largest, static_cast<long long>(n),
                dL, dP, integrate::relative_energy_error(d1, d0));
    EXPECT_EQ(overlaps, 0);
    EXPECT_LT(max_overlap, k.overlap_tolerance);
    // Round-off: ~steps x N terms of relative size 1e-16 each, far below 1e-10.
    EXPECT_LT(dL, 1e-10);
    EXPECT_LT(dP, 1e-10);
    // By 1.5 t_ff every body touches the pile in this run (the [measured] lines); 90 % leaves
    // room for a few bodies bounced off the surface at the instant of the check.
    EXPECT_GT(static_cast<double>(largest), 0.9 * static_cast<double>(n));
}
