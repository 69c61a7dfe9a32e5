// SPDX-License-Identifier: MIT
#include "rubble/integrate/free_rotor.hpp"

#include <algorithm>
#include <cmath>

namespace rubble::integrate {
namespace {

// The flow of pi_a^2 / (2 I_a) for a time t: the body turns about its principal axis a at the
// constant rate pi_a / I_a, so Q <- Q R_a(theta) and pi = Q^T L <- R_a(-theta) pi.
void axis_flow(int a, Quat& q, Vec3& pi, const Vec3& moments, double t) {
    const AxisRotation r = axis_rotation(a, t * pi[a] / moments[a]);
    q = (q * r.q).normalized();
    pi = r.back(pi);
}

} // namespace

double free_rotor_steps(const Vec3& pi, const Vec3& moments, double h) {
    // Sub-steps so that no axis turns by more than free_rotor_max_angle in one, counted from
    // |L| / I_min >= max_a |w_a|: |L| = |pi| is kept by every axis flow, so every drift of a
    // given length takes the same sub-steps. A count taken from the present rates would make
    // the step length depend on the state, and the composed map would no longer be symplectic
    // (Hairer, Lubich & Wanner 2006, sec. VIII.1): its energy drifts (docs/aggregates.md).
    const double rate = pi.norm() / moments.minCoeff();
    return std::max(1.0, std::ceil(rate * std::abs(h) / free_rotor_max_angle));
}

void split_free_rotor(Quat& principal, Vec3& pi, const Vec3& moments, double h, double steps) {
    const double dt = h / steps;
    for (double k = 0; k < steps; ++k) {
        axis_flow(0, principal, pi, moments, 0.5 * dt);
        axis_flow(1, principal, pi, moments, 0.5 * dt);
        axis_flow(2, principal, pi, moments, dt);
        axis_flow(1, principal, pi, moments, 0.5 * dt);
        axis_flow(0, principal, pi, moments, 0.5 * dt);
    }
}

void turn_free_rotor(Quat& principal, Vec3& spin, const Vec3& moments, double h) {
    Vec3 pi = principal.conjugate() * spin; // body-frame angular velocity ...
    pi = pi.cwiseProduct(moments);          // ... and angular momentum
    split_free_rotor(principal, pi, moments, h, free_rotor_steps(pi, moments, h));
    spin = principal * pi.cwiseQuotient(moments);
}

} // namespace rubble::integrate
