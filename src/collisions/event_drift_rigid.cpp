// SPDX-License-Identifier: MIT
// The event-driven drift's rigid-body paths (event_drift.hpp): bodies made of several spheres
// turn along their rotor paths, their contacts are predicted by the root search of
// rigid_predict.hpp and resolved by the off-centre impulse of rigid_impulse.hpp
// (docs/aggregates.md). A drift of free spheres only sets aggregates_ = false here and runs none of
// the rest.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "contact_pick.hpp"
#include "rubble/collisions/event_drift.hpp"
#include "rubble/collisions/restitution_law.hpp"
#include "rubble/collisions/rigid_impulse.hpp"
#include "rubble/collisions/rigid_merge.hpp"
#include "rubble/collisions/rigid_overlaps.hpp"
#include "rubble/collisions/rigid_wall_predict.hpp"
#include "rubble/core/error.hpp"
#include "rubble/core/rigid_body.hpp"

namespace rubble::collisions {

void EventDrivenDrift::start_rigid(const Bodies& b, double h) {
    const std::size_t n = b.size();
    // Polyhedra are moved by the non-smooth contact stepper (docs/polyhedra.md); this engine
    // predicts contacts of spheres only.
    if (b.hulls.size() > 0)
        throw InputError("the hard-sphere collision engine does not take polyhedral bodies (" +
                         std::to_string(b.hulls.size()) + " in this run)");
    // Sticking joins any two bodies into an aggregate, so every pair takes the rigid path.
    sticking_ = config_.outcome == ContactOutcome::stick;
    aggregates_ = !b.all_free_spheres() || sticking_;
    if (!aggregates_) return;
    // A run refuses these combinations at start-up, before its output exists
    // (run::check_stepper_supports); these guards are for callers that use the engine directly.
    if (sticking_) {
        if (config_.periodic_box > 0.0)
            throw InputError("collisions.outcome = \"stick\" does not yet take a periodic box "
                             "(collisions.periodic_box)");
        joined_.resize(n);
        for (std::size_t k = 0; k < n; ++k)
            joined_[k] = static_cast<std::int32_t>(k);
    }
    for (const boundaries::Wall& w : config_.walls)
        if (!rigid_bodies_meet(w))
            throw InputError("collisions: " + w.name +
                             ": finite cylinders (length > 0) do not yet take bodies made of "
                             "several spheres (aggregates); use planes, a box or an infinite "
                             "cylinder (docs/aggregates.md, \"Walls\")");
    if (config_.outcome == ContactOutcome::merge)
        throw InputError("collisions.outcome = \"merge\" makes one sphere of two and does not "
                         "take bodies made of several spheres (aggregates); use \"stick\" "
                         "(one rigid aggregate of both) or \"bounce\"");
    free_.assign(n, 0);
    parts_begin_.assign(n + 1, 0);
    parts_.resize(b.spheres.size());
    rotor_.resize(n);
    reach_.resize(n);
    segment_.assign(n, 0.0);
    // Spheres are grouped by body (Bodies::check_consistent), in body order.
    for (std::size_t s = 0; s < b.spheres.size(); ++s)
        ++parts_begin_[static_cast<std::size_t>(b.spheres.body[s]) + 1];
    for (std::size_t k = 0; k < n; ++k)
        parts_begin_[k + 1] += parts_begin_[k];
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t first = parts_begin_[k], count = parts_begin_[k + 1] - first;
        free_[k] = count == 1 && b.spheres.offset[first].isZero(0.0) ? 1 : 0;
        const Quat axes = b.principal_axes[k].conjugate();
        for (std::size_t s = first; s < first + count; ++s)
            parts_[s] = PartSphere{axes * b.spheres.offset[s], b.spheres.radius[s]};
        reach_[k] = reach_of(parts_of(k));
        rotor_[k] = integrate::RotorPath(principal_to_inertial(b, k), b.spin[k], b.inertia[k], h);
    }
}

