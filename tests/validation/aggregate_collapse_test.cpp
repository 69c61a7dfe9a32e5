// SPDX-License-Identifier: MIT
// A cold, slowly rotating cloud of 500 rigid aggregates of about 10 spheres each (random
// hulls, ic.cloud.grain = "hull") collapses under direct gravity with inelastic collisions into
// one pile (issue 20, item 7): no overlap beyond collisions.overlap_tolerance at any drift start,
// and the total angular momentum (orbital plus spin) conserved to round-off.
//
// Why round-off: direct summation gives every pair of spheres opposite central forces, so a
// kick changes the total angular momentum sum_k m_k x_k x a_k h/2 (orbital and spin together:
// docs/aggregates.md, "Rotation") by nothing but the round-off of the force sums; the drift
// moves centres on straight lines and turns each aggregate along a rotor path that keeps its
// inertial L to round-off; every collision's impulse conserves the pair's angular momentum to
// round-off (docs/aggregates.md, "What is conserved"). The bound below adds those round-offs
// up (it is derived, not fitted to what this run gives).
//
// Issue 20 asks for 2,000 aggregates. With n = 2000 this test passes in 12.5 minutes on the
// 2-core development machine (19,811 spheres, 1,785,556 collisions, no overlap, pile 0.999 of
// the mass, |dL| = 3.5e-13 of |L| = 381 against a bound of 8e-5; docs/aggregates.md), more
// than the suite can spend, so the suite runs 500 (release build: 75 s; the pile holds 0.997
// of the mass at 1.6 t_ff).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

#include "aggregate_collapse.hpp"
#include "rubble/collisions/event_drift.hpp"
#include "rubble/collisions/find_overlaps.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/ic/generators.hpp"
#include "rubble/integrate/diagnostics.hpp"
#include "rubble/integrate/simulation.hpp"
#include "tolerances.hpp"

using namespace rubble;

namespace {

// The mass of the largest pile: bodies joined when any of their spheres are within `gap` x
// the radius sum (union-find over the overlaps of the spheres grown by that gap, as
// cloud_collision_collapse_test.cpp and analysis/ identify aggregates; a body's own spheres
// are one already).
double largest_pile_mass(const Bodies& b, double gap) {
    Bodies spheres;
    for (std::size_t s = 0; s < b.spheres.size(); ++s)
        spheres.add_sphere(static_cast<std::int64_t>(s), 1.0, b.spheres.radius[s] * (1.0 + gap),
                           sphere_centre(b, s), Vec3::Zero(), Vec3::Zero());
    std::vector<std::size_t> parent(b.size());
    std::iota(parent.begin(), parent.end(), std::size_t{0});
    const auto find = [&](std::size_t i) {
        while (parent[i] != i)
            i = parent[i] = parent[parent[i]];
        return i;
    };
    const auto body = [&](std::int32_t s) {
        return static_cast<std::size_t>(b.spheres.body[static_cast<std::size_t>(s)]);
    };
    for (const collisions::Overlap& o : collisions::find_overlaps(spheres, 0.0))
        parent[find(body(o.i))] = find(body(o.j));
    std::vector<double> mass(b.size(), 0.0);
    for (std::size_t i = 0; i < b.size(); ++i)
        mass[find(i)] += b.mass[i];
    return *std::max_element(mass.begin(), mass.end());
}

// The angular momentum scale the round-off is relative to: sum over bodies of
// m |x - X| |v - V| + |I w| (Diagnostics::angular_momentum_scale), and the same with the
// kicks' velocity changes, h |a| and h |torque| for a whole step's two half kicks.
double kick_scale(const integrate::Simulation& sim, const Vec3& centre) {
    const Bodies& b = sim.bodies();
    double s = 0.0;
    for (std::size_t k = 0; k < b.size(); ++k) {
        s += b.mass[k] * (b.pos[k] - centre).norm() * sim.accelerations()[k].norm();
        if (!sim.torques().empty()) s += sim.torques()[k].norm();
    }
    return s * sim.dt();
}

} // namespace

