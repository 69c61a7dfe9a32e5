// SPDX-License-Identifier: MIT
// The rotor path that collision prediction searches: where it ends, its angular velocity, and
// the bounds the root search relies on.
#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "rubble/core/random.hpp"
#include "rubble/integrate/free_rotor.hpp"
#include "rubble/integrate/rotor_path.hpp"
#include "tolerances.hpp"

using namespace rubble;
using integrate::RotorPath;
using rubble::test::eps;

namespace {

struct Top {
    Quat principal;
    Vec3 spin, moments;
    /// The splitting steps the drift (and the path) take over T seconds.
    [[nodiscard]] double steps(double T) const {
        return integrate::free_rotor_steps((principal.conjugate() * spin).cwiseProduct(moments),
                                           moments, T);
    }
};

// An asymmetric top with a random orientation and a spin turning it by up to `turns` radians
// per second on its fastest axis.
Top random_top(Rng& rng, double turns) {
    const Vec3 moments(rng.uniform(0.5, 1.0), rng.uniform(1.0, 2.0), rng.uniform(2.0, 4.0));
    const Quat q = Quat(Eigen::AngleAxisd(rng.uniform(0.0, 2.0 * pi), rng.unit_vector()));
    return Top{q, rng.unit_vector() * rng.uniform(0.1, 1.0) * turns, moments};
}

} // namespace

TEST(RotorPath, EndsBitwiseWhereTheDriftsFreeRotorEnds) {
    // The event-driven drift and the plain drift must leave an undisturbed body in the same
    // place: the path at t = T is turn_free_rotor(T), bit for bit, for one step and for many.
    Rng rng(11);
    for (int trial = 0; trial < 200; ++trial) {
        const Top top = random_top(rng, trial % 2 == 0 ? 0.02 : 3.0);
        const double T = rng.uniform(0.1, 2.0);
        const RotorPath path(top.principal, top.spin, top.moments, T);
        Quat q = top.principal;
        Vec3 w = top.spin;
        integrate::turn_free_rotor(q, w, top.moments, T);
        const Quat p = path.principal_at(T);
        ASSERT_EQ(p.coeffs(), q.coeffs()) << "trial " << trial;
        Vec3 omega;
        ASSERT_EQ(path.principal_at(T, omega).coeffs(), q.coeffs()) << "trial " << trial;
        // And the physical spin there is the one turn_free_rotor leaves, to the round-off of
        // 5 n rotations of L, amplified by the inertia's condition number through I^-1.
        const double steps = top.steps(T);
        EXPECT_LE((path.spin_for(p) - w).norm(), test::summation_bound(5 * steps + 8) *
                                                     top.moments.maxCoeff() /
                                                     top.moments.minCoeff() * w.norm())
            << "trial " << trial;
    }
}

TEST(RotorPath, AngularVelocityIsTheDerivativeOfThePath) {
    // Central differences of the orientation inside a splitting step (where steps meet the
    // path's angular velocity jumps by the splitting error): error (dt^2 / 6) |d3p/dt3| for a
    // body-fixed point, |d3p/dt3| ~ W^3 (exactly W^3 for a steady rotation); the factor 10
    // covers the path's angular acceleration terms, of the same size by the bounds.
    Rng rng(12);
    for (int trial = 0; trial < 100; ++trial) {
        const Top top = random_top(rng, 2.0);
        const double T = 1.0;
        const RotorPath path(top.principal, top.spin, top.moments, T);
        const double n = top.steps(T);
        const double tau = T / n, dt = 1e-3 * tau;
        const double W = path.rate_bound();
        for (const double k : {0.0, std::floor(n / 2), n - 1}) {
            for (const double f : {0.3, 0.6}) {
                const double t = (k + f) * tau;
                Vec3 omega;
                (void)path.principal_at(t, omega);
                for (int a = 0; a < 3; ++a) {
                    const Vec3 e = Vec3::Unit(a);
                    const Vec3 fd =
                        (path.principal_at(t + dt) * e - path.principal_at(t - dt) * e) / (2 * dt);
                    const Vec3 exact = omega.cross(path.principal_at(t) * e);
                    EXPECT_LE((fd - exact).norm(), 10.0 * dt * dt * W * W * W + 1e-10 * W)
                        << "trial " << trial << " t " << t;
                }
            }
        }
    }
}

