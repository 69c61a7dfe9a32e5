// SPDX-License-Identifier: MIT
// The torque-free rotation of the drift (integrate/free_rotor.hpp) against the analytic rigid
// body: the symmetric top's regular precession, the asymmetric top's flip about its
// intermediate axis (Dzhanibekov effect, period from Jacobi elliptic functions), and the
// energy and angular momentum of an asymmetric top over many periods.
//
// Error model: the splitting is the symmetric (Strang) composition of three exact axis flows,
// so its one-step error is h^3 times double commutators of the flows (Baker-Campbell-
// Hausdorff, coefficients 1/12 and 1/24; Hairer, Lubich & Wanner 2006, sec. III.5). Each flow
// turns the body at a rate <= |w| and the commutators of the Euler vector fields carry factors
// (I_a - I_b) / I_c <= I_max / I_min, so per unit time a frequency, a phase rate or a
// conserved quantity is off by at most c (|w| h)^2 |w|, with
// c = rotor_bch_coefficient (I_max / I_min)^2, and the error is second order: halving h
// divides it by 4 (test::order2_ratio_*). Invariants of the exact flow that the scheme keeps
// only near (the energy, the cone angle) oscillate by O((|w| h)^2) without drifting, as the
// scheme is symplectic (its modified Hamiltonian is conserved; Hairer et al. sec. IX.3).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include <gtest/gtest.h>

#include "euler_rk5.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/integrate/free_rotor.hpp"
#include "rubble/integrate/leapfrog.hpp"
#include "tolerances.hpp"

using namespace rubble;
using test::eps;

