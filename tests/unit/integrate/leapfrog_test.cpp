// SPDX-License-Identifier: MIT
#include <cmath>

#include <gtest/gtest.h>

#include "rubble/integrate/diagnostics.hpp"
#include "rubble/integrate/leapfrog.hpp"
#include "tolerances.hpp"

using namespace rubble;
using rubble::test::eps;

TEST(Leapfrog, RotateBySpinIsTheExactRotation) {
    const Vec3 w(0.0, 0.0, 2.0); // rad/s about z
    const Quat q = integrate::rotate_by_spin(Quat::Identity(), w, 0.25 * pi);
    // Rotating by 2 * pi/4 = pi/2 about z maps x to y.
    EXPECT_NEAR((q * Vec3::UnitX() - Vec3::UnitY()).norm(), 0.0, 8 * eps);
    EXPECT_NEAR(q.norm(), 1.0, 4 * eps);
    const Quat same = integrate::rotate_by_spin(q, Vec3::Zero(), 10.0);
    EXPECT_EQ(same.coeffs(), q.coeffs());
}

TEST(Leapfrog, RotationsAboutOneAxisCompose) {
    const Vec3 w = Vec3(1.0, -2.0, 0.5);
    Quat q = Quat::Identity();
    for (int i = 0; i < 1000; ++i)
        q = integrate::rotate_by_spin(q, w, 1e-3);
    const Quat once = integrate::rotate_by_spin(Quat::Identity(), w, 1.0);
    EXPECT_NEAR(q.angularDistance(once), 0.0, 1e-12);
}

TEST(Leapfrog, DriftAndKickAreStraightLines) {
    Bodies b;
    b.add_sphere(0, 1.0, 0.1, Vec3(1, 2, 3), Vec3(0.5, 0, -1), Vec3::Zero());
    integrate::drift(b, 2.0);
    EXPECT_EQ(b.pos[0], Vec3(2, 2, 1));
    const std::vector<Vec3> acc{Vec3(0, 1, 0)};
    integrate::kick(b, acc, 0.5);
    EXPECT_EQ(b.vel[0], Vec3(0.5, 0.5, -1));
}

TEST(Diagnostics, SumsEnergiesAndMomenta) {
    Bodies b;
    b.add_sphere(0, 2.0, 1.0, Vec3(1, 0, 0), Vec3(0, 3, 0), Vec3(0, 0, 4));
    b.add_sphere(1, 2.0, 1.0, Vec3(-1, 0, 0), Vec3(0, -3, 0), Vec3::Zero());
    const std::vector<double> phi{-1.5, -1.5};
    const auto d = integrate::compute_diagnostics(b, phi, 1.0, 3);
    const double inertia = 0.4 * 2.0 * 1.0; // 2/5 m R^2
    EXPECT_DOUBLE_EQ(d.kinetic_translational, 2 * 0.5 * 2.0 * 9.0);
    EXPECT_DOUBLE_EQ(d.kinetic_rotational, 0.5 * inertia * 16.0);
    EXPECT_DOUBLE_EQ(d.potential, 0.5 * (2.0 * -1.5 * 2));
    EXPECT_EQ(d.momentum, Vec3::Zero());
    // Orbital L = 2 * (1 x 6 in z) = 12 z, spin L = I w = 0.8 * 4 z.
    EXPECT_NEAR((d.angular_momentum - Vec3(0, 0, 12.0 + inertia * 4.0)).norm(), 0.0, 16 * eps);
    EXPECT_NEAR((d.angular_momentum_com - d.angular_momentum).norm(), 0.0, 16 * eps);
}

TEST(Diagnostics, SpinAngularMomentumFollowsTheOrientation) {
    Bodies b;
    b.add_sphere(0, 1.0, 1.0, Vec3::Zero(), Vec3::Zero(), Vec3(0, 0, 1));
    b.inertia[0] = Vec3(1.0, 2.0, 3.0); // an elongated body: I_z = 3 in its own frame
    b.orientation[0] = Quat(Eigen::AngleAxisd(0.5 * pi, Vec3::UnitY())); // body z -> inertial x
    const std::vector<double> phi{0.0};
    const auto d = integrate::compute_diagnostics(b, phi, 0.0, 0);
    // Inertial z is the body's -x axis, so L = I_x w = 1 along z.
    EXPECT_NEAR((d.angular_momentum - Vec3(0, 0, 1.0)).norm(), 0.0, 16 * eps);
    EXPECT_NEAR(d.kinetic_rotational, 0.5, 16 * eps);
}
