// SPDX-License-Identifier: MIT
#pragma once
// The impulse at one contact point between two rigid bodies of any inertia tensors (aggregates,
// free spheres, a wall as a body of infinite mass), with restitution and either a tangential
// restitution coefficient or Coulomb friction. Pure functions; the event-driven drift calls
// them. The model, its derivation and what it conserves: docs/aggregates.md, "Contacts between
// rigid bodies".
//
// Notation (all in the inertial frame). Body k has inverse mass 1/m_k, centre of mass c_k,
// velocity v_k, angular velocity w_k and inverse inertia tensor A_k = I_k^-1. The contact is at
// p with unit normal n pointing from body 1 to body 2; r_k = p - c_k are the arms and
// u = (v2 + w2 x r2) - (v1 + w1 x r1) the relative velocity of the touching material points,
// u_n = n.u < 0 when they approach. An impulse J on body 2 (-J on body 1) changes u by K J with
// the collision matrix (Richardson, PiTP lectures, "off-centre collisions"; Mirtich 1996, PhD
// thesis, UC Berkeley, ch. 4)
//   K = (1/m1 + 1/m2) 1 - [r1]x A1 [r1]x - [r2]x A2 [r2]x,
// symmetric and positive definite when either body has finite mass, and the kinetic energy by
// J.(u + u')/2, so that with M = K^-1 the loss is (1/2) u.M u - (1/2) u'.M u'.
#include <cstddef>

#include "rubble/collisions/resolve.hpp"
#include "rubble/core/bodies.hpp"
#include "rubble/core/types.hpp"

namespace rubble::collisions {

/// One rigid body at the moment of contact, inertial frame.
struct RigidState {
    double inv_mass = 0.0;           ///< 1/kg; 0 for a wall (infinite mass)
    Vec3 centre = Vec3::Zero();      ///< m, centre of mass
    Vec3 vel = Vec3::Zero();         ///< m/s, velocity of the centre of mass
    Vec3 spin = Vec3::Zero();        ///< rad/s, angular velocity
    Mat3 inv_inertia = Mat3::Zero(); ///< 1/(kg m^2), I^-1 about the centre of mass
};

/// Body row k of b: I^-1 = R diag(1/I_i) R^T with R = principal_to_inertial(b, k).
[[nodiscard]] RigidState rigid_state(const Bodies& b, std::size_t k);

/// A free sphere of resolve.hpp as a rigid body (isotropic inertia).
[[nodiscard]] RigidState rigid_state(const SphereState& s);

/// A wall touched at `point` (m) whose surface there moves with `surface_velocity` (m/s): a body
/// of infinite mass and inertia with its centre at the contact point, so that only the surface
/// velocity enters u (translating and turning walls alike).
[[nodiscard]] RigidState wall_state(const Vec3& point, const Vec3& surface_velocity);

/// K above (1/kg) for the contact at p (m).
[[nodiscard]] Mat3 collision_matrix(const RigidState& b1, const RigidState& b2, const Vec3& p);

/// u above (m/s): the velocity of body 2's material point at p relative to body 1's.
[[nodiscard]] Vec3 contact_velocity(const RigidState& b1, const RigidState& b2, const Vec3& p);

/// Coulomb friction with Newton's normal restitution.
struct Friction {
    double normal = 1.0; ///< eps_n in [0, 1]: u_n' = -eps_n u_n
    double mu = 0.0;     ///< Coulomb coefficient >= 0: |J_t| <= mu J_n
};

struct RigidOutcome {
    Vec3 vel1, vel2;       ///< m/s
    Vec3 spin1, spin2;     ///< rad/s, inertial frame
    Vec3 impulse;          ///< kg m/s, on body 2 (body 1 receives -impulse at the same point)
    double tangential = 1; ///< eps_t that was applied (the Coulomb model's effective value)
    bool sticking = false; ///< Coulomb model: the sticking impulse lay inside the cone
};

/// Body 2 takes the impulse j (kg m/s) at p (m), body 1 takes -j there: their new velocities
/// and spins (dw = I^-1 (p - c) x j), momentum and angular momentum kept to round-off.
[[nodiscard]] RigidOutcome apply_impulse(const RigidState& b1, const RigidState& b2, const Vec3& p,
                                         const Vec3& j);

/// Restitution eps_n, tangential restitution eps_t (Richardson et al. 2009, P&SS 57, 183,
/// eqs. 10-13, generalised to inertia tensors). With Kn = K n, P u = u_n Kn / (n.Kn) and
/// s = u - P u (the slip left when a purely normal impulse has stopped the approach; s.n = 0),
///   J = -(1 + eps_n) u_n / (n.K n) n - (1 - eps_t) K^-1 s,   u' = -eps_n P u + eps_t s,
/// so that n.u' = -eps_n u_n exactly, eps_t = 1 is frictionless (J along n) and the energy lost
/// is rigid_contact_energy_loss (>= 0 for |eps_n|, |eps_t| <= 1). For two spheres K n is
/// parallel to n, P u = u_n n, s = u_t and K^-1 s = mu beta u_t with Richardson's beta
/// (tangential_beta): resolve_collision to round-off. Requires u_n < 0.
[[nodiscard]] RigidOutcome resolve_rigid_contact(const RigidState& b1, const RigidState& b2,
                                                 const Vec3& p, const Vec3& n,
                                                 const Restitution& eps);

/// Coulomb friction mu with Newton's restitution eps_n: the impulses of the model above for
/// eps_t = 1 - alpha, alpha in [0, 1], run from the frictionless J_0 (alpha = 0) to the sticking
/// J_s (alpha = 1, slip s removed). J_s when it lies in the cone |J_t| <= mu J_n (sticking),
/// else the point where that segment leaves the cone, alpha = mu J_0n / (|J_st| + mu (J_0n -
/// J_sn)) (sliding at the cone's edge). An algebraic model in the manner of Brach (1989, J.
/// Appl. Mech. 56, 133: impulse ratio limited by mu) that reduces to Walton's sphere model
/// (Walton & Braun 1986; Luding et al. 1998, PRE 58, 3416) for spheres; it keeps u_n' =
/// -eps_n u_n and never gains energy, but takes the sliding direction from J_s instead of
/// integrating the slip through the impact (Stronge 2000, "Impact mechanics").
[[nodiscard]] RigidOutcome resolve_rigid_contact(const RigidState& b1, const RigidState& b2,
                                                 const Vec3& p, const Vec3& n, const Friction& f);

/// Kinetic energy (J) lost by the restitution model, in any inertial frame (a wall: the frame
/// of its surface point):
///   (1/2) (1 - eps_n^2) u_n^2 / (n.K n) + (1/2) (1 - eps_t^2) s.K^-1 s.
/// For the Coulomb model, use the outcome's effective eps_t.
[[nodiscard]] double rigid_contact_energy_loss(const RigidState& b1, const RigidState& b2,
                                               const Vec3& p, const Vec3& n,
                                               const Restitution& eps);

} // namespace rubble::collisions
