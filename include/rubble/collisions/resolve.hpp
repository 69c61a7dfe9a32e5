// SPDX-License-Identifier: MIT
#pragma once
// The outcome of a contact between two spheres with restitution and spin.
#include "rubble/core/types.hpp"

namespace rubble::collisions {

/// One sphere at the moment of contact.
struct SphereState {
    double mass = 0.0;        ///< kg
    double radius = 0.0;      ///< m
    double inertia = 0.0;     ///< kg m^2, moment of inertia about any axis through the centre
    Vec3 pos = Vec3::Zero();  ///< m
    Vec3 vel = Vec3::Zero();  ///< m/s
    Vec3 spin = Vec3::Zero(); ///< rad/s
};

struct Restitution {
    double normal = 1.0;     ///< eps_n in [0, 1]: u_n' = -eps_n u_n
    double tangential = 1.0; ///< eps_t in [-1, 1]: u_t' = eps_t u_t (1: smooth, no friction)
};

struct Outcome {
    Vec3 vel1, vel2;   ///< m/s
    Vec3 spin1, spin2; ///< rad/s
    Vec3 impulse;      ///< kg m/s, on sphere 2 (sphere 1 receives -impulse)
};

/// The normal and tangential parts of the relative velocity u (m/s) of the touching surface
/// points, for the unit normal n.
struct SplitVelocity {
    Vec3 normal, tangential;
};
[[nodiscard]] inline SplitVelocity split_velocity(const Vec3& u, const Vec3& n) {
    const Vec3 un = u.dot(n) * n;
    return SplitVelocity{un, u - un};
}

/// The restitution impulse of Richardson's model (eqs. 10-13 below) on the body on the side
/// the normal points to: J = -mu [(1 + eps_n) u_n + beta (1 - eps_t) u_t], with its tangential
/// part (the only part that exerts a torque about a sphere's centre). mu (kg) is the reduced
/// mass, the sphere's own mass against a wall (infinite mass); beta as tangential_beta.
struct ContactImpulse {
    Vec3 total, tangential; ///< kg m/s
};
[[nodiscard]] inline ContactImpulse restitution_impulse(const SplitVelocity& u, double mu,
                                                        double beta, const Restitution& eps) {
    const Vec3 tangential = -mu * beta * (1.0 - eps.tangential) * u.tangential;
    return ContactImpulse{-mu * (1.0 + eps.normal) * u.normal + tangential, tangential};
}

/// beta = 1 / (1 + mu R1^2 / I1 + mu R2^2 / I2), mu = m1 m2 / (m1 + m2): the fraction of the
/// reduced mass that resists a tangential impulse at the contact point. 2/7 for two solid
/// spheres of any sizes (I = 2/5 m R^2), as in Richardson et al. 2009 (P&SS 57, 183), eq. 11;
/// derived from the inertias so it stays right for other bodies.
[[nodiscard]] double tangential_beta(const SphereState& s1, const SphereState& s2);

/// Richardson's restitution model with spin (Richardson 1994 MNRAS 269, 493; Richardson et
/// al. 2009, eqs. 10-13). With n the unit vector from 1 to 2, contact arms s1 = R1 n and
/// s2 = -R2 n, and u = (v2 + w2 x s2) - (v1 + w1 x s1) the relative velocity of the touching
/// surface points split into u_n = (u.n) n and u_t = u - u_n, the impulse on sphere 2 is
/// J = -mu [(1 + eps_n) u_n + beta (1 - eps_t) u_t], so that
///   v1' = v1 + (m2/M)[(1 + eps_n) u_n + beta (1 - eps_t) u_t],  v2' likewise with -m1/M,
///   w1' = w1 + beta (mu / I1)(1 - eps_t)(s1 x u),  w2' = w2 + I2^-1 (s2 x J).
/// Linear momentum and the total (orbital + spin) angular momentum are conserved exactly
/// (equal and opposite impulses at one point); the kinetic energy drops by
/// mu/2 [(1 - eps_n^2) |u_n|^2 + beta (1 - eps_t^2) |u_t|^2]. Requires approaching spheres
/// (u.n < 0) in contact; the caller guarantees it.
[[nodiscard]] Outcome resolve_collision(const SphereState& s1, const SphereState& s2,
                                        const Restitution& eps);

} // namespace rubble::collisions