namespace {

/// 1/12 + 1/24 of the two nested BCH commutators of a Strang step, rounded up to 1/4 for the
/// third flow's commutators with the other two.
constexpr double rotor_bch_coefficient = 0.25;

/// Bound on a relative rate error of the splitting with step h: c (|w| h)^2 (header note).
double rate_error_bound(const Vec3& moments, double w, double h) {
    const double ratio = moments.maxCoeff() / moments.minCoeff();
    return rotor_bch_coefficient * ratio * ratio * (w * h) * (w * h);
}

/// Body-frame angular momentum pi = I R^T w of a body whose principal frame is q.
Vec3 body_momentum(const Quat& q, const Vec3& spin, const Vec3& moments) {
    return moments.cwiseProduct(q.conjugate() * spin);
}

/// Period of the body-frame angular velocity of a free asymmetric top, I1 < I2 < I3, of
/// energy E and angular momentum M (twoE = 2 E, M2 = M^2): T = 4 K(k) / rate, with the rate and
/// modulus of Landau & Lifshitz, Mechanics, sec. 37, eqs. 37.8-37.10 (for M^2 < 2 E I2, I1 and I3
/// swap roles). The intermediate component w2 goes as sn, so it changes sign every T / 2.
double flip_period(const Vec3& I, double twoE, double M2) {
    const double I1 = I.x(), I2 = I.y(), I3 = I.z();
    double rate = 0.0, k2 = 0.0;
    if (M2 > twoE * I2) {
        rate = std::sqrt((I3 - I2) * (M2 - twoE * I1) / (I1 * I2 * I3));
        k2 = (I2 - I1) * (twoE * I3 - M2) / ((I3 - I2) * (M2 - twoE * I1));
    } else {
        rate = std::sqrt((I2 - I1) * (twoE * I3 - M2) / (I1 * I2 * I3));
        k2 = (I3 - I2) * (M2 - twoE * I1) / ((I2 - I1) * (twoE * I3 - M2));
    }
    return 4.0 * std::comp_ellint_1(std::sqrt(k2)) / rate;
}

double flip_period(const Vec3& I, const Vec3& w) {
    return flip_period(I, w.dot(I.cwiseProduct(w)), I.cwiseProduct(w).squaredNorm());
}

/// Times at which x(t), sampled every h from t = 0, changes sign, by linear interpolation
/// (w2 ~ sn is odd about its zeros, so the interpolation error is O(h^3)).
struct SignChanges {
    double h;
    std::vector<double> times;
    double t = 0.0, last = 0.0;
    bool started = false;
    void add(double x) {
        if (started && (x > 0.0) != (last > 0.0)) times.push_back(t - h * x / (x - last));
        last = x;
        started = true;
        t += h;
    }
    /// Mean spacing between the first and the last sign change.
    [[nodiscard]] double mean_spacing() const {
        return (times.back() - times.front()) / static_cast<double>(times.size() - 1);
    }
};

// Three equal spheres on an equilateral triangle: an oblate symmetric top (I1 = I2 < I3),
// laid out in a tilted plane so that its principal axes are not its body axes.
std::vector<SpherePart> triangle() {
    const Quat tilt(Eigen::AngleAxisd(0.9, Vec3(1, 2, -1).normalized()));
    std::vector<SpherePart> parts;
    for (int k = 0; k < 3; ++k) {
        const double a = 2.0 * pi * k / 3.0;
        parts.push_back({tilt * Vec3(std::cos(a), std::sin(a), 0.0), 0.5, 1.0});
    }
    return parts;
}

struct TopErrors {
    double axis;     ///< |n(T) - n_exact(T)|, symmetry axis at the end
    double axis_max; ///< bound on it from rate_error_bound
    double cone;     ///< max |theta(t) - theta(0)| (rad)
    double cone_max; ///< bound on it
    double precession_rate, cone_angle;
};

// Regular precession of a torque-free symmetric top (Landau & Lifshitz, Mechanics, sec. 33):
// the symmetry axis n turns about the fixed angular momentum L at Omega_p = |L| / I1 on a cone
// of half-angle theta, cos theta = I3 w3 / |L|. Integrated by the drift of a rigid body of
// spheres for a time T.
TopErrors symmetric_top(double h, double T) {
    Bodies b;
    const Vec3 w0(0.35, -0.2, 0.9);
    add_rigid_body(b, 0, triangle(), Vec3::Zero(), Vec3::Zero(), w0,
                   Quat(Eigen::AngleAxisd(0.4, Vec3(0, 1, 1).normalized())));
    const Vec3 I = b.inertia[0];
    const Vec3 L = inertia_tensor(b, 0) * b.spin[0];
    const Vec3 n0 = principal_to_inertial(b, 0) * Vec3::UnitZ();
    const double Omega_p = L.norm() / (0.5 * (I.x() + I.y()));
    const double theta0 = std::acos(n0.dot(L.normalized()));
    double cone = 0.0;
    const auto steps = static_cast<long>(std::lround(T / h));
    for (long s = 0; s < steps; ++s) {
        integrate::drift(b, h);
        const Vec3 n = principal_to_inertial(b, 0) * Vec3::UnitZ();
        cone = std::max(cone, std::abs(std::acos(n.dot(L.normalized())) - theta0));
    }
    const Vec3 n_exact = Eigen::AngleAxisd(Omega_p * T, L.normalized()) * n0;
    const Vec3 n = principal_to_inertial(b, 0) * Vec3::UnitZ();
    const double bound = rate_error_bound(I, w0.norm(), h);
    return {
        (n - n_exact).norm(), std::sin(theta0) * Omega_p * T * bound, cone, bound, Omega_p, theta0};
}

} // namespace

TEST(FreeRotor, SymmetricTopPrecessesAtTheAnalyticRateOnItsCone) {
    const double T = 60.0; // about ten precession periods
    // |L| h / I_min = 0.046 and 0.023 < free_rotor_max_angle: one splitting step per drift,
    // whether the sub-steps are counted from max_a |w_a| or from its bound |L| / I_min.
    const TopErrors e1 = symmetric_top(0.03, T), e2 = symmetric_top(0.015, T);
    std::printf("[measured] symmetric top, Omega_p %.4f rad/s, cone %.4f rad: axis error at T "
                "%.3e / %.3e (bound %.3e / %.3e), cone-angle error %.3e / %.3e (bound %.3e)\n",
                e1.precession_rate, e1.cone_angle, e1.axis, e2.axis, e1.axis_max, e2.axis_max,
                e1.cone, e2.cone, e1.cone_max);
    EXPECT_LT(e1.axis, e1.axis_max);
    EXPECT_LT(e2.axis, e2.axis_max);
    EXPECT_LT(e1.cone, e1.cone_max);
    EXPECT_LT(e2.cone, e2.cone_max);
    // Well above round-off, so the ratios measure the order.
    ASSERT_GT(e2.axis, 1e6 * eps);
    ASSERT_GT(e2.cone, 1e6 * eps);
    EXPECT_GT(e1.axis / e2.axis, test::order2_ratio_min);
    EXPECT_LT(e1.axis / e2.axis, test::order2_ratio_max);
    EXPECT_GT(e1.cone / e2.cone, test::order2_ratio_min);
    EXPECT_LT(e1.cone / e2.cone, test::order2_ratio_max);
}

