// SPDX-License-Identifier: MIT
// Angular momentum of a self-gravitating cloud of polyhedra through its collapse (issue 21,
// item 8: "angular momentum error of a self-gravitating cloud linear in dt", Ferrari et al.
// 2017, Fig. 6, where Chrono's error grows linearly with the step). In rubble it does not
// depend on dt at all, because every part of the step conserves the total angular momentum
// exactly in exact arithmetic:
// - gravity: point masses at the centres of mass, summed directly (pairwise central forces),
//   so the kicks change sum m x x v by sum over pairs of (x_i - x_j) x f_ij = 0;
// - the drift: positions on straight lines (m v x v = 0), orientations by the free rotor
//   (integrate/free_rotor.hpp), which keeps each body's I_world w;
// - contacts: each impulse acts at one point p on both bodies, +f on a and -f on b, so its
//   angular impulse about any origin is p x f - p x f = 0 (the spins change by
//   I^-1 (r x f) at the start of the step, before the rotor turns them).
// So L = sum m (x - x_cm) x (v - v_cm) + I_world w must stay at its initial value to
// round-off at every dt: the error is not O(dt). Asserted at dt, dt/2 and dt/4 over the same
// physical time, through a collapse with thousands of contacts, with the bound derived below.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "rubble/core/polyhedron.hpp"
#include "rubble/core/random.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/core/types.hpp"
#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/ic/aggregates.hpp"
#include "rubble/integrate/simulation.hpp"
#include "rubble/polyhedra/nsc_stepper.hpp"

using namespace rubble;

namespace {

constexpr int grains = 40;
constexpr double r_grain = 12.0;     // m, circumradius of each hull (params/polyhedra_pile.toml)
constexpr double rho_grain = 2000.0; // kg/m^3
constexpr double r_cloud = 70.0;     // m, the cloud's radius
constexpr double omega = 7.0e-5; // rad/s about +z: half the critical rate sqrt(4/3 pi G rho_grain)
constexpr double dt_coarse = 80.0; // s, params/polyhedra_pile.toml's step
constexpr double t_end = 12'000.0; // s: 1.5 free-fall times (t_ff = 7,900 s)
constexpr double eps = std::numeric_limits<double>::epsilon();

// The cloud: random 16-point hulls (Ferrari et al. 2020) placed at random in a ball without
// overlapping bounding spheres, randomly turned, moving with the cloud's turn plus a little
// random motion and spin; its centre of mass at rest at the origin.
Bodies cloud() {
    Bodies b;
    Rng rng(2017);
    ic::GrainConfig grain;
    grain.kind = ic::GrainKind::hull;
    grain.aspect = Vec3(1.0, 0.7, 0.5);
    std::vector<Vec3> at;
    while (static_cast<int>(at.size()) < grains) {
        const Vec3 x = rng.in_ball(r_cloud - r_grain);
        if (std::all_of(at.begin(), at.end(),
                        [&](const Vec3& y) { return (x - y).norm() > 2.0 * r_grain; }))
            at.push_back(x);
    }
    for (int k = 0; k < grains; ++k) {
        const auto shape =
            b.add_hull_shape(shapes::make_polyhedron(ic::make_grain_hull(grain, r_grain, rng)));
        const Vec3 x = at[static_cast<std::size_t>(k)];
        const Vec3 v = omega * Vec3::UnitZ().cross(x) + 2e-3 * rng.unit_vector();
        add_polyhedron(b, k, shape, rho_grain, x, v, 2e-4 * rng.unit_vector(),
                       ic::random_orientation(rng));
    }
    move_to_centre_of_mass_frame(b);
    return b;
}

struct Totals {
    Vec3 p = Vec3::Zero(); // kg m/s
    Vec3 l = Vec3::Zero(); // kg m^2/s, about the centre of mass
    double p_scale = 0.0;  // sum of |m v|
    double l_scale = 0.0;  // sum of |m (x - x_cm) x (v - v_cm)| + |I w|
};

Totals totals(const Bodies& b) {
    double m = 0.0;
    Vec3 mx = Vec3::Zero(), mv = Vec3::Zero();
    for (std::size_t k = 0; k < b.size(); ++k) {
        m += b.mass[k];
        mx += b.mass[k] * b.pos[k];
        mv += b.mass[k] * b.vel[k];
    }
    const Vec3 x_cm = mx / m, v_cm = mv / m;
    Totals t;
    for (std::size_t k = 0; k < b.size(); ++k) {
        t.p += b.mass[k] * b.vel[k];
        t.p_scale += b.mass[k] * b.vel[k].norm();
        const Vec3 orbital = b.mass[k] * (b.pos[k] - x_cm).cross(b.vel[k] - v_cm);
        const Vec3 spin = inertia_tensor(b, k) * b.spin[k];
        t.l += orbital + spin;
        t.l_scale += orbital.norm() + spin.norm();
    }
    return t;
}

struct CloudRun {
    double l_error = 0.0; // |L(t) - L(0)|, largest over the run
    double l_bound = 0.0; // the round-off bound for it
    double p_error = 0.0; // |P(t) - P(0)|, largest over the run
    double p_bound = 0.0;
    double p_scale = 0.0; // sum of m |v|, largest over the run
    double l0 = 0.0;      // |L(0)|
    std::int64_t contacts = 0, most = 0, steps = 0;
};

// The cloud integrated with step dt to t_end.
CloudRun collapse(double dt) {
    polyhedra::NscConfig c;
    c.mu = 0.6; // Ferrari et al. 2020
    c.eps_n = 0.5;
    c.v_min = 2.2e-3;
    integrate::Simulation sim(cloud(), std::make_unique<gravity::DirectGravity>(G_SI, 0.0), dt);
    sim.set_stepper(std::make_unique<polyhedra::NscStepper>(c));
    const Totals start = totals(sim.bodies());
    CloudRun r;
    r.l0 = start.l.norm();
    r.steps = std::llround(t_end / dt);
    double l_scale = start.l_scale, p_scale = start.p_scale;
    for (std::int64_t s = 1; s <= r.steps; ++s) {
        sim.step();
        r.contacts += sim.last_stats().contacts;
        r.most = std::max(r.most, sim.last_stats().contacts);
        const Totals now = totals(sim.bodies());
        l_scale = std::max(l_scale, now.l_scale);
        p_scale = std::max(p_scale, now.p_scale);
        // The bound. Each step changes each body's contribution to L (its orbital and spin
        // terms) by a few roundings of relative size eps: the two half kicks, the impulses,
        // the drift of the position and the rotor's turn, c_op = 16 of them generously
        // counted, each at most eps times that body's term: at most c_op eps S per step, S
        // the sum of the terms' magnitudes (l_scale). The direct sum of each body's
        // acceleration over its N - 1 sources is where the pairs' exact cancellation is only
        // approximate: its rounding is at most (N - 1) eps of the sum of the magnitudes,
        // which adds up to N eps S more. Summed over the steps so far, with the largest S
        // seen: |L(t) - L(0)| <= (c_op + N) eps s S, and the same for P with S = sum m |v|.
        // (Measured errors are about three orders below it: the roundings do not all add
        // up. An error of first order in dt, as Chrono's in Ferrari et al. 2017, Fig. 6,
        // would be orders above it.)
        constexpr double c_op = 16.0;
        const double per_step = (c_op + grains) * eps * static_cast<double>(s);
        const double l_bound = per_step * l_scale, p_bound = per_step * p_scale;
        const double l_error = (now.l - start.l).norm(), p_error = (now.p - start.p).norm();
        r.l_error = std::max(r.l_error, l_error);
        r.p_error = std::max(r.p_error, p_error);
        r.l_bound = l_bound;
        r.p_bound = p_bound;
        r.p_scale = p_scale;
        // Relative to the bound at this step (the bound grows with s).
        EXPECT_LT(l_error, l_bound) << "dt " << dt << " s, step " << s;
        EXPECT_LT(p_error, p_bound) << "dt " << dt << " s, step " << s;
        if (l_error >= l_bound || p_error >= p_bound) break;
    }
    return r;
}

} // namespace