void EventDrivenDrift::collide_rigid(Bodies& b, const CollisionEvent& e, double t0,
                                     DriftStats& stats) {
    const std::array<std::size_t, 2> k{static_cast<std::size_t>(e.i),
                                       static_cast<std::size_t>(e.j)};
    const std::array<Vec3, 2> shift{Vec3::Zero(), image_shift_[static_cast<std::size_t>(e.image)]};
    // Both bodies stand at e.time (advance()); their orientations there, on their paths
    // (which start at segment_, where moving_ stood before advance()).
    std::array<Quat, 2> q;
    std::array<RigidState, 2> s;
    for (std::size_t a = 0; a < 2; ++a) {
        const Moving& m = moving_[k[a]];
        q[a] = rotor_[k[a]].principal_at(e.time - segment_[k[a]]);
        const Vec3 spin = free_[k[a]] ? rigid_[k[a]].spin : rotor_[k[a]].spin_for(q[a]);
        s[a] = RigidState{1.0 / rigid_[k[a]].mass, m.pos + shift[a], m.vel, spin,
                          inverse_inertia_tensor(q[a], b.inertia[k[a]])};
    }
    // The touching spheres (contact_pick.hpp).
    detail::ContactPick pick;
    Vec3 c1 = Vec3::Zero(), c2 = Vec3::Zero();
    double r1 = 0.0;
    const auto p1 = parts_of(k[0]), p2 = parts_of(k[1]);
    for (const PartSphere& a : p1) {
        const Vec3 x1 = s[0].centre + q[0] * a.offset;
        for (const PartSphere& c : p2) {
            const Vec3 x2 = s[1].centre + q[1] * c.offset;
            const Vec3 d = x2 - x1;
            const double sigma = a.radius + c.radius;
            // Normal velocity of the two centres (that of the touching material points).
            const auto rate = [&] {
                const Vec3 w = (s[1].vel + s[1].spin.cross(x2 - s[1].centre)) -
                               (s[0].vel + s[0].spin.cross(x1 - s[0].centre));
                return d.dot(w) / d.norm();
            };
            if (!pick.better(d.norm() - sigma, config_.overlap_tolerance * sigma, rate)) continue;
            c1 = x1;
            c2 = x2;
            r1 = a.radius;
        }
    }
    const Vec3 n = (c2 - c1).normalized();
    const Vec3 p = c1 + r1 * n;
    const Vec3 u = contact_velocity(s[0], s[1], p);
    const double un = -u.dot(n);
    if (!(un > 0.0)) {
        // Reached on the rotor path but not approaching at the physical spins: the two differ
        // by the splitting error, and such a graze needs no impulse (the spheres part). The
        // bodies now stand at e.time: their paths start again there, unchanged in spin.
        ++stats.grazes;
        for (std::size_t a = 0; a < 2; ++a)
            if (!free_[k[a]]) restart_path(b, k[a], q[a], s[a].spin, e.time);
        return;
    }
    // outcome = stick: a slow enough contact takes the impulse that leaves the two material
    // points moving together (eps_n = eps_t = 0: u' = 0, rigid_impulse.hpp), and the two
    // bodies are joined: not predicted against each other again, one aggregate at the drift's
    // end (join_stuck). Until then each moves on its own path, from equal velocities at p.
    const bool stick = sticking_ && (config_.stick_speed == 0.0 || un <= config_.stick_speed);
    Rigid &ri = rigid_[k[0]], &rj = rigid_[k[1]];
    const bool recent = ri.free_path < config_.f_crit * moving_[k[0]].radius ||
                        rj.free_path < config_.f_crit * moving_[k[1]].radius;
    const Restitution eps = restitution_for(config_, un, recent);
    if (!stick && (recent || (un < config_.v_min && config_.eps_n < 1.0))) ++stats.elastic_by_guard;
    if (config_.log) {
        const Vec3 r = s[1].centre - s[0].centre, v = s[1].vel - s[0].vel;
        const double speed = v.norm();
        const double impact = speed > 0.0 ? r.cross(v).norm() / speed : 0.0;
        log_.push_back(CollisionRecord{t0 + e.time, std::min(b.id[k[0]], b.id[k[1]]),
                                       std::max(b.id[k[0]], b.id[k[1]]), un, (u + un * n).norm(),
                                       impact});
    }
    ++stats.collisions;
    ++count_[k[0]];
    ++count_[k[1]];
    ri.free_path = 0.0;
    rj.free_path = 0.0;
    const RigidOutcome o = stick ? resolve_rigid_contact(s[0], s[1], p, n, Restitution{0.0, 0.0})
                                 : resolve_rigid_by_law(config_, s[0], s[1], p, n, eps, recent);
    const std::array<Vec3, 2> vel{o.vel1, o.vel2}, spin{o.spin1, o.spin2};
    for (std::size_t a = 0; a < 2; ++a) {
        const std::size_t body = k[a];
        moving_[body].vel = vel[a];
        rigid_[body].speed = vel[a].norm();
        if (free_[body]) {
            if (spin[a] != rigid_[body].spin) {
                turn(b, static_cast<std::int32_t>(body), e.time);
                rigid_[body].spin = spin[a];
            }
            continue;
        }
        // A new segment of the body's path starts here, with its new spin.
        restart_path(b, body, q[a], spin[a], e.time);
    }
    if (stick) joined_[static_cast<std::size_t>(joined_root(e.i))] = joined_root(e.j);
    for (const std::size_t body : k)
        check_collision_count(b, body, t0 + e.time);
}