namespace {

// An asymmetric top (I = 1, 2, 3) started near its intermediate axis (k^2 = 0.99): it flips
// over every half period.
const Vec3 flip_moments(1.0, 2.0, 3.0);
const Vec3 flip_w0(0.1, 1.0, 0.08);

// Mean spacing of the sign changes of w2 over six flips, integrated by the splitting with
// step h (|L| h / I_min <= free_rotor_max_angle for h <= 0.024: one splitting step per call,
// whether the sub-steps are counted from max_a |w_a| or from its bound |L| / I_min).
double splitting_flip_time(double h, double t_end) {
    Quat q = Quat::Identity();
    Vec3 w = flip_w0;
    SignChanges changes{h, {}};
    changes.add(w.y());
    for (double t = 0.0; t < t_end; t += h) {
        integrate::turn_free_rotor(q, w, flip_moments, h);
        changes.add((q.conjugate() * w).y());
    }
    EXPECT_GE(changes.times.size(), 6U);
    return changes.mean_spacing();
}

} // namespace

TEST(FreeRotor, IntermediateAxisFlipPeriodMatchesTheEllipticFunctionSolution) {
    const double T = flip_period(flip_moments, flip_w0), t_end = 3.2 * T;
    const double e1 = std::abs(2.0 * splitting_flip_time(0.02, t_end) / T - 1.0);
    const double e2 = std::abs(2.0 * splitting_flip_time(0.01, t_end) / T - 1.0);
    // Near the separatrix the period depends on the energy through K(k): the splitting keeps
    // |L| exactly and the energy within O((|w| h)^2), and a relative energy error dE/E changes
    // T by (d ln T / d ln E) dE/E at fixed |L|. That amplification (from the analytic period,
    // plus one for the phase error itself) multiplies the rate bound.
    const double twoE = flip_w0.dot(flip_moments.cwiseProduct(flip_w0));
    const double M2 = flip_moments.cwiseProduct(flip_w0).squaredNorm(), dE = 1e-6;
    const double amplification =
        std::abs(std::log(flip_period(flip_moments, twoE * (1.0 + dE), M2) / T) / dE) + 1.0;
    const double w = flip_w0.norm();
    std::printf("[measured] Dzhanibekov flip: T %.6f s, relative period error %.3e (h 0.02) "
                "%.3e (h 0.01), bound %.3e (amplification %.2f)\n",
                T, e1, e2, amplification * rate_error_bound(flip_moments, w, 0.02), amplification);
    EXPECT_LT(e1, amplification * rate_error_bound(flip_moments, w, 0.02));
    EXPECT_LT(e2, amplification * rate_error_bound(flip_moments, w, 0.01));
    ASSERT_GT(e2, 1e6 * eps);
    EXPECT_GT(e1 / e2, test::order2_ratio_min);
    EXPECT_LT(e1 / e2, test::order2_ratio_max);
}

TEST(FreeRotor, Rk5ReferenceReproducesTheFlipPeriod) {
    // The benchmark's reference (tests/support/euler_rk5.hpp) is checked on the same top: with
    // a local tolerance of 1e-12 over ~1000 steps, its period error is ~1e-9; the sampling every
    // 1e-3 s adds O(h^3) to each interpolated sign change.
    const double T = flip_period(flip_moments, flip_w0), h = 1e-3;
    test::EulerRk5 rk(flip_moments, Quat::Identity(), flip_w0, 1e-12, 1e-14);
    SignChanges changes{h, {}};
    changes.add(rk.w_body().y());
    for (double t = 0.0; t < 3.2 * T; t += h) {
        rk.advance(h);
        changes.add(rk.w_body().y());
    }
    ASSERT_GE(changes.times.size(), 6U);
    EXPECT_NEAR(2.0 * changes.mean_spacing() / T, 1.0, 1e-7);
    EXPECT_NEAR(rk.orientation().norm(), 1.0, 1e-9);
}

