// SPDX-License-Identifier: MIT
// Bodies of several spheres: mass properties, gravity torques, the kick with torque and the
// torque-free rotation of the drift (in preparation for rigid aggregates).
#include <cmath>
#include <memory>

#include <gtest/gtest.h>

#include "rubble/core/rigid_body.hpp"
#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/integrate/diagnostics.hpp"
#include "rubble/integrate/free_rotor.hpp"
#include "rubble/integrate/leapfrog.hpp"
#include "rubble/integrate/simulation.hpp"
#include "tolerances.hpp"

using namespace rubble;
using test::eps;

namespace {

// Two equal spheres (mass m, radius R) a distance 2d apart along the body's x axis.
std::vector<SpherePart> dumbbell(double m, double R, double d) {
    return {{Vec3(-d, 0, 0), R, m}, {Vec3(d, 0, 0), R, m}};
}

} // namespace

TEST(RigidBody, DumbbellMassPropertiesAreTheParallelAxisSums) {
    const double m = 3.0, R = 0.5, d = 2.0;
    const MassProperties p = mass_properties(dumbbell(m, R, d));
    const double own = 2.0 * 0.4 * m * R * R;
    EXPECT_EQ(p.mass, 2.0 * m);
    EXPECT_EQ(p.centre, Vec3::Zero());
    EXPECT_NEAR(p.moments[0], own, 8 * eps * own);
    EXPECT_NEAR(p.moments[1], own + 2.0 * m * d * d, 8 * eps * (own + 2 * m * d * d));
    EXPECT_NEAR(p.moments[2], own + 2.0 * m * d * d, 8 * eps * (own + 2 * m * d * d));
    // The smallest moment's axis is the dumbbell's.
    EXPECT_NEAR(std::abs((p.axes * Vec3::UnitX()).dot(Vec3::UnitX())), 1.0, 8 * eps);
    EXPECT_NEAR(p.axes.toRotationMatrix().determinant(), 1.0, 8 * eps);
    EXPECT_EQ(p.bounding_radius, d + R);
}

TEST(RigidBody, InertiaTensorIsTheSameInEveryOrientation) {
    // A body stored rotated: its inertial-frame tensor must equal R I_body R^T.
    const std::vector<SpherePart> parts{
        {Vec3(0, 0, 0), 1.0, 1.0}, {Vec3(1.5, 0.5, 0), 0.7, 0.4}, {Vec3(-0.3, 1.2, 0.8), 0.5, 0.2}};
    const MassProperties p = mass_properties(parts);
    Bodies b;
    const Quat q(Eigen::AngleAxisd(0.7, Vec3(1, -2, 0.5).normalized()));
    add_rigid_body(b, 1, parts, Vec3(5, 0, 0), Vec3::Zero(), Vec3::Zero(), q);
    const Mat3 want = q.toRotationMatrix() * p.inertia * q.toRotationMatrix().transpose();
    EXPECT_LT((inertia_tensor(b, 0) - want).norm(), 32 * eps * p.inertia.norm());
    EXPECT_NO_THROW(b.check_consistent());
}

TEST(RigidBody, GravityTorqueOfAPointMassOnADumbbellIsTheTidalTorque) {
    // A dumbbell at the origin tilted by phi in the xy plane, a point mass M0 at distance D on
    // the x axis. The exact torque is sum m_i rho_i x (a_i - a_body); its quadrupole limit is
    // N_z = -3 G M0 / D^3 (I_yy - I_xx) sin(phi) cos(phi) (Murray & Dermott 1999, eq. 5.40)
    // with relative corrections O((d/D)^2).
    const double G = 1.0, M0 = 1e3, D = 200.0, m = 1.0, R = 0.5, d = 2.0, phi = 0.4;
    Bodies b;
    add_rigid_body(b, 0, dumbbell(m, R, d), Vec3::Zero(), Vec3::Zero(), Vec3::Zero(),
                   Quat(Eigen::AngleAxisd(phi, Vec3::UnitZ())));
    b.add_sphere(1, M0, 1.0, Vec3(D, 0, 0), Vec3::Zero(), Vec3::Zero());
    integrate::Simulation sim(b, std::make_unique<gravity::DirectGravity>(G, 0.0), 1.0);
    // Exact, from the two sphere centres.
    const Vec3 axis(std::cos(phi), std::sin(phi), 0.0);
    Vec3 a[2], a_body = Vec3::Zero();
    for (int k = 0; k < 2; ++k) {
        const Vec3 r = (k == 0 ? -d : d) * axis - Vec3(D, 0, 0);
        a[k] = -G * M0 * r / std::pow(r.norm(), 3);
        a_body += 0.5 * a[k];
    }
    Vec3 exact = Vec3::Zero();
    for (int k = 0; k < 2; ++k)
        exact += m * ((k == 0 ? -d : d) * axis).cross(a[k] - a_body);
    ASSERT_EQ(sim.torques().size(), 2U);
    const Vec3 got = sim.torques()[0];
    EXPECT_LT((got - exact).norm(), 1e3 * eps * exact.norm()); // round-off of a difference
    EXPECT_NEAR(sim.accelerations()[0].x(), a_body.x(), 1e3 * eps * a_body.norm());
    const double tidal =
        -3.0 * G * M0 / (D * D * D) * (2.0 * m * d * d) * std::sin(phi) * std::cos(phi);
    EXPECT_NEAR(got.z() / tidal, 1.0, 10.0 * (d / D) * (d / D));
    EXPECT_EQ(sim.torques()[1], Vec3::Zero()); // a free sphere
}

