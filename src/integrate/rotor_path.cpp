// SPDX-License-Identifier: MIT
#include "rubble/integrate/rotor_path.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "rubble/integrate/free_rotor.hpp"
#include "rubble/integrate/leapfrog.hpp"

namespace rubble::integrate {
namespace {

// One symmetric splitting step as its five axis flows: (axis, fraction of the step), in the
// order of split_free_rotor.
constexpr std::array<std::pair<int, double>, 5> pieces{
    {{0, 0.5}, {1, 0.5}, {2, 1.0}, {1, 0.5}, {0, 0.5}}};

// Round-off allowance on the bounds (relative): they are sums of a few dozen products.
constexpr double bound_margin = 1.0 + 1e-12;

struct StepBounds {
    double rate, acceleration;
};

// Bounds over 0 <= s <= tau on one splitting step from principal-frame angular momentum pi,
// from the chain rule through its pieces j = 1..5: Q(s) = Q_k R_a1(theta_1) ... R_a5(theta_5),
// theta_j = c_j s pi^(j-1)_a / I_a, pi^(j) = R_aj(-theta_j) pi^(j-1), |pi^(j)| = P:
//   theta_j'  = c_j (pi_a + s pi'_a) / I_a,
//   pi^(j)'   = R(-theta_j) pi^(j-1)' - theta_j' e_a x pi^(j),
//   theta_j'' = c_j (2 pi'_a + s pi''_a) / I_a,
//   pi^(j)''  = R pi'' - theta_j' e_a x R pi' - theta_j'' e_a x pi^(j) - theta_j' e_a x pi^(j)',
// with |pi^(j-1)_a| <= |pi_a| + P sum_(i<j) |theta_i| (each rotation moves pi by at most P
// times its angle). The path's angular velocity is sum_j theta_j' e_j(s), each axis e_j
// turning with the pieces before it, so a body-fixed point at distance rho moves at most
// W rho, W = sum_j |theta_j'|, and accelerates at most (W^2 + sum_j (|theta_j''| +
// |theta_j'| W_(j-1))) rho.
StepBounds step_bounds(const Vec3& pi, const Vec3& moments, double tau) {
    const double P = pi.norm();
    double moved = 0.0;      // bound on |pi^(j) - pi|
    double u = 0.0, z = 0.0; // bounds on |pi'|, |pi''|
    double W = 0.0, turn = 0.0;
    for (const auto& [a, c] : pieces) {
        const double inv = 1.0 / moments[a];
        const double component = std::abs(pi[a]) + moved;
        const double w = c * (component + tau * u) * inv;
        const double y = c * (2.0 * u + tau * z) * inv;
        const double u_next = u + w * P;
        z += w * u + y * P + w * u_next;
        u = u_next;
        moved += P * c * tau * component * inv;
        turn += y + w * W;
        W += w;
    }
    return StepBounds{W, W * W + turn};
}

} // namespace

RotorPath::RotorPath(const Quat& principal, const Vec3& spin, const Vec3& moments, double duration)
    : step_start_{principal}, moments_(moments), spin_(spin), duration_(duration) {
    spherical_ = moments.x() == moments.y() && moments.y() == moments.z();
    if (spherical_) {
        // A constant rotation: |dp/dt| = |w| rho, |d2p/dt2| = |w|^2 rho (centripetal).
        const double w = spin.norm();
        rate_bound_ = w * bound_margin;
        acceleration_bound_ = w * w * bound_margin;
        momentum_ = moments.x() * spin;
        tau_ = duration;
        return;
    }
    Vec3 pi = (principal.conjugate() * spin).cwiseProduct(moments);
    momentum_ = principal * pi;
    steps_ = free_rotor_steps(pi, moments, duration);
    tau_ = duration / steps_;
    step_pi_ = {pi};
    Quat q = principal;
    double rate = 0.0, acceleration = 0.0;
    for (double k = 0; k < steps_; ++k) {
        const StepBounds b = step_bounds(pi, moments, tau_);
        rate = std::max(rate, b.rate);
        acceleration = std::max(acceleration, b.acceleration);
        split_free_rotor(q, pi, moments, tau_, 1.0); // bitwise one step of turn_free_rotor
        step_start_.push_back(q);
        step_pi_.push_back(pi);
    }
    rate_bound_ = rate * bound_margin;
    acceleration_bound_ = acceleration * bound_margin;
}

std::size_t RotorPath::step_of(double t) const {
    // The step whose span [k tau, (k + 1) tau) holds t, with its ends computed as step_end
    // computes them, so that a time on a boundary belongs to the step that starts there.
    const auto last = static_cast<std::size_t>(steps_) - 1;
    auto k = static_cast<std::size_t>(std::clamp(std::floor(t / tau_), 0.0, steps_ - 1.0));
    while (k < last && t >= static_cast<double>(k + 1) * tau_)
        ++k;
    while (k > 0 && t < static_cast<double>(k) * tau_)
        --k;
    return k;
}

double RotorPath::step_end(double t) const {
    if (spherical_) return duration_;
    const std::size_t k = step_of(t);
    return k + 1 == static_cast<std::size_t>(steps_) ? duration_
                                                     : static_cast<double>(k + 1) * tau_;
}

Quat RotorPath::principal_at(double t) const {
    if (spherical_) return rotate_by_spin(step_start_[0], spin_, t);
    if (t >= duration_) return step_start_.back(); // (bitwise turn_free_rotor's end)
    // One splitting step of s from the step's start: the same operations on q as the overload
    // below, without the derivatives it carries.
    const std::size_t k = step_of(t);
    Quat q = step_start_[k];
    Vec3 pi = step_pi_[k];
    split_free_rotor(q, pi, moments_, std::max(0.0, t - static_cast<double>(k) * tau_), 1.0);
    return q;
}

Quat RotorPath::principal_at(double t, Vec3& angular_velocity) const {
    if (spherical_) {
        angular_velocity = spin_;
        return rotate_by_spin(step_start_[0], spin_, t);
    }
    if (t >= duration_) { // (bitwise turn_free_rotor's end)
        Vec3 w;
        (void)principal_at(std::nextafter(duration_, 0.0), w);
        angular_velocity = w;
        return step_start_.back();
    }
    const std::size_t k = step_of(t);
    const double s = std::max(0.0, t - static_cast<double>(k) * tau_);
    // The operations of split_free_rotor's axis flows on q and pi, with the derivatives of pi
    // and of the angles with respect to s carried along (step_bounds has the chain rule).
    Quat q = step_start_[k];
    Vec3 pi = step_pi_[k];
    Vec3 dpi = Vec3::Zero();
    Vec3 omega = Vec3::Zero();
    for (const auto& [a, c] : pieces) {
        const double step = c == 1.0 ? s : 0.5 * s;
        const double theta = step * pi[a] / moments_[a];
        const double dtheta = c * (pi[a] + s * dpi[a]) / moments_[a];
        const Vec3 axis = Vec3::Unit(a);
        omega += dtheta * (q * axis);
        const AxisRotation r = axis_rotation(a, theta);
        q = (q * r.q).normalized();
        pi = r.back(pi);
        dpi = r.back(dpi) - dtheta * axis.cross(pi);
    }
    angular_velocity = omega;
    return q;
}

Vec3 RotorPath::end_spin() const {
    if (spherical_) return spin_;
    return step_start_.back() * step_pi_.back().cwiseQuotient(moments_);
}

Vec3 RotorPath::spin_for(const Quat& q) const {
    if (spherical_) return spin_;
    return q * (q.conjugate() * momentum_).cwiseQuotient(moments_);
}

} // namespace rubble::integrate