TEST(RotorPath, BoundsHoldEverywhereOnTheSegment) {
    // The root search steps by them: the path's angular speed never exceeds rate_bound, and a
    // body-fixed unit vector never accelerates faster than acceleration_bound (second
    // differences, whose error O(dt^2 |d4p/dt4|) is far below the margins checked).
    Rng rng(13);
    for (int trial = 0; trial < 60; ++trial) {
        const Top top = random_top(rng, trial % 3 == 0 ? 0.05 : 4.0);
        const double T = rng.uniform(0.5, 1.5);
        const RotorPath path(top.principal, top.spin, top.moments, T);
        const double n = top.steps(T);
        const double tau = T / n, dt = 1e-3 * tau;
        double fastest = 0.0, hardest = 0.0;
        for (int k = 0; k < 400; ++k) {
            // Inside a step (the path is smooth there; where steps meet its angular velocity
            // jumps by the splitting error, which the search never steps across).
            const double t =
                (std::floor(n * k / 400.0) + 0.01 + 0.98 * ((k * 37) % 100) / 100.0) * tau;
            Vec3 omega;
            (void)path.principal_at(t, omega);
            fastest = std::max(fastest, omega.norm());
            for (int a = 0; a < 3; ++a) {
                const Vec3 e = Vec3::Unit(a);
                const Vec3 acc = (path.principal_at(t + dt) * e - 2.0 * (path.principal_at(t) * e) +
                                  path.principal_at(t - dt) * e) /
                                 (dt * dt);
                hardest = std::max(hardest, acc.norm());
            }
        }
        EXPECT_LE(fastest, path.rate_bound()) << "trial " << trial;
        EXPECT_LE(hardest, path.acceleration_bound() * (1.0 + 1e-3)) << "trial " << trial;
        // Not so loose that the search crawls: no more than the sum of the three axis rates
        // |L| / I_a, with the small growth over one step of at most a few 0.05 rad.
        const double L = top.moments.cwiseProduct(top.principal.conjugate() * top.spin).norm();
        EXPECT_LE(path.rate_bound(), 1.5 * L * top.moments.cwiseInverse().sum())
            << "trial " << trial;
    }
}

TEST(RotorPath, PathFollowsThePhysicalSpinWithinTheSplittingError) {
    // The path's own angular velocity and I^-1 L differ by the splitting's relative error
    // O((w tau)^2), tau = T / n the step: the second-order splitting's local error.
    Rng rng(14);
    for (int trial = 0; trial < 100; ++trial) {
        const Top top = random_top(rng, 0.3);
        const double T = 0.1;
        const RotorPath path(top.principal, top.spin, top.moments, T);
        const double w = top.spin.norm() * top.moments.maxCoeff() / top.moments.minCoeff();
        for (const double t : {0.0, 0.05, 0.1}) {
            Vec3 omega;
            const Quat q = path.principal_at(t, omega);
            EXPECT_LE((omega - path.spin_for(q)).norm(), 4.0 * (w * T) * (w * T) * w + 1e-14 * w)
                << "trial " << trial << " t " << t;
        }
    }
}

TEST(RotorPath, EqualMomentsTurnAtConstantSpin) {
    const Vec3 w(0.3, -0.2, 0.5);
    const Quat q0 = Quat(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()));
    const RotorPath path(q0, w, Vec3::Constant(2.0), 3.0);
    Vec3 omega;
    const Quat q = path.principal_at(2.0, omega);
    EXPECT_EQ(omega, w);
    const Quat expected = Quat(Eigen::AngleAxisd(2.0 * w.norm(), w.normalized())) * q0;
    EXPECT_LE((q.coeffs() - expected.coeffs()).norm(), 16 * eps);
    EXPECT_DOUBLE_EQ(path.rate_bound(), w.norm() * (1 + 1e-12));
}
