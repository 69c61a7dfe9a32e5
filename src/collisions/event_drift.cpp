// SPDX-License-Identifier: MIT
#include "rubble/collisions/event_drift.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <tuple>

#include "rubble/boundaries/periodic.hpp"
#include "rubble/boundaries/wall_predict.hpp"
#include "rubble/collisions/find_overlaps.hpp"
#include "rubble/collisions/merge.hpp"
#include "rubble/collisions/overlaps.hpp"
#include "rubble/collisions/resolve.hpp"
#include "rubble/collisions/restitution_law.hpp"
#include "rubble/collisions/rigid_predict.hpp"
#include "rubble/collisions/rigid_wall_predict.hpp"
#include "rubble/collisions/wall_overlaps.hpp"
#include "rubble/collisions/wall_resolve.hpp"
#include "rubble/core/contact_time.hpp"
#include "rubble/core/debug_checks.hpp"
#include "rubble/core/error.hpp"
#include "rubble/core/stop_request.hpp"
#include "rubble/integrate/leapfrog.hpp"

namespace rubble::collisions {
namespace {

// The event loop looks for a stop request every 1024 events: about a millisecond of work,
// so a signal is acted on at once, for the cost of a counter test per event.
constexpr std::uint32_t stop_poll_mask = 1023;

// No collision within the drift (later than any event, never queued).
CollisionEvent no_collision(std::int32_t i) {
    return CollisionEvent{
        std::numeric_limits<double>::infinity(), i, exit_event, 0, 0, boundaries::self_image};
}

Vec3 shift_of(std::int8_t image, double box) {
    return box > 0.0 ? boundaries::image_shift(image, box) : Vec3::Zero();
}

} // namespace

std::vector<CollisionRecord> EventDrivenDrift::take_log() {
    std::vector<CollisionRecord> out;
    out.swap(log_);
    return out;
}

// Inlined with offer, so that a body's kept events stay in registers while its neighbours are
// offered (stored field by field and read back whole, they would stall the loads).
[[gnu::always_inline]] inline void EventDrivenDrift::keep(Upcoming& u, const CollisionEvent& e) {
    const LaterEvent later;
    if (later(u.first, e)) {
        u.second = u.first;
        u.first = e;
    } else if (later(u.second, e)) {
        u.second = e; // (never replaces an unknown second: that stays unknown)
    }
}

// Inlined into the loops over neighbours: it runs some 16 times per collision, and a call
// would cost a fifth of it.
[[gnu::always_inline]] inline void EventDrivenDrift::offer(Upcoming& u, std::int32_t i,
                                                           std::int32_t j, std::int8_t image,
                                                           double h) const {
    // Always predicted in the order i < j, and from the later of the two bodies' own times
    // (the time of the later one's last collision): the answer does not depend on who asks or
    // when, so the engine and the brute-force check agree bitwise.
    if (i > j) {
        std::swap(i, j);
        image = boundaries::opposite_image(image);
    }
    const auto ui = static_cast<std::size_t>(i), uj = static_cast<std::size_t>(j);
    if (aggregates_ && (sticking_ || !(free_[ui] && free_[uj]))) [[unlikely]] {
        offer_rigid(u, i, j, image, h);
        return;
    }
    const Moving& mi = moving_[ui];
    const Moving& mj = moving_[uj];
    const double now = std::max(mi.time, mj.time);
    const auto t = predict_contact_at(mi.pos, mi.vel, mi.time,
                                      mj.pos + image_shift_[static_cast<std::size_t>(image)],
                                      mj.vel, mj.time, mi.radius + mj.radius, now);
    // Most contacts come after both kept ones (or after the drift): no event is built for them.
    if (!t || *t > h || *t > std::max(u.first.time, u.second.time)) return;
    keep(u, CollisionEvent{*t, i, j, count_[ui], count_[uj], image});
}

void EventDrivenDrift::offer_rigid(Upcoming& u, std::int32_t i, std::int32_t j, std::int8_t image,
                                   double h) const {
    // (Here beside offer() for keep(), which is inlined into both.) As offer(): from the later of
    // the two bodies' times and in the order i < j, so that both bodies get bitwise the same
    // answer.
    const auto ui = static_cast<std::size_t>(i), uj = static_cast<std::size_t>(j);
    if (sticking_ && joined_root(i) == joined_root(j)) return; // stuck together this drift
    const double now = std::max(moving_[ui].time, moving_[uj].time);
    const double until = std::min(h, std::max(u.first.time, u.second.time));
    if (!(now <= until)) return;
    const auto c = predict_rigid_contact(motion_of(ui), parts_of(ui), motion_of(uj), parts_of(uj),
                                         image_shift_[static_cast<std::size_t>(image)], now, until);
    if (!c) return;
    keep(u, CollisionEvent{c->time, i, j, count_[ui], count_[uj], image});
}

void EventDrivenDrift::offer_nearest_first(Upcoming& u, std::int32_t i, std::int32_t skip,
                                           double h) {
    // (Here beside offer() for keep(), as offer_rigid().) A pair of aggregates costs a root
    // search per pair of spheres that may touch before `until`, the later of i's two kept
    // events: the neighbours are offered in the order in which their bounding spheres (about
    // the centres of mass, on straight lines) first touch i's, so that the kept events come
    // early and shorten the searches after them; a neighbour whose bounding sphere cannot reach
    // i's before both kept events is not searched at all (it could not be kept).
    const auto ui = static_cast<std::size_t>(i);
    const RigidMotion mi = motion_of(ui);
    nearest_.clear();
    neighbours_.for_each_neighbour(i, [&](std::int32_t j, std::int8_t image) {
        if (j == skip) return;
        const RigidMotion mj = motion_of(static_cast<std::size_t>(j));
        const auto t = bounding_contact(mi, mj, image_shift_[static_cast<std::size_t>(image)],
                                        std::max(mi.time, mj.time));
        if (t && *t <= h) nearest_.push_back(Nearest{*t, j, image});
    });
    std::sort(nearest_.begin(), nearest_.end(), [](const Nearest& x, const Nearest& y) {
        return std::tie(x.time, x.body) < std::tie(y.time, y.body);
    });
    for (const Nearest& n : nearest_) {
        if (n.time > std::max(u.first.time, u.second.time)) break;
        offer(u, i, n.body, n.image, h);
    }
}

void EventDrivenDrift::offer_rigid_walls(Upcoming& u, std::int32_t i, double h) const {
    // (Here beside offer() for keep(), as offer_rigid().) From the body's own time (where its
    // path starts): only the body asks.
    const auto ui = static_cast<std::size_t>(i);
    const double now = moving_[ui].time;
    for (std::size_t k = 0; k < config_.walls.size(); ++k) {
        const double until = std::min(h, std::max(u.first.time, u.second.time));
        if (!(now <= until)) return;
        const auto c = predict_rigid_wall_contact(motion_of(ui), parts_of(ui), config_.walls[k],
                                                  wall_at_[k], now, until);
        if (!c) continue;
        keep(u, CollisionEvent{c->time, i, wall_event(k), count_[ui], 0, boundaries::self_image});
    }
}

void EventDrivenDrift::offer_walls(Upcoming& u, std::int32_t i, double h) const {
    // From the body's own time: only the body asks, so the answer is always the same.
    const auto ui = static_cast<std::size_t>(i);
    if (aggregates_ && !free_[ui]) [[unlikely]] {
        offer_rigid_walls(u, i, h);
        return;
    }
    const Moving& m = moving_[ui];
    for (std::size_t k = 0; k < config_.walls.size(); ++k) {
        const boundaries::Wall& w = config_.walls[k];
        const auto dt = boundaries::predict_wall_contact(w, wall_at_[k] + m.time * w.velocity,
                                                         m.pos, m.vel, m.radius);
        if (!dt) continue;
        const double t = m.time + *dt;
        if (t > h || t > std::max(u.first.time, u.second.time)) continue;
        keep(u, CollisionEvent{t, i, wall_event(k), count_[ui], 0, boundaries::self_image});
    }
}

std::optional<CollisionEvent> EventDrivenDrift::predict_exit(std::int32_t i, double now,
                                                             double h) const {
    const auto k = static_cast<std::size_t>(i);
    const Moving& m = moving_[k];
    const Vec3 x = m.pos + (now - m.time) * m.vel;
    const double t = now + neighbours_.exit_time(i, x, m.vel);
    if (!(t <= h)) return std::nullopt;
    return CollisionEvent{
        t, i, exit_event, count_[k], neighbours_.generation(i), boundaries::self_image};
}

namespace {
// A kept slot that has been used up: its body must be predicted afresh before relying on it.
CollisionEvent unknown_collision(std::int32_t i) {
    return CollisionEvent{-1.0, i, exit_event, 0, 0, boundaries::self_image};
}
bool same_event(const CollisionEvent& a, const CollisionEvent& b) {
    return a.time == b.time && a.i == b.i && a.j == b.j && a.image == b.image && a.ci == b.ci &&
           a.cj == b.cj;
}
} // namespace

bool EventDrivenDrift::still_holds(std::int32_t i, const CollisionEvent& e) const {
    if (e.time < 0.0) return false;          // unknown
    if (!std::isfinite(e.time)) return true; // none within the drift
    if (is_wall(e.j)) return true;           // a wall never changes
    const auto other = static_cast<std::size_t>(e.i == i ? e.j : e.i);
    const std::uint32_t then = e.i == i ? e.cj : e.ci;
    return count_[other] == then; // (an absorbed body's count matches no event)
}

std::optional<CollisionEvent> EventDrivenDrift::exit_before(std::int32_t i, double now,
                                                            double until, double h) const {
    // A straight path that ends inside the room has been inside all along (the room is
    // convex): no exit before `until`, and its time, a square root and a division, is not
    // needed. In a resting pile that is nearly every body.
    const Moving& m = moving_[static_cast<std::size_t>(i)];
    if (neighbours_.inside(i, m.pos + (std::min(until, h) - m.time) * m.vel)) return std::nullopt;
    return predict_exit(i, now, h);
}

CollisionEvent EventDrivenDrift::earliest(std::int32_t i, const CollisionEvent& first, double now,
                                          double h) const {
    const auto exit = exit_before(i, now, first.time, h);
    return exit && LaterEvent{}(first, *exit) ? *exit : first;
}

void EventDrivenDrift::queue_earliest(std::int32_t i, const CollisionEvent& first, double now,
                                      double h) {
    const CollisionEvent e = earliest(i, first, now, h);
    if (e.time <= h) queue_.push(e);
}

bool EventDrivenDrift::predict_initial(double h) {
    constexpr std::ptrdiff_t prefetch_ahead = 8; // bodies (measured: 8 to 19 % at 1e5 to 1e6)
    // Each body's earliest event (Rapaport 2004, The Art of Molecular Dynamics Simulation,
    // sec. 14.2): the queue holds O(N) events instead of O(pairs). Both bodies of a pair
    // predict it, bitwise alike (offer), which costs less than a shared pair list.
    const std::size_t n = moving_.size();
    std::vector<CollisionEvent> best(n);
    std::vector<std::uint8_t> found(n, 0);
    const auto count = static_cast<std::ptrdiff_t>(n);
    // The same pass looks out for overlaps (depth > tolerance (R_i + R_j)), leaning towards
    // seeing one: the exact check (find_overlaps) runs only when this one saw something.
    const double close = (1.0 - config_.overlap_tolerance) * (1.0 + 1e-12);
    bool overlapping = false;
#pragma omp parallel for schedule(static) reduction(|| : overlapping)
    for (std::ptrdiff_t k = 0; k < count; ++k) {
        const auto i = static_cast<std::int32_t>(k);
        // The neighbours of a body a few ahead are requested now, so that their states have
        // arrived when it comes (in a cloud drawn at random they sit anywhere in memory).
        if (k + prefetch_ahead < count)
            prefetch_neighbours(static_cast<std::int32_t>(k + prefetch_ahead));
        const Moving& mi = moving_[static_cast<std::size_t>(k)];
        Upcoming u{no_collision(i), no_collision(i)};
        neighbours_.for_each_neighbour(i, [&](std::int32_t j, std::int8_t image) {
            offer(u, i, j, image, h);
            const Moving& mj = moving_[static_cast<std::size_t>(j)];
            const double s = (mi.radius + mj.radius) * close;
            const Vec3 d = mj.pos + image_shift_[static_cast<std::size_t>(image)] - mi.pos;
            if (d.squaredNorm() < s * s) overlapping = true;
        });
        if (!config_.walls.empty()) offer_walls(u, i, h);
        upcoming_[static_cast<std::size_t>(k)] = u;
        const CollisionEvent e = earliest(i, u.first, 0.0, h);
        if (e.time <= h) {
            best[static_cast<std::size_t>(k)] = e;
            found[static_cast<std::size_t>(k)] = 1;
        }
    }
    for (std::size_t k = 0; k < n; ++k) {
        if (!found[k]) continue;
        const CollisionEvent& e = best[k];
        // An event that is both bodies' earliest is queued once, from its first body.
        if (e.j != exit_event && static_cast<std::int32_t>(k) == e.j &&
            found[static_cast<std::size_t>(e.i)] &&
            same_event(best[static_cast<std::size_t>(e.i)], e))
            continue;
        queue_.push(e);
    }
    return overlapping;
}

void EventDrivenDrift::prefetch_neighbours(std::int32_t i) const {
    neighbours_.for_each_neighbour(i, [&](std::int32_t j, std::int8_t) {
        __builtin_prefetch(&moving_[static_cast<std::size_t>(j)]);
    });
}

void EventDrivenDrift::predict_for(std::int32_t i, std::int32_t skip, double now, double h) {
    // The neighbours' states are scattered cache lines: ask for all of them before reading
    // the first, so that their misses overlap instead of queueing one behind the other.
    prefetch_neighbours(i);
    Upcoming u{no_collision(i), no_collision(i)};
    if (aggregates_) [[unlikely]] {
        offer_nearest_first(u, i, skip, h);
    } else {
        // (Merged bodies have left every list.)
        neighbours_.for_each_neighbour(i, [&](std::int32_t j, std::int8_t image) {
            if (j == skip) return;
            offer(u, i, j, image, h);
        });
    }
    if (!config_.walls.empty()) offer_walls(u, i, h);
    upcoming_[static_cast<std::size_t>(i)] = u;
    queue_earliest(i, u.first, now, h);
}

bool EventDrivenDrift::start(const Bodies& b, double h) {
    const std::size_t n = b.size();
    moving_.resize(n);
    rigid_.resize(n);
    const auto count = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t k = 0; k < count; ++k) {
        const auto u = static_cast<std::size_t>(k);
        moving_[u] = Moving{b.pos[u], 0.0, b.vel[u], b.radius[u]};
        rigid_[u] =
            Rigid{b.spin[u], b.mass[u], b.inertia[u].x(), b.free_path[u], 0.0, b.vel[u].norm()};
    }
    count_.assign(n, 0);
    renewed_.assign(n, 0);
    upcoming_.resize(n);
    queue_.reset(h, n);
    start_rigid(b, h);
    return predict_initial(h);
}