std::int32_t EventDrivenDrift::joined_root(std::int32_t k) const {
    while (joined_[static_cast<std::size_t>(k)] != k)
        k = joined_[static_cast<std::size_t>(k)];
    return k;
}

void EventDrivenDrift::join_stuck(Bodies& b, DriftStats& stats) {
    // Every group of bodies joined in this drift becomes one aggregate (stick_bodies: mass,
    // momentum and angular momentum kept; no sphere moves).
    const std::size_t n = b.size();
    std::vector<std::uint8_t> removed(n, 0);
    std::vector<std::int64_t> holder(n, -1); // the row holding each group's union so far
    bool any = false;
    for (std::size_t k = 0; k < n; ++k) {
        const auto r = static_cast<std::size_t>(joined_root(static_cast<std::int32_t>(k)));
        if (holder[r] < 0) {
            holder[r] = static_cast<std::int64_t>(k);
            continue;
        }
        const StickOutcome o = stick_bodies(b, static_cast<std::size_t>(holder[r]), k, removed);
        holder[r] = static_cast<std::int64_t>(o.survivor);
        ++stats.merges;
        any = true;
    }
    if (any) remove_flagged(b, removed); // the lists are rebuilt at the next drift
}

void EventDrivenDrift::restart_path(Bodies& b, std::size_t k, const Quat& principal,
                                    const Vec3& spin, double t) {
    b.orientation[k] = (principal * b.principal_axes[k].conjugate()).normalized();
    rigid_[k].spin = spin;
    rigid_[k].turned = t;
    rotor_[k] = integrate::RotorPath(principal, spin, b.inertia[k], h_ - t);
    segment_[k] = t;
}

void EventDrivenDrift::handle_rigid_overlaps_at_start(Bodies& b, double h, double t0,
                                                      DriftStats& stats) {
    std::vector<RigidOverlap> found;
    // Every sphere's centre at the drift's start, once (a part's row in parts_ is its row in
    // b.spheres, start_rigid).
    const std::size_t n = moving_.size();
    std::vector<Vec3> centre(parts_.size());
    for (std::size_t i = 0; i < n; ++i) {
        const Quat q = rotor_[i].principal_at(0.0);
        for (std::size_t a = parts_begin_[i]; a < parts_begin_[i + 1]; ++a)
            centre[a] = moving_[i].pos + q * parts_[a].offset;
    }
    // Pairs among the listed neighbours (an overlapping pair's bounding spheres overlap, so
    // their neighbourhoods meet) whose bounding spheres overlap: every pair of spheres of
    // different bodies.
    for (std::size_t i = 0; i < n; ++i) {
        neighbours_.for_each_neighbour(
            static_cast<std::int32_t>(i), [&](std::int32_t jj, std::int8_t image) {
                const auto j = static_cast<std::size_t>(jj);
                if (j <= i) return;
                const Vec3 shift = image_shift_[static_cast<std::size_t>(image)];
                const double reach = (moving_[i].radius + moving_[j].radius) * (1.0 + 1e-12);
                if ((moving_[j].pos + shift - moving_[i].pos).squaredNorm() >= reach * reach)
                    return;
                for (std::size_t a = parts_begin_[i]; a < parts_begin_[i + 1]; ++a) {
                    for (std::size_t c = parts_begin_[j]; c < parts_begin_[j + 1]; ++c) {
                        const double sigma = parts_[a].radius + parts_[c].radius;
                        const double depth = sigma - (centre[c] + shift - centre[a]).norm();
                        if (!(depth > config_.overlap_tolerance * sigma)) continue;
                        found.push_back(RigidOverlap{static_cast<std::int32_t>(i), jj, 0, a, c,
                                                     shift, depth, depth / sigma});
                    }
                }
            });
    }
    // Spheres against walls, for bodies whose bounding sphere reaches a wall.
    for (std::size_t k = 0; k < n && !config_.walls.empty(); ++k) {
        for (std::size_t w = 0; w < config_.walls.size(); ++w) {
            const boundaries::Wall& wall = config_.walls[w];
            if (boundaries::wall_gap(wall, wall_at_[w], moving_[k].pos, moving_[k].radius).gap >
                0.0)
                continue;
            for (std::size_t a = parts_begin_[k]; a < parts_begin_[k + 1]; ++a) {
                const double depth =
                    -boundaries::wall_gap(wall, wall_at_[w], centre[a], parts_[a].radius).gap;
                if (!(depth > config_.overlap_tolerance * parts_[a].radius)) continue;
                found.push_back(RigidOverlap{static_cast<std::int32_t>(k), -1, w, a, 0,
                                             Vec3::Zero(), depth, depth / parts_[a].radius});
            }
        }
    }
    if (found.empty()) return;
    stats.overlaps += static_cast<std::int64_t>(found.size());
    for (const RigidOverlap& o : found)
        stats.max_overlap = std::max(stats.max_overlap, o.relative);
    std::vector<std::uint8_t> removed(b.size(), 0);
    handle_rigid_overlaps(b, found, config_.walls, wall_at_, config_, h, t0, removed,
                          wall_impulses_);
    if (std::find(removed.begin(), removed.end(), 1) != removed.end()) {
        for (const std::uint8_t r : removed)
            stats.merges += r;
        remove_flagged(b, removed);
    }
    neighbours_.rebuild(b, stats.skin, config_.periodic_box); // positions or bodies changed
    stats.rebuilt = true;
    (void)start(b, h);
}

