// SPDX-License-Identifier: MIT
// Pair kind: a pair with a rigid aggregate, or any pair that may stick (kind_rigid_pair.hpp).
#include "kind_rigid_pair.hpp"

#include <algorithm>
#include <array>

#include "contact_book.hpp"
#include "contact_pick.hpp"
#include "rubble/collisions/restitution_law.hpp"
#include "rubble/collisions/rigid_impulse.hpp"
#include "rubble/collisions/rigid_predict.hpp"
#include "rubble/core/rigid_body.hpp"

namespace rubble::collisions::detail {

void RigidPair::offer(const DriftState& s, Upcoming& u, std::int32_t i, std::int32_t j,
                      std::int8_t image, double h) {
    const auto ui = static_cast<std::size_t>(i), uj = static_cast<std::size_t>(j);
    if (s.outcome.rigid_pairs() && s.joined_root(i) == s.joined_root(j))
        return; // stuck together this drift
    const double now = std::max(s.moving[ui].time, s.moving[uj].time);
    const double until = std::min(h, std::max(u.first.time, u.second.time));
    if (!(now <= until)) return;
    const auto c =
        predict_rigid_contact(s.motion_of(ui), s.parts_of(ui), s.motion_of(uj), s.parts_of(uj),
                              s.image_shift[static_cast<std::size_t>(image)], now, until);
    if (!c) return;
    keep(u, CollisionEvent{c->time, i, j, s.count[ui], s.count[uj], image});
}

void RigidPair::collide(DriftState& s, Bodies& b, const CollisionEvent& e, double t0,
                        DriftStats& stats) {
    const std::array<std::size_t, 2> k{static_cast<std::size_t>(e.i),
                                       static_cast<std::size_t>(e.j)};
    const std::array<Vec3, 2> shift{Vec3::Zero(), s.image_shift[static_cast<std::size_t>(e.image)]};
    // Both bodies stand at e.time (advance()); their orientations there, on their paths
    // (which start at segment, where moving stood before advance()).
    std::array<Quat, 2> q;
    std::array<RigidState, 2> st;
    for (std::size_t a = 0; a < 2; ++a) {
        const Moving& m = s.moving[k[a]];
        q[a] = s.rotor[k[a]].principal_at(e.time - s.segment[k[a]]);
        const Vec3 spin = s.free[k[a]] ? s.rigid[k[a]].spin : s.rotor[k[a]].spin_for(q[a]);
        st[a] = RigidState{1.0 / s.rigid[k[a]].mass, m.pos + shift[a], m.vel, spin,
                           inverse_inertia_tensor(q[a], b.inertia[k[a]])};
    }
    // The touching spheres (contact_pick.hpp).
    ContactPick pick;
    Vec3 c1 = Vec3::Zero(), c2 = Vec3::Zero();
    double r1 = 0.0;
    const auto p1 = s.parts_of(k[0]), p2 = s.parts_of(k[1]);
    for (const PartSphere& a : p1) {
        const Vec3 x1 = st[0].centre + q[0] * a.offset;
        for (const PartSphere& c : p2) {
            const Vec3 x2 = st[1].centre + q[1] * c.offset;
            const Vec3 d = x2 - x1;
            const double sigma = a.radius + c.radius;
            // Normal velocity of the two centres (that of the touching material points).
            const auto rate = [&] {
                const Vec3 w = (st[1].vel + st[1].spin.cross(x2 - st[1].centre)) -
                               (st[0].vel + st[0].spin.cross(x1 - st[0].centre));
                return d.dot(w) / d.norm();
            };
            if (!pick.better(d.norm() - sigma, s.config.overlap_tolerance * sigma, rate)) continue;
            c1 = x1;
            c2 = x2;
            r1 = a.radius;
        }
    }
    const Vec3 n = (c2 - c1).normalized();
    const Vec3 p = c1 + r1 * n;
    const Vec3 u = contact_velocity(st[0], st[1], p);
    const double un = -u.dot(n);
    if (!(un > 0.0)) {
        // Reached on the rotor path but not approaching at the physical spins: the two differ
        // by the splitting error, and such a graze needs no impulse (the spheres part). The
        // bodies now stand at e.time: their paths start again there, unchanged in spin.
        ++stats.grazes;
        for (std::size_t a = 0; a < 2; ++a)
            if (!s.free[k[a]]) s.restart_path(b, k[a], q[a], st[a].spin, e.time);
        return;
    }
    // outcome = stick: a slow enough contact takes the impulse that leaves the two material
    // points moving together (eps_n = eps_t = 0: u' = 0, rigid_impulse.hpp), and the two
    // bodies are joined: not predicted against each other again, one aggregate at the drift's
    // end (DriftState::join_stuck). Until then each moves on its own path, from equal
    // velocities at p.
    const bool stick = s.outcome.sticks(un);
    const bool recent = hit_recently(s, k[0]) || hit_recently(s, k[1]);
    const Restitution eps = guard(s.config, un, recent, !stick, stats);
    book_pair(s, b, e, t0, un, (u + un * n).norm(), st[1].centre - st[0].centre,
              st[1].vel - st[0].vel, stats);
    const RigidOutcome o = stick ? resolve_rigid_contact(st[0], st[1], p, n, Restitution{0.0, 0.0})
                                 : resolve_rigid_by_law(s.config, st[0], st[1], p, n, eps, recent);
    const std::array<Vec3, 2> vel{o.vel1, o.vel2}, spin{o.spin1, o.spin2};
    for (std::size_t a = 0; a < 2; ++a)
        s.set_motion(b, k[a], vel[a], spin[a], q[a], e.time);
    if (stick) s.joined[static_cast<std::size_t>(s.joined_root(e.i))] = s.joined_root(e.j);
    for (const std::size_t body : k)
        s.check_collision_count(b, body, t0 + e.time);
}

} // namespace rubble::collisions::detail