TEST(NscCloud, AngularMomentumOfACollapsingCloudIsKeptToRoundOffAtEveryStep) {
    {
        const Bodies b = cloud();
        double m = 0.0;
        for (const double mk : b.mass)
            m += mk;
        const double rho_bulk = m / (4.0 / 3.0 * pi * r_cloud * r_cloud * r_cloud);
        std::printf("cloud: %.3g kg, t_ff = %.0f s, omega / critical rate = %.2f\n", m,
                    std::sqrt(3.0 * pi / (32.0 * G_SI * rho_bulk)),
                    omega / std::sqrt(4.0 / 3.0 * pi * G_SI * rho_bulk));
    }
    for (const double dt : {dt_coarse, 0.5 * dt_coarse, 0.25 * dt_coarse}) {
        const CloudRun r = collapse(dt);
        // Not vacuous: the cloud fell in and its grains touched, many at a time.
        EXPECT_GT(r.contacts, 20 * r.steps) << "dt " << dt << " s";
        EXPECT_GT(r.most, grains) << "dt " << dt << " s";
        std::printf("dt %5.1f s: %lld steps, %lld contacts (at most %lld in a step), "
                    "|dL|/|L0| = %.2e (bound %.2e), |dP| / sum m|v| = %.2e (bound %.2e)\n",
                    dt, static_cast<long long>(r.steps), static_cast<long long>(r.contacts),
                    static_cast<long long>(r.most), r.l_error / r.l0, r.l_bound / r.l0,
                    r.p_error / r.p_scale, r.p_bound / r.p_scale);
        ::testing::Test::RecordProperty("relative_dL_dt" + std::to_string(static_cast<int>(dt)),
                                        std::to_string(r.l_error / r.l0));
    }
}
