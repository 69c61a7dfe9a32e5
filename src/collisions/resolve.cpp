// SPDX-License-Identifier: MIT
#include "rubble/collisions/resolve.hpp"

namespace rubble::collisions {
namespace {

struct Contact {
    Vec3 n;          // unit normal from 1 to 2
    Vec3 s1, s2;     // contact arms from each centre
    SplitVelocity u; // normal and tangential relative surface velocity
    double mu;       // reduced mass
    double beta;
};

Contact contact(const SphereState& s1, const SphereState& s2) {
    Contact c;
    c.n = (s2.pos - s1.pos).normalized();
    c.s1 = s1.radius * c.n;
    c.s2 = -s2.radius * c.n;
    const Vec3 u = (s2.vel + s2.spin.cross(c.s2)) - (s1.vel + s1.spin.cross(c.s1));
    c.u = split_velocity(u, c.n);
    c.mu = s1.mass * s2.mass / (s1.mass + s2.mass);
    c.beta = tangential_beta(s1, s2);
    return c;
}

} // namespace

double tangential_beta(const SphereState& s1, const SphereState& s2) {
    const double mu = s1.mass * s2.mass / (s1.mass + s2.mass);
    return 1.0 / (1.0 + mu * s1.radius * s1.radius / s1.inertia +
                  mu * s2.radius * s2.radius / s2.inertia);
}

Outcome resolve_collision(const SphereState& s1, const SphereState& s2, const Restitution& eps) {
    const Contact c = contact(s1, s2);
    // Only the tangential part of the impulse turns the spheres: the normal part acts along
    // the contact arms (s x n = 0), and leaving it out of the torque keeps round-off from
    // spinning up smooth (eps_t = 1) spheres.
    const ContactImpulse j = restitution_impulse(c.u, c.mu, c.beta, eps);
    Outcome o;
    o.impulse = j.total;
    o.vel1 = s1.vel - j.total / s1.mass;
    o.vel2 = s2.vel + j.total / s2.mass;
    o.spin1 = s1.spin - c.s1.cross(j.tangential) / s1.inertia;
    o.spin2 = s2.spin + c.s2.cross(j.tangential) / s2.inertia;
    return o;
}

} // namespace rubble::collisions