TEST(FreeRotor, AsymmetricTopKeepsAngularMomentumAndABoundedEnergyOverManyPeriods) {
    const Vec3 I(1.0, 2.0, 3.0), w0(0.6, 0.3, 0.8);
    const double h = 0.04, rotation = 2.0 * pi / w0.norm();
    const long rotations = 10000;
    const auto steps = static_cast<long>(rotations * rotation / h);
    Quat q = Quat::Identity();
    Vec3 w = w0;
    const Vec3 L0 = q * body_momentum(q, w, I);
    const double E0 = 0.5 * w0.dot(I.cwiseProduct(w0));
    double dL = 0.0, dE_first = 0.0, dE_last = 0.0, dE = 0.0;
    for (long s = 0; s < steps; ++s) {
        integrate::turn_free_rotor(q, w, I, h);
        const Vec3 pi_body = body_momentum(q, w, I);
        dL = std::max(dL, (q * pi_body - L0).norm() / L0.norm());
        const double e = std::abs(0.5 * pi_body.dot(pi_body.cwiseQuotient(I)) / E0 - 1.0);
        dE = std::max(dE, e);
        if (s < steps / 10) dE_first = std::max(dE_first, e);
        if (s >= steps - steps / 10) dE_last = std::max(dE_last, e);
    }
    std::printf("[measured] asymmetric top, %ld rotations, %ld steps: max |L - L0| / |L0| "
                "%.3e, max |E - E0| / E0 %.3e (first tenth %.3e, last tenth %.3e)\n",
                rotations, steps, dL, dE, dE_first, dE_last);
    // Every axis flow rotates q and pi by opposite angles, so L = q pi is exact but for the
    // round-off of the five flows of a step (a few operations each), summed over the steps.
    EXPECT_LT(dL, test::summation_bound(5.0 * static_cast<double>(steps)));
    // The energy oscillates within the splitting's O((|w| h)^2) and does not drift: the last
    // tenth of the run reaches no further than the first tenth (a linear drift would reach
    // ten times as far), with a margin of half for where the quasi-periodic error peaks.
    EXPECT_LT(dE, rate_error_bound(I, w0.norm(), h));
    EXPECT_LT(dE_last, 1.5 * dE_first);
    EXPECT_GT(dE, 1e6 * eps); // the check sees the scheme's error, not round-off
}

namespace {

// Largest relative energy error of the asymmetric top over the first and the last tenth of
// `rotations` rotations, turned by calls of length h.
std::pair<double, double> energy_error_first_last(double h, long rotations) {
    const Vec3 I(1.0, 2.0, 3.0), w0(0.6, 0.3, 0.8);
    const auto calls = static_cast<long>(static_cast<double>(rotations) * 2.0 * pi / w0.norm() / h);
    const double E0 = 0.5 * w0.dot(I.cwiseProduct(w0));
    Quat q = Quat::Identity();
    Vec3 w = w0;
    double first = 0.0, last = 0.0;
    for (long s = 0; s < calls; ++s) {
        integrate::turn_free_rotor(q, w, I, h);
        const Vec3 wb = q.conjugate() * w;
        const double e = std::abs(0.5 * wb.dot(I.cwiseProduct(wb)) / E0 - 1.0);
        if (s < calls / 10) first = std::max(first, e);
        if (s >= calls - calls / 10) last = std::max(last, e);
    }
    return {first, last};
}

} // namespace

// A drift longer than one splitting step is cut into sub-steps. Their number must not depend
// on the state, or the step length would, the composed map would no longer be symplectic, and
// the energy would drift (Hairer, Lubich & Wanner 2006, sec. VIII.1: variable steps destroy
// the near-conservation of a symplectic method). turn_free_rotor counts them from
// |L| / I_min, which the flow conserves exactly; counted from the present fastest axis rate,
// as it once was, calls of 1.5 s (up to 24 sub-steps) drifted by 2.6e-3 in 1e3 rotations and
// 5.6e-2 in 1e6, while calls of one sub-step (0.04 s) kept 3.9e-6 with no drift.
TEST(FreeRotor, EnergyDoesNotDriftWhenADriftTakesSeveralSubSteps) {
    const auto [first, last] = energy_error_first_last(1.5, 5000);
    std::printf("[measured] calls of 1.5 s, 5000 rotations: max |E - E0| / E0 first tenth "
                "%.3e, last tenth %.3e\n",
                first, last);
    EXPECT_LT(last, 1.5 * first);
}