TEST(RigidBody, KickChangesTheAngularMomentumByTheTorqueImpulse) {
    Bodies b;
    add_rigid_body(b, 0, {{Vec3(0, 0, 0), 1.0, 2.0}, {Vec3(3, 1, 0), 0.5, 0.5}}, Vec3::Zero(),
                   Vec3::Zero(), Vec3(0.1, -0.2, 0.3),
                   Quat(Eigen::AngleAxisd(1.1, Vec3(0, 1, 1).normalized())));
    const Vec3 L0 = inertia_tensor(b, 0) * b.spin[0];
    const std::vector<Vec3> acc{Vec3(1, 0, 0)}, torque{Vec3(0.5, 0.25, -1.0)};
    const double h = 0.3;
    integrate::kick(b, acc, torque, h);
    const Vec3 L1 = inertia_tensor(b, 0) * b.spin[0];
    EXPECT_LT((L1 - L0 - h * torque[0]).norm(), 64 * eps * (L0.norm() + h * torque[0].norm()));
    EXPECT_EQ(b.vel[0], Vec3(0.3, 0, 0));
}

TEST(RigidBody, FreeRotorKeepsTheAngularMomentumAndIsSecondOrder) {
    // An axisymmetric body (I1 = I2 != I3) turning without torque: its body-frame angular
    // velocity precesses about the symmetry axis at Omega = (I3 - I1) / I1 w3 (Landau &
    // Lifshitz, Mechanics, sec. 36). The splitting conserves L to round-off per sub-step and
    // is second order: halving the sub-step divides the error by 4.
    const Vec3 I(2.0, 2.0, 3.0);
    const Vec3 w_body0(0.3, 0.0, 1.0);
    const double Omega = (I.z() - I.x()) / I.x() * w_body0.z(), t = 7.0;
    const auto run = [&](double h) {
        Quat q = Quat::Identity();
        Vec3 w = w_body0;
        const Vec3 L0 = q * I.cwiseProduct(q.conjugate() * w);
        double max_dL = 0.0;
        for (double s = 0; s < t / h - 0.5; ++s) {
            integrate::turn_free_rotor(q, w, I, h);
            max_dL = std::max(max_dL, ((q * I.cwiseProduct(q.conjugate() * w)) - L0).norm());
        }
        const Vec3 wb = q.conjugate() * w;
        const Vec3 want(0.3 * std::cos(Omega * t), 0.3 * std::sin(Omega * t), 1.0);
        EXPECT_LT(max_dL, 1e3 * eps * L0.norm()) << "h = " << h;
        return (wb - want).norm();
    };
    // Steps small enough that each is one splitting step (|L| h / I_min = 0.043 <
    // free_rotor_max_angle, so whether sub-steps are counted from max_a |w_a| or its bound).
    const double e1 = run(0.028), e2 = run(0.014);
    EXPECT_GT(e1, 1e3 * eps); // well above round-off, so the ratio measures the order
    EXPECT_GT(e1 / e2, test::order2_ratio_min);
    EXPECT_LT(e1 / e2, test::order2_ratio_max);
}

TEST(RigidBody, ADumbbellOrbitingAPointMassConservesAngularMomentum) {
    // Orbit plus spin angular momentum is conserved by the KDK step with gravity torques (each
    // kick and each free-rotor drift keeps the total), to round-off; the energy to O(dt^2).
    const double G = 1.0, M0 = 1e3, D = 50.0;
    Bodies b;
    b.add_sphere(0, M0, 1.0, Vec3::Zero(), Vec3::Zero(), Vec3::Zero());
    add_rigid_body(b, 1, dumbbell(0.5, 0.5, 2.0), Vec3(D, 0, 0), Vec3(0, std::sqrt(G * M0 / D), 0),
                   Vec3(0.05, 0.0, 0.2), Quat(Eigen::AngleAxisd(0.3, Vec3(1, 1, 0).normalized())));
    const auto energy_error = [&](double dt, Vec3* dL, double* L_scale) {
        integrate::Simulation sim(b, std::make_unique<gravity::DirectGravity>(G, 0.0), dt);
        const auto d0 = integrate::compute_diagnostics(sim.bodies(), sim.potentials(), 0, 0);
        const double period = 2 * pi * std::sqrt(D * D * D / (G * M0));
        while (sim.time() < period)
            sim.step();
        const auto d1 = integrate::compute_diagnostics(sim.bodies(), sim.potentials(), 0, 0);
        *dL = d1.angular_momentum - d0.angular_momentum;
        *L_scale = d0.angular_momentum.norm();
        return std::abs(d1.total_energy - d0.total_energy) / std::abs(d0.total_energy);
    };
    Vec3 dL1, dL2;
    double L1, L2;
    const double e1 = energy_error(0.2, &dL1, &L1), e2 = energy_error(0.1, &dL2, &L2);
    EXPECT_LT(dL1.norm(), 1e-11 * L1); // round-off accumulated over ~5000 steps
    EXPECT_LT(dL2.norm(), 1e-11 * L2);
    EXPECT_GT(e1 / e2, test::order2_ratio_min);
    EXPECT_LT(e1 / e2, test::order2_ratio_max);
}