void EventDrivenDrift::predict_after_exit(std::int32_t i, double now, double h) {
    // An exit leaves i's path unchanged, so its earliest collisions with old neighbours are
    // the ones kept, as long as those partners have not collided since (one that has was
    // predicted again then, covering its pair). A pair skipped when they were kept is
    // covered by its partner's event.
    Upcoming& u = upcoming_[static_cast<std::size_t>(i)];
    if (!still_holds(i, u.first)) {
        predict_for(i, -1, now, h);
        return;
    }
    if (!still_holds(i, u.second)) u.second = unknown_collision(i);
    for (const NeighbourLists::Seen& a : neighbours_.added())
        offer(u, i, a.body, a.image, h);
    queue_earliest(i, u.first, now, h);
}

void EventDrivenDrift::predict_after_stale(std::int32_t i, const CollisionEvent& e, double now,
                                           double h) {
    Upcoming& u = upcoming_[static_cast<std::size_t>(i)];
    // Not i's latest queued event: that one is still in the queue.
    if (!same_event(u.first, e)) return;
    // Every other pair of i is no earlier than the kept second, or involves a body that has
    // changed since and was predicted then (Rapaport 2004, sec. 14.2: the same argument that
    // lets only each body's earliest event be queued).
    if (still_holds(i, u.second)) {
        u.first = u.second;
        u.second = unknown_collision(i);
        queue_earliest(i, u.first, now, h);
        return;
    }
    predict_for(i, -1, now, h);
}

