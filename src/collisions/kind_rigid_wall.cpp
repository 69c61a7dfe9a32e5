// SPDX-License-Identifier: MIT
// Pair kind: a rigid aggregate and a wall (kind_rigid_wall.hpp).
#include "kind_rigid_wall.hpp"

#include <algorithm>

#include "contact_book.hpp"
#include "contact_pick.hpp"
#include "rubble/collisions/restitution_law.hpp"
#include "rubble/collisions/rigid_impulse.hpp"
#include "rubble/collisions/rigid_wall_predict.hpp"
#include "rubble/core/rigid_body.hpp"

namespace rubble::collisions::detail {

void RigidWall::offer_walls(const DriftState& s, Upcoming& u, std::int32_t i, double h) {
    const auto ui = static_cast<std::size_t>(i);
    const double now = s.moving[ui].time;
    for (std::size_t k = 0; k < s.config.walls.size(); ++k) {
        const double until = std::min(h, std::max(u.first.time, u.second.time));
        if (!(now <= until)) return;
        const auto c = predict_rigid_wall_contact(s.motion_of(ui), s.parts_of(ui),
                                                  s.config.walls[k], s.wall_at[k], now, until);
        if (!c) continue;
        keep(u, CollisionEvent{c->time, i, Partner::wall(k).code(), s.count[ui], 0,
                               boundaries::self_image});
    }
}

void RigidWall::collide(DriftState& s, Bodies& b, const CollisionEvent& e, double t0,
                        DriftStats& stats) {
    const auto k = static_cast<std::size_t>(e.i);
    const std::size_t wi = e.partner().wall_index();
    const boundaries::Wall& w = s.config.walls[wi];
    const Vec3 wall_point = s.wall_at[wi] + e.time * w.velocity;
    // The body stands at e.time (advance()); its orientation there, on its path.
    const Moving& m = s.moving[k];
    const Quat q = s.rotor[k].principal_at(e.time - s.segment[k]);
    const RigidState body{1.0 / s.rigid[k].mass, m.pos, m.vel, s.rotor[k].spin_for(q),
                          inverse_inertia_tensor(q, b.inertia[k])};
    // The touching sphere (contact_pick.hpp).
    ContactPick pick;
    boundaries::WallGap touch{Vec3::UnitZ(), 0.0};
    Vec3 centre = m.pos;
    double radius = 0.0;
    for (const PartSphere& a : s.parts_of(k)) {
        const Vec3 x = m.pos + q * a.offset;
        const boundaries::WallGap g = boundaries::wall_gap(w, wall_point, x, a.radius);
        const auto rate = [&] {
            return g.normal.dot(body.vel + body.spin.cross(x - m.pos) - w.velocity);
        };
        if (!pick.better(g.gap, s.config.overlap_tolerance * a.radius, rate)) continue;
        touch = g;
        centre = x;
        radius = a.radius;
    }
    const Vec3 n = touch.normal; // from the wall to the body
    const Vec3 p = centre - radius * n;
    const RigidState wall = wall_state(p, boundaries::surface_velocity(w, wall_point, p));
    const Vec3 u = contact_velocity(wall, body, p);
    const double un = -u.dot(n);
    if (!(un > 0.0)) {
        // Reached on the rotor path but not moving in at the physical spin (as RigidPair).
        ++stats.grazes;
        s.restart_path(b, k, q, body.spin, e.time);
        return;
    }
    const bool recent = hit_recently(s, k);
    const Restitution eps = guard(s.config, un, recent, true, stats);
    book_wall(s, b, e, t0, un, (u + un * n).norm(), stats);
    const RigidOutcome o = resolve_rigid_by_law(s.config, wall, body, p, n, eps, recent);
    s.wall_impulses[wi].add(p, o.impulse);
    s.set_motion(b, k, o.vel2, o.spin2, q, e.time);
    s.check_collision_count(b, k, t0 + e.time);
}

} // namespace rubble::collisions::detail