void EventDrivenDrift::collide_rigid_wall(Bodies& b, const CollisionEvent& e, double t0,
                                          DriftStats& stats) {
    const auto k = static_cast<std::size_t>(e.i);
    const std::size_t wi = wall_index(e.j);
    const boundaries::Wall& w = config_.walls[wi];
    const Vec3 wall_point = wall_at_[wi] + e.time * w.velocity;
    // The body stands at e.time (advance()); its orientation there, on its path.
    const Moving& m = moving_[k];
    const Quat q = rotor_[k].principal_at(e.time - segment_[k]);
    const RigidState body{1.0 / rigid_[k].mass, m.pos, m.vel, rotor_[k].spin_for(q),
                          inverse_inertia_tensor(q, b.inertia[k])};
    // The touching sphere (contact_pick.hpp).
    detail::ContactPick pick;
    boundaries::WallGap touch{Vec3::UnitZ(), 0.0};
    Vec3 centre = m.pos;
    double radius = 0.0;
    for (const PartSphere& a : parts_of(k)) {
        const Vec3 x = m.pos + q * a.offset;
        const boundaries::WallGap g = boundaries::wall_gap(w, wall_point, x, a.radius);
        const auto rate = [&] {
            return g.normal.dot(body.vel + body.spin.cross(x - m.pos) - w.velocity);
        };
        if (!pick.better(g.gap, config_.overlap_tolerance * a.radius, rate)) continue;
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
        // Reached on the rotor path but not moving in at the physical spin (as collide_rigid).
        ++stats.grazes;
        restart_path(b, k, q, body.spin, e.time);
        return;
    }
    Rigid& r = rigid_[k];
    const bool recent = r.free_path < config_.f_crit * m.radius;
    const Restitution eps = restitution_for(config_, un, recent);
    if (recent || (un < config_.v_min && config_.eps_n < 1.0)) ++stats.elastic_by_guard;
    if (config_.log) {
        // A wall's id is -1 - its index, so id1 < id2 still holds; impact parameter: none.
        log_.push_back(CollisionRecord{t0 + e.time, -1 - static_cast<std::int64_t>(wi), b.id[k], un,
                                       (u + un * n).norm(), 0.0});
    }
    ++stats.collisions;
    ++stats.wall_collisions;
    ++count_[k];
    r.free_path = 0.0;
    const RigidOutcome o = resolve_rigid_by_law(config_, wall, body, p, n, eps, recent);
    wall_impulses_[wi].add(p, o.impulse);
    moving_[k].vel = o.vel2;
    r.speed = o.vel2.norm();
    restart_path(b, k, q, o.spin2, e.time);
    check_collision_count(b, k, t0 + e.time);
}

void EventDrivenDrift::finish_rigid(Bodies& b, std::size_t k, double h) {
    const integrate::RotorPath& path = rotor_[k];
    const double t = h - segment_[k];
    // At its segment's end the path is bitwise turn_free_rotor's, as the plain drift's.
    const Quat q = path.principal_at(t);
    b.orientation[k] = (q * b.principal_axes[k].conjugate()).normalized();
    rigid_[k].spin = t >= path.duration() ? path.end_spin() : path.spin_for(q);
    rigid_[k].turned = h;
}

} // namespace rubble::collisions