void EventDrivenDrift::prefetch(const CollisionEvent& e) const {
    for (const std::int32_t b : {e.i, e.j}) {
        if (b < 0) continue;
        const auto k = static_cast<std::size_t>(b);
        __builtin_prefetch(&moving_[k]);
        __builtin_prefetch(&rigid_[k]);
        __builtin_prefetch(&upcoming_[k]);
        __builtin_prefetch(&count_[k]);
        neighbours_.prefetch(b);
    }
}

void EventDrivenDrift::advance(std::int32_t i, double t) {
    const auto k = static_cast<std::size_t>(i);
    Moving& m = moving_[k];
    const double dt = t - m.time;
    if (dt <= 0.0) return;
    m.pos += dt * m.vel;
    rigid_[k].free_path += dt * rigid_[k].speed;
    m.time = t;
}

void EventDrivenDrift::turn(Bodies& b, std::int32_t i, double t) {
    const auto k = static_cast<std::size_t>(i);
    Rigid& r = rigid_[k];
    if (t <= r.turned) return;
    b.orientation[k] = integrate::rotate_by_spin(b.orientation[k], r.spin, t - r.turned);
    r.turned = t;
}

SphereState EventDrivenDrift::sphere(std::int32_t i, const Vec3& shift) const {
    const auto k = static_cast<std::size_t>(i);
    const Moving& m = moving_[k];
    const Rigid& r = rigid_[k];
    return SphereState{r.mass, m.radius, r.inertia, m.pos + shift, m.vel, r.spin};
}

