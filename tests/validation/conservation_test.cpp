// SPDX-License-Identifier: MIT
// Direct summation with the leapfrog conserves linear and angular momentum to round-off.
#include <cmath>

#include <gtest/gtest.h>

#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/ic/generators.hpp"
#include "rubble/integrate/diagnostics.hpp"
#include "rubble/integrate/simulation.hpp"
#include "tolerances.hpp"

using namespace rubble;

TEST(Conservation, MomentumAndAngularMomentumToRoundOffForAThousandBodies) {
    ic::CloudConfig c;
    c.n = 1000;
    c.size = 1000.0;
    c.radii.radius = 5.0;
    Rng rng(8);
    Bodies b = ic::make_cloud(c, rng);
    ic::apply_motion(b, {0.05, 1e-3, 2e-6}, rng);
    const double dt = 100.0;
    integrate::Simulation sim(std::move(b), std::make_unique<gravity::DirectGravity>(G_SI, 0.0),
                              dt);
    const auto d0 = integrate::compute_diagnostics(sim.bodies(), sim.potentials(), 0, 0);

    // Error budget, accumulated along the run: every force is an N-term sum (Higham bound),
    // so sum m a is zero up to summation_bound(2N) sum m|a| per kick; each velocity and
    // position update rounds once (eps sum m|v|, eps sum m|r||v|).
    const double n = static_cast<double>(c.n);
    double p_bound = 0.0, l_bound = 0.0;
    for (int k = 0; k < 200; ++k) {
        double ma = 0.0, rma = 0.0, mv = 0.0, rmv = 0.0;
        const Bodies& s = sim.bodies();
        for (std::size_t i = 0; i < s.size(); ++i) {
            ma += s.mass[i] * sim.accelerations()[i].norm();
            rma += s.mass[i] * s.pos[i].norm() * sim.accelerations()[i].norm();
            mv += s.mass[i] * s.vel[i].norm();
            rmv += s.mass[i] * s.pos[i].norm() * s.vel[i].norm();
        }
        p_bound += dt * test::summation_bound(2 * n) * ma + 2 * test::eps * mv;
        l_bound += dt * test::summation_bound(2 * n) * rma + 4 * test::eps * rmv;
        sim.step();
    }
    const auto d1 = integrate::compute_diagnostics(sim.bodies(), sim.potentials(), sim.time(), 200);
    EXPECT_LT((d1.momentum - d0.momentum).norm(), p_bound);
    EXPECT_LT((d1.angular_momentum - d0.angular_momentum).norm(), l_bound);
    std::printf("momentum change %.3e (bound %.3e), angular momentum change %.3e (bound %.3e)\n",
                (d1.momentum - d0.momentum).norm(), p_bound,
                (d1.angular_momentum - d0.angular_momentum).norm(), l_bound);
}