TEST(AggregateCollapse, ACloudOfAggregatesFormsOnePileConservingAngularMomentum) {
    // The cloud (tests/support/aggregate_collapse.hpp): random hulls of about 10 spheres.
    const std::int64_t n = 500;
    test::AggregateCollapse setup = test::aggregate_collapse(n, ic::GrainKind::hull, 10);
    const double G = setup.G, mass = setup.mass, t_ff = setup.t_ff, dt = setup.dt;
    const auto n_spheres = static_cast<double>(setup.bodies.spheres.size());
    integrate::Simulation sim(std::move(setup.bodies),
                              std::make_unique<gravity::DirectGravity>(G, 0.0), dt);
    const collisions::CollisionConfig k = setup.collisions;
    sim.set_stepper(std::make_unique<collisions::EventDrivenDrift>(k));
    const auto d0 = integrate::compute_diagnostics(sim.bodies(), sim.potentials(), 0.0, 0);

    const auto wall0 = std::chrono::steady_clock::now();
    const auto steps = static_cast<std::int64_t>(std::llround(1.6 * t_ff / dt));
    std::int64_t total = 0, most = 0, overlaps = 0;
    double max_overlap = 0.0, bound = 0.0;
    // Round-off per step (Higham 2002, eq. 4.4; summation_bound): each sphere's acceleration is
    // a sum of n_spheres pair terms, whose round-off the kicks turn into a torque of at most
    // summation_bound(n_spheres) of the kick scale (taking the sum of the pair terms' sizes at
    // the size of their sum, which the net pull of a cloud's mass on a sphere does not fall far
    // below); the drift's positions and rotor paths keep L to a few eps of the angular momentum
    // scale, which the same bound covers. Per collision, the impulse keeps the pair's L to
    // summation_bound(64) of the pair's scale (rigid_impulse_test.cpp), which the system's
    // scale bounds.
    const double per_step = test::summation_bound(n_spheres);
    const double per_collision = test::summation_bound(64);
    for (std::int64_t s = 0; s < steps; ++s) {
        const auto before =
            integrate::compute_diagnostics(sim.bodies(), sim.potentials(), sim.time(), s);
        const double kick_before = kick_scale(sim, before.com_position);
        sim.step();
        const auto after =
            integrate::compute_diagnostics(sim.bodies(), sim.potentials(), sim.time(), s + 1);
        const double scale = std::max(before.angular_momentum_scale, after.angular_momentum_scale);
        const auto& d = sim.last_stats();
        bound += per_step * (scale + 0.5 * (kick_before + kick_scale(sim, after.com_position))) +
                 per_collision * static_cast<double>(d.contacts) * scale;
        total += d.contacts;
        most = std::max(most, d.contacts);
        overlaps += d.overlaps;
        max_overlap = std::max(max_overlap, d.max_overlap);
        if ((s + 1) % 10 == 0) {
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
            std::printf("[measured] t/t_ff %.2f after %.0f s: %lld collisions in the last step, "
                        "largest pile %.3f of the mass\n",
                        sim.time() / t_ff, seconds, static_cast<long long>(d.contacts),
                        largest_pile_mass(sim.bodies(), 0.05) / mass);
            std::fflush(stdout);
        }
    }
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    const auto d1 =
        integrate::compute_diagnostics(sim.bodies(), sim.potentials(), sim.time(), steps);
    const double pile = largest_pile_mass(sim.bodies(), 0.05) / mass;
    const double dL = (d1.angular_momentum_com - d0.angular_momentum_com).norm();
    std::printf("[measured] %lld spheres in %lld aggregates, %lld steps to %.1f t_ff in %.0f s: "
                "%lld collisions (most in one step %lld), overlaps %lld (max %.2e of R1+R2); "
                "largest pile %.3f of the mass; |dL| = %.2e of |L| = %.2e, bound %.2e; "
                "|dE/E| = %.3f\n",
                static_cast<long long>(n_spheres), static_cast<long long>(n),
                static_cast<long long>(steps), sim.time() / t_ff, wall,
                static_cast<long long>(total), static_cast<long long>(most),
                static_cast<long long>(overlaps), max_overlap, pile, dL,
                d0.angular_momentum_com.norm(), bound, integrate::relative_energy_error(d1, d0));
    EXPECT_EQ(overlaps, 0);
    EXPECT_LE(max_overlap, k.overlap_tolerance);
    EXPECT_LT(dL, bound);
    // One pile: by 1.4 t_ff it holds 0.998 of the mass in this run (the [measured] lines); 90 %
    // leaves room for bodies bounced off its surface at the instant of the check.
    EXPECT_GT(pile, 0.9);
}