void EventDrivenDrift::collide(Bodies& b, const CollisionEvent& e, double t0, DriftStats& stats) {
    const auto i = static_cast<std::size_t>(e.i), j = static_cast<std::size_t>(e.j);
    if (aggregates_ && (sticking_ || !(free_[i] && free_[j]))) {
        collide_rigid(b, e, t0, stats);
        return;
    }
    const Vec3 shift = image_shift_[static_cast<std::size_t>(e.image)];
    const SphereState si = sphere(e.i, Vec3::Zero()), sj = sphere(e.j, shift);

    const Vec3 r = sj.pos - si.pos;
    const Vec3 n = r.normalized();
    const Vec3 v = sj.vel - si.vel;
    // Spin adds only tangential surface velocity (w x n is normal to n).
    const Vec3 u =
        (sj.vel + sj.spin.cross(-sj.radius * n)) - (si.vel + si.spin.cross(si.radius * n));
    const double un = -u.dot(n);
    const double ut = (u + un * n).norm();

    Rigid &ri = rigid_[i], &rj = rigid_[j];
    const bool recent =
        ri.free_path < config_.f_crit * si.radius || rj.free_path < config_.f_crit * sj.radius;
    const Restitution eps = restitution_for(config_, un, recent);
    if (recent || (un < config_.v_min && config_.eps_n < 1.0)) ++stats.elastic_by_guard;

    if (config_.log) {
        const double speed = v.norm();
        const double impact = speed > 0.0 ? r.cross(v).norm() / speed : 0.0;
        log_.push_back(CollisionRecord{t0 + e.time, std::min(b.id[i], b.id[j]),
                                       std::max(b.id[i], b.id[j]), un, ut, impact});
    }

    ++stats.collisions;
    ++count_[i];
    ++count_[j];
    ri.free_path = 0.0;
    rj.free_path = 0.0;
    if (config_.outcome == ContactOutcome::merge) {
        ++stats.merges;
        const SphereState m = merge_spheres(si, sj);
        const bool keep_i = first_survives(si.mass, b.id[i], sj.mass, b.id[j]);
        const std::size_t k = keep_i ? i : j;
        turn(b, static_cast<std::int32_t>(k), e.time);
        moving_[k].pos = keep_i ? m.pos : Vec3(m.pos - shift);
        moving_[k].vel = m.vel;
        moving_[k].radius = m.radius;
        rigid_[k].speed = m.vel.norm();
        rigid_[k].spin = m.spin;
        rigid_[k].mass = m.mass;
        rigid_[k].inertia = m.inertia;
        b.set_free_sphere(k, m.mass, m.radius); // (rare: written through, unlike what every
                                                // collision changes; m.inertia is 2/5 m R^2)
        count_[keep_i ? j : i] = absorbed;
    } else {
        const Outcome o = resolve_collision(si, sj, eps);
        moving_[i].vel = o.vel1;
        moving_[j].vel = o.vel2;
        ri.speed = o.vel1.norm();
        rj.speed = o.vel2.norm();
        // A smooth contact (eps_t = 1) leaves the spins, and so the orientations, alone.
        if (o.spin1 != ri.spin) {
            turn(b, e.i, e.time);
            ri.spin = o.spin1;
        }
        if (o.spin2 != rj.spin) {
            turn(b, e.j, e.time);
            rj.spin = o.spin2;
        }
    }

    for (const std::size_t k : {i, j})
        check_collision_count(b, k, t0 + e.time);
}

