// SPDX-License-Identifier: MIT
// Pair kind: two free spheres (kind_sphere_sphere.hpp).
#include "kind_sphere_sphere.hpp"

#include "contact_book.hpp"
#include "rubble/collisions/merge.hpp"
#include "rubble/collisions/resolve.hpp"

namespace rubble::collisions::detail {

void SphereSphere::collide(DriftState& s, Bodies& b, const CollisionEvent& e, double t0,
                           DriftStats& stats) {
    const auto i = static_cast<std::size_t>(e.i), j = static_cast<std::size_t>(e.j);
    const Vec3 shift = s.image_shift[static_cast<std::size_t>(e.image)];
    const SphereState si = s.sphere(e.i, Vec3::Zero()), sj = s.sphere(e.j, shift);

    const Vec3 r = sj.pos - si.pos;
    const Vec3 n = r.normalized();
    const Vec3 v = sj.vel - si.vel;
    // Spin adds only tangential surface velocity (w x n is normal to n).
    const Vec3 u =
        (sj.vel + sj.spin.cross(-sj.radius * n)) - (si.vel + si.spin.cross(si.radius * n));
    const double un = -u.dot(n);
    const double ut = (u + un * n).norm();

    const Restitution eps =
        guard(s.config, un, hit_recently(s, i) || hit_recently(s, j), true, stats);
    book_pair(s, b, e, t0, un, ut, r, v, stats);
    if (s.outcome.merges()) {
        ++stats.merges;
        const SphereState m = merge_spheres(si, sj);
        const bool keep_i = first_survives(si.mass, b.id[i], sj.mass, b.id[j]);
        const std::size_t k = keep_i ? i : j;
        s.turn(b, static_cast<std::int32_t>(k), e.time);
        s.moving[k].pos = keep_i ? m.pos : Vec3(m.pos - shift);
        s.moving[k].vel = m.vel;
        s.moving[k].radius = m.radius;
        s.rigid[k].speed = m.vel.norm();
        s.rigid[k].spin = m.spin;
        s.rigid[k].mass = m.mass;
        s.rigid[k].inertia = m.inertia;
        b.set_free_sphere(k, m.mass, m.radius); // (rare: written through, unlike what every
                                                // collision changes; m.inertia is 2/5 m R^2)
        s.count[keep_i ? j : i] = DriftState::absorbed;
    } else {
        const Outcome o = resolve_collision(si, sj, eps);
        s.set_motion(b, i, o.vel1, o.spin1, Quat::Identity(), e.time);
        s.set_motion(b, j, o.vel2, o.spin2, Quat::Identity(), e.time);
    }

    for (const std::size_t k : {i, j})
        s.check_collision_count(b, k, t0 + e.time);
}

} // namespace rubble::collisions::detail
