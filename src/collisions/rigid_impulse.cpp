// SPDX-License-Identifier: MIT
#include "rubble/collisions/rigid_impulse.hpp"

#include <Eigen/Cholesky>

#include "rubble/core/rigid_body.hpp"

namespace rubble::collisions {
namespace {

Mat3 cross_matrix(const Vec3& r) {
    Mat3 m;
    m << 0.0, -r.z(), r.y(), r.z(), 0.0, -r.x(), -r.y(), r.x(), 0.0;
    return m;
}

// The contact in the terms of rigid_impulse.hpp: u_n, the normal impulse that stops it, the
// slip s and the impulse K^-1 s that removes it.
struct Split {
    double un;         // m/s
    double normal;     // kg m/s per unit (1 + eps_n): -u_n / (n.K n)
    Vec3 slip;         // m/s, s = u - P u
    Vec3 slip_impulse; // kg m/s, K^-1 s
    double n_k_n;      // 1/kg
};

Split split(const RigidState& b1, const RigidState& b2, const Vec3& p, const Vec3& n) {
    const Mat3 k = collision_matrix(b1, b2, p);
    const Vec3 u = contact_velocity(b1, b2, p);
    const Vec3 kn = k * n;
    Split c;
    c.un = n.dot(u);
    c.n_k_n = n.dot(kn);
    c.normal = -c.un / c.n_k_n;
    c.slip = u - (c.un / c.n_k_n) * kn;
    c.slip_impulse = k.llt().solve(c.slip); // K is symmetric positive definite
    return c;
}

} // namespace

RigidOutcome apply_impulse(const RigidState& b1, const RigidState& b2, const Vec3& p,
                           const Vec3& j) {
    RigidOutcome o;
    o.impulse = j;
    o.vel1 = b1.vel - b1.inv_mass * j;
    o.vel2 = b2.vel + b2.inv_mass * j;
    o.spin1 = b1.spin - b1.inv_inertia * (p - b1.centre).cross(j);
    o.spin2 = b2.spin + b2.inv_inertia * (p - b2.centre).cross(j);
    return o;
}

namespace {

Vec3 restitution_impulse(const Split& c, const Vec3& n, double eps_n, double eps_t) {
    return (1.0 + eps_n) * c.normal * n - (1.0 - eps_t) * c.slip_impulse;
}

} // namespace

RigidState rigid_state(const Bodies& b, std::size_t k) {
    return RigidState{1.0 / b.mass[k], b.pos[k], b.vel[k], b.spin[k],
                      inverse_inertia_tensor(principal_to_inertial(b, k), b.inertia[k])};
}

RigidState rigid_state(const SphereState& s) {
    return RigidState{1.0 / s.mass, s.pos, s.vel, s.spin, Mat3::Identity() / s.inertia};
}

RigidState wall_state(const Vec3& point, const Vec3& surface_velocity) {
    return RigidState{0.0, point, surface_velocity, Vec3::Zero(), Mat3::Zero()};
}

Mat3 collision_matrix(const RigidState& b1, const RigidState& b2, const Vec3& p) {
    const Mat3 x1 = cross_matrix(p - b1.centre), x2 = cross_matrix(p - b2.centre);
    return (b1.inv_mass + b2.inv_mass) * Mat3::Identity() - x1 * b1.inv_inertia * x1 -
           x2 * b2.inv_inertia * x2;
}

Vec3 contact_velocity(const RigidState& b1, const RigidState& b2, const Vec3& p) {
    return (b2.vel + b2.spin.cross(p - b2.centre)) - (b1.vel + b1.spin.cross(p - b1.centre));
}

RigidOutcome resolve_rigid_contact(const RigidState& b1, const RigidState& b2, const Vec3& p,
                                   const Vec3& n, const Restitution& eps) {
    const Split c = split(b1, b2, p, n);
    RigidOutcome o =
        apply_impulse(b1, b2, p, restitution_impulse(c, n, eps.normal, eps.tangential));
    o.tangential = eps.tangential;
    return o;
}

RigidOutcome resolve_rigid_contact(const RigidState& b1, const RigidState& b2, const Vec3& p,
                                   const Vec3& n, const Friction& f) {
    const Split c = split(b1, b2, p, n);
    // J(alpha) = J_0 - alpha K^-1 s: J_0 = (1 + eps_n) c.normal n lies on the cone's axis
    // (J_0n > 0 for approaching bodies), so the segment to J_s leaves the convex cone at most
    // once, where alpha |b_t| = mu (J_0n - alpha b_n) with b = K^-1 s.
    const double j0n = (1.0 + f.normal) * c.normal;
    const double bn = n.dot(c.slip_impulse);
    const double bt = (c.slip_impulse - bn * n).norm();
    const bool sticking = bt <= f.mu * (j0n - bn);
    // Not sticking means bt > mu (j0n - bn), so the denominator exceeds mu j0n >= 0.
    const double alpha = sticking ? 1.0 : f.mu * j0n / (bt + f.mu * bn);
    RigidOutcome o = apply_impulse(b1, b2, p, restitution_impulse(c, n, f.normal, 1.0 - alpha));
    o.tangential = 1.0 - alpha;
    o.sticking = sticking;
    return o;
}

double rigid_contact_energy_loss(const RigidState& b1, const RigidState& b2, const Vec3& p,
                                 const Vec3& n, const Restitution& eps) {
    const Split c = split(b1, b2, p, n);
    return 0.5 * (1.0 - eps.normal * eps.normal) * c.un * c.un / c.n_k_n +
           0.5 * (1.0 - eps.tangential * eps.tangential) * c.slip.dot(c.slip_impulse);
}

} // namespace rubble::collisions