void EventDrivenDrift::check_collision_count(const Bodies& b, std::size_t k, double time) const {
    if (count_[k] == absorbed || count_[k] <= static_cast<std::uint64_t>(config_.max_per_body))
        return;
    char buf[256];
    std::snprintf(buf, sizeof buf, "%.9g s", time);
    throw PhysicsError("inelastic collapse: body " + std::to_string(b.id[k]) +
                       " collided more than " + std::to_string(config_.max_per_body) +
                       " times in the drift ending near t = " + buf +
                       " (collisions.max_per_body); set collisions.v_min or collisions.f_crit, "
                       "or raise collisions.eps_n (docs/collisions.md)");
}

void EventDrivenDrift::collide_wall(Bodies& b, const CollisionEvent& e, double t0,
                                    DriftStats& stats) {
    const auto i = static_cast<std::size_t>(e.i);
    if (aggregates_ && !free_[i]) {
        collide_rigid_wall(b, e, t0, stats);
        return;
    }
    const std::size_t k = wall_index(e.j);
    const boundaries::Wall& w = config_.walls[k];
    const Vec3 p = wall_at_[k] + e.time * w.velocity;
    const SphereState s = sphere(e.i, Vec3::Zero());
    const Vec3 n = boundaries::wall_gap(w, p, s.pos, s.radius).normal;
    const Vec3 contact = s.pos - s.radius * n;
    const Vec3 uw = boundaries::surface_velocity(w, p, contact);
    const Vec3 u = s.vel + s.spin.cross(-s.radius * n) - uw;
    const double un = -u.dot(n);

    Rigid& r = rigid_[i];
    // The guards of pairs (Richardson's lectures, "Inelastic collapse"): a ball resting on a
    // floor is the simplest inelastic collapse.
    const bool recent = r.free_path < config_.f_crit * s.radius;
    const Restitution eps = restitution_for(config_, un, recent);
    if (recent || (un < config_.v_min && config_.eps_n < 1.0)) ++stats.elastic_by_guard;
    if (config_.log) {
        // A wall's id is -1 - its index, so id1 < id2 still holds; impact parameter: none.
        log_.push_back(CollisionRecord{t0 + e.time, -1 - static_cast<std::int64_t>(k), b.id[i], un,
                                       (u + un * n).norm(), 0.0});
    }
    ++stats.collisions;
    ++stats.wall_collisions;
    ++count_[i];
    r.free_path = 0.0;
    // A sphere cannot merge with a wall: it bounces whatever the outcome.
    const collisions::WallOutcome o = collisions::resolve_wall_contact(s, n, uw, eps);
    wall_impulses_[k].add(contact, o.impulse);
    moving_[i].vel = o.vel;
    r.speed = o.vel.norm();
    if (o.spin != r.spin) {
        turn(b, e.i, e.time);
        r.spin = o.spin;
    }
    check_collision_count(b, i, t0 + e.time);
}

