// SPDX-License-Identifier: MIT
// Pair kind: a free sphere and a wall (kind_sphere_wall.hpp).
#include "kind_sphere_wall.hpp"

#include "contact_book.hpp"
#include "rubble/collisions/wall_resolve.hpp"

namespace rubble::collisions::detail {

void SphereWall::collide(DriftState& s, Bodies& b, const CollisionEvent& e, double t0,
                         DriftStats& stats) {
    const auto i = static_cast<std::size_t>(e.i);
    const std::size_t k = e.partner().wall_index();
    const boundaries::Wall& w = s.config.walls[k];
    const Vec3 p = s.wall_at[k] + e.time * w.velocity;
    const SphereState sp = s.sphere(e.i, Vec3::Zero());
    const Vec3 n = boundaries::wall_gap(w, p, sp.pos, sp.radius).normal;
    const Vec3 contact = sp.pos - sp.radius * n;
    const Vec3 uw = boundaries::surface_velocity(w, p, contact);
    const Vec3 u = sp.vel + sp.spin.cross(-sp.radius * n) - uw;
    const double un = -u.dot(n);

    // The guards of pairs (Richardson's lectures, "Inelastic collapse"): a ball resting on a
    // floor is the simplest inelastic collapse.
    const Restitution eps = guard(s.config, un, hit_recently(s, i), true, stats);
    book_wall(s, b, e, t0, un, (u + un * n).norm(), stats);
    // A sphere cannot merge with a wall: it bounces whatever the outcome.
    const WallOutcome o = resolve_wall_contact(sp, n, uw, eps);
    s.wall_impulses[k].add(contact, o.impulse);
    s.set_motion(b, i, o.vel, o.spin, Quat::Identity(), e.time);
    s.check_collision_count(b, i, t0 + e.time);
}

} // namespace rubble::collisions::detail