void EventDrivenDrift::handle_walls_at_start(Bodies& b, double h, double t0, DriftStats& stats) {
    std::vector<WallOverlap> overlaps = find_wall_overlaps(
        b, config_.walls, wall_at_, config_.overlap_tolerance, stats.max_overlap);
    if (overlaps.empty()) return;
    stats.overlaps += static_cast<std::int64_t>(overlaps.size());
    handle_wall_overlaps(b, overlaps, config_.walls, wall_at_, config_, h, t0, wall_impulses_);
    neighbours_.rebuild(b, stats.skin, config_.periodic_box); // positions changed
    stats.rebuilt = true;
    (void)start(b, h);
}

void EventDrivenDrift::renew_at_exit(const Bodies& b, const CollisionEvent& e, const Vec3& x,
                                     double h, double t0) {
    const auto k = static_cast<std::size_t>(e.i);
    const Moving& m = moving_[k];
    neighbours_.renew_ahead(e.i, x, m.vel, m.radius);
    // The renewal leaves the body strictly inside its new room (checked in renew_ahead, in
    // the arithmetic of exit_time), about two rooms (2 skin R) from its far edge, so on its
    // present path its next exit comes about 2 skin R / |v| later. Both guards are relative,
    // to the body's own room and speed and to the drift's clock; neither is a length or a
    // time. (1) When that interval is below the resolution of the clock at this time
    // (e.time + dt rounds to e.time), or the coordinates are too coarse to leave any room, the
    // next exit comes at the same time and the renewals would repeat forever with no time
    // passing (issue 18: a body kicked to 1e27 times its speed by a wrong force). (2) A body
    // renewed max_per_body times in one drift has crossed some max_per_body rooms, far more
    // than a step resolves: with its collisions bounded the same way (collide()), every event
    // loop ends (docs/collisions.md, "Tolerances, and why every event loop ends").
    const double next = e.time + neighbours_.exit_time(e.i, x, m.vel);
    if (next > e.time && ++renewed_[k] <= static_cast<std::uint64_t>(config_.max_per_body)) return;
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "collisions: body %lld moves at %.6g m/s, %.6g of its radii in one drift of "
                  "%.6g s near t = %.9g s, ",
                  static_cast<long long>(b.id[k]), m.vel.norm(), m.vel.norm() * h / m.radius, h,
                  t0 + e.time);
    throw PhysicsError(
        std::string(buf) +
        (next > e.time
             ? "and left its neighbourhood more than " + std::to_string(config_.max_per_body) +
                   " times (collisions.max_per_body): a speed no step resolves, usually from a "
                   "wrong force; check the gravity settings and integrator.dt"
             : "and its next exit from its neighbourhood cannot come later than this one: it "
               "crosses its room (skin R) faster than the drift's clock resolves (a speed no "
               "step resolves, usually from a wrong force; check the gravity settings and "
               "integrator.dt), or its coordinates are too coarse for its room (too far from "
               "the origin for its size)"));
}

double EventDrivenDrift::skin_for_drift(const Bodies& b, double h) {
    if (config_.skin > 0.0) return config_.skin;
    return adaptive_skin_.next(NeighbourLists::largest_skin(b, h, config_.periodic_box));
}

DriftStats EventDrivenDrift::drift(Bodies& b, double h, double t0, bool may_abandon) {
    DriftStats stats;
    stats.skin = skin_for_drift(b, h);
    for (int k = 0; k < boundaries::image_count; ++k)
        image_shift_[static_cast<std::size_t>(k)] =
            shift_of(static_cast<std::int8_t>(k), config_.periodic_box);
    stats.rebuilt = neighbours_.prepare(b, h, stats.skin, config_.periodic_box);
    for (std::size_t k = 0; k < config_.walls.size(); ++k)
        wall_at_[k] = boundaries::wall_point_at(config_.walls[k], t0);

    h_ = h;
    if (start(b, h) && !aggregates_) {
        // Among the listed neighbours: an overlapping pair's neighbourhoods always meet.
        std::vector<Overlap> overlaps = find_overlaps(b, neighbours_, config_.overlap_tolerance);
        stats.max_overlap = largest_relative_depth(b, overlaps);
        stats.overlaps = static_cast<std::int64_t>(overlaps.size());
        if (!overlaps.empty()) {
            std::vector<std::uint8_t> removed(b.size(), 0);
            handle_overlaps(b, overlaps, config_, h, t0, removed);
            for (const std::uint8_t r : removed)
                stats.merges += r;
            remove_flagged(b, removed);
            neighbours_.rebuild(b, stats.skin, config_.periodic_box); // positions changed
            stats.rebuilt = true;
            (void)start(b, h);
        }
    }
    if (aggregates_)
        handle_rigid_overlaps_at_start(b, h, t0, stats); // (walls included)
    else if (!config_.walls.empty())
        handle_walls_at_start(b, h, t0, stats);
    if constexpr (debug_checks) note_start_overlaps();
    const std::size_t n = b.size();
    const auto count = static_cast<std::ptrdiff_t>(n);
    stats.candidate_pairs = neighbours_.pair_count();

    // Invariant (Rapaport 2004, sec. 14.2): for every pair, one of its bodies has a queued
    // event no later than the pair's next collision, and every body has one no later than
    // its exit. A collision re-predicts its two bodies; an exit renews the neighbourhood and
    // predicts the body against its new neighbours (predict_after_exit); an event that comes
    // up stale because one of its bodies changed meanwhile leaves the other, whose path has
    // not changed, without a queued event: it takes its kept second earliest collision or is
    // predicted again (predict_after_stale).
    std::uint32_t events = 0;
    while (!queue_.empty()) {
        // A dense drift can take minutes: a stop request (SIGTERM from a batch scheduler)
        // abandons it; the caller restores the state at the start of the step.
        if (may_abandon && (++events & stop_poll_mask) == 0) throw_if_stop_requested("a drift");
        const CollisionEvent e = queue_.top();
        queue_.pop();
        // The next event is (usually) the new top: its bodies' lines start loading while this
        // one is resolved, which hides much of the memory latency of large systems.
        if (!queue_.empty()) prefetch(queue_.top());
        const auto i = static_cast<std::size_t>(e.i);
        if (e.j == exit_event) {
            // Stale if i collided or was renewed since: it was re-predicted then.
            if (count_[i] != e.ci || neighbours_.generation(e.i) != e.cj) {
                ++stats.stale_events;
                continue;
            }
            // The body itself stays where it was last brought (only collisions move bodies, so
            // the sequence of collisions does not depend on the neighbourhoods).
            const Moving& m = moving_[i];
            renew_at_exit(b, e, m.pos + (e.time - m.time) * m.vel, h, t0);
            predict_after_exit(e.i, e.time, h);
            continue;
        }
        if (is_wall(e.j)) {
            // Stale if i collided since (it was re-predicted then); a wall never changes.
            if (count_[i] != e.ci) {
                ++stats.stale_events;
                continue;
            }
            // (The checks measure free spheres; aggregates have their own tests.)
            if constexpr (debug_checks)
                if (!aggregates_) check_before_event(b, e, t0);
            advance(e.i, e.time);
            collide_wall(b, e, t0, stats);
            if constexpr (debug_checks)
                if (!aggregates_) check_after_event(b, e, t0);
            // Every wall again, the one just hit included: inside a cylinder the next contact
            // may be with the same wall.
            predict_for(e.i, -1, e.time, h);
            continue;
        }
        const auto j = static_cast<std::size_t>(e.j);
        const bool i_same = count_[i] == e.ci;
        const bool j_same = count_[j] == e.cj;
        if (i_same && j_same) {
            // Both bodies' neighbours are predicted after the collision: asking for all their
            // states now overlaps the second body's misses with the first body's work. Their
            // neighbourhoods (the exit test after the predictions) are asked for again: the
            // request made with the previous event had often not arrived (measured: 3 % at
            // 1e4, 9 % at 1e5).
            prefetch_neighbours(e.i);
            prefetch_neighbours(e.j);
            neighbours_.prefetch_hood(e.i);
            neighbours_.prefetch_hood(e.j);
        }
        if (!i_same || !j_same) {
            ++stats.stale_events;
            if (i_same) predict_after_stale(e.i, e, e.time, h);
            if (j_same) predict_after_stale(e.j, e, e.time, h);
            continue;
        }
        // (The checks predict and measure free spheres; aggregates have their own tests.)
        if constexpr (debug_checks)
            if (!aggregates_) check_before_event(b, e, t0);
        advance(e.i, e.time);
        advance(e.j, e.time);
        collide(b, e, t0, stats);
        if constexpr (debug_checks)
            if (!aggregates_) check_after_event(b, e, t0);
        // The absorbed body leaves every list; the merged one has a new centre and radius: a
        // new neighbourhood.
        if (config_.outcome == ContactOutcome::merge) {
            const std::int32_t keep = alive(e.i) ? e.i : e.j;
            const auto k = static_cast<std::size_t>(keep);
            neighbours_.remove(keep == e.i ? e.j : e.i);
            neighbours_.renew(keep, moving_[k].pos, moving_[k].radius);
        }
        if (alive(e.i)) predict_for(e.i, e.j, e.time, h);
        if (alive(e.j)) predict_for(e.j, -1, e.time, h);
    }

    // Every body to the end of the drift (each touches only its own state: in parallel), and
    // the distance they travel in a drift, for the adaptive skin (at their final speeds).
    double path = 0.0, radii = 0.0;
    std::int64_t alive_count = 0;
#pragma omp parallel for schedule(static) reduction(+ : path, radii, alive_count)
    for (std::ptrdiff_t k = 0; k < count; ++k) {
        const auto u = static_cast<std::size_t>(k);
        if (!alive(static_cast<std::int32_t>(k))) continue;
        path += rigid_[u].speed * h;
        radii += moving_[u].radius;
        ++alive_count;
        if (aggregates_ && !free_[u])
            finish_rigid(b, u, h); // (before advance(): its path starts at moving_[u].time)
        else
            turn(b, static_cast<std::int32_t>(k), h);
        advance(static_cast<std::int32_t>(k), h);
        const Moving& m = moving_[u];
        const Rigid& r = rigid_[u];
        b.pos[u] = m.pos;
        b.vel[u] = m.vel;
        b.spin[u] = r.spin;
        b.free_path[u] = r.free_path;
        if (config_.periodic_box > 0.0) {
            const Vec3 w = boundaries::wrap_into_box(b.pos[u], config_.periodic_box);
            // The neighbourhood moves with its body (shift() updates the images in the lists).
            neighbours_.shift(static_cast<std::int32_t>(k), w - b.pos[u]);
            b.pos[u] = w;
        }
    }
    if (sticking_) join_stuck(b, stats);
    if (std::find(count_.begin(), count_.end(), absorbed) != count_.end()) {
        std::vector<std::uint8_t> removed(n, 0);
        for (std::size_t k = 0; k < n; ++k)
            removed[k] = count_[k] == absorbed ? 1 : 0;
        remove_flagged(b, removed); // the lists are rebuilt at the next drift
    }
    if constexpr (debug_checks) check_end(b, h, t0);
    stats.renewals = neighbours_.renewals();
    if (config_.skin <= 0.0 && alive_count > 0)
        adaptive_skin_.learn(path, stats.collisions, radii / static_cast<double>(alive_count),
                             2.0 * static_cast<double>(stats.candidate_pairs) /
                                 static_cast<double>(alive_count));
    return stats;
}

} // namespace rubble::collisions
