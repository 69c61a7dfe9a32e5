// SPDX-License-Identifier: MIT
#include "rubble/collisions/event_drift.hpp"
#include "rubble/collisions/wall_overlaps.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <tuple>

#include "pair_kinds.hpp"
#include "rubble/boundaries/periodic.hpp"
#include "rubble/collisions/find_overlaps.hpp"
#include "rubble/core/debug_checks.hpp"
#include "rubble/core/error.hpp"
#include "rubble/core/stop_request.hpp"

namespace rubble::collisions {

using detail::Moving;
using detail::Rigid;

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
    out.swap(s_.log);
    return out;
}

// Inlined into the loops over neighbours (SphereSphere::offer says why).
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
    // Two ghosts meet on their owners' ranks (GhostedDrift).
    if (s_.ghost != nullptr && s_.ghost[i] != 0 && s_.ghost[j] != 0) [[unlikely]]
        return;
    if (detail::meet_as_rigid(s_, static_cast<std::size_t>(i), static_cast<std::size_t>(j)))
        [[unlikely]] {
        detail::RigidPair::offer(s_, u, i, j, image, h);
        return;
    }
    detail::SphereSphere::offer(s_, u, i, j, image, h);
}

void EventDrivenDrift::offer_nearest_first(Upcoming& u, std::int32_t i, std::int32_t skip,
                                           double h) {
    // (Here beside offer(), which is inlined into it.) A pair of aggregates costs a root
    // search per pair of spheres that may touch before `until`, the later of i's two kept
    // events: the neighbours are offered in the order in which their bounding spheres (about
    // the centres of mass, on straight lines) first touch i's, so that the kept events come
    // early and shorten the searches after them; a neighbour whose bounding sphere cannot reach
    // i's before both kept events is not searched at all (it could not be kept).
    const auto ui = static_cast<std::size_t>(i);
    const RigidMotion mi = s_.motion_of(ui);
    nearest_.clear();
    neighbours_.for_each_neighbour(i, [&](std::int32_t j, std::int8_t image) {
        if (j == skip) return;
        const RigidMotion mj = s_.motion_of(static_cast<std::size_t>(j));
        const auto t = bounding_contact(mi, mj, s_.image_shift[static_cast<std::size_t>(image)],
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

void EventDrivenDrift::offer_walls(Upcoming& u, std::int32_t i, double h) const {
    // A ghost meets the walls on its owner's rank (GhostedDrift): its owner's changes say how.
    if (s_.ghost != nullptr && s_.ghost[i] != 0) [[unlikely]]
        return;
    if (detail::meets_walls_as_rigid(s_, static_cast<std::size_t>(i))) [[unlikely]] {
        detail::RigidWall::offer_walls(s_, u, i, h);
        return;
    }
    detail::SphereWall::offer_walls(s_, u, i, h);
}

std::optional<CollisionEvent> EventDrivenDrift::predict_exit(std::int32_t i, double now,
                                                             double h) const {
    const auto k = static_cast<std::size_t>(i);
    const Moving& m = s_.moving[k];
    const Vec3 x = m.pos + (now - m.time) * m.vel;
    const double t = now + neighbours_.exit_time(i, x, m.vel);
    if (!(t <= h)) return std::nullopt;
    return CollisionEvent{
        t, i, exit_event, s_.count[k], neighbours_.generation(i), boundaries::self_image};
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
    if (e.partner().is_wall()) return true;  // a wall never changes
    const auto other = static_cast<std::size_t>(e.i == i ? e.j : e.i);
    const std::uint32_t then = e.i == i ? e.cj : e.ci;
    return s_.count[other] ==
           then; // (an detail::DriftState::absorbed body's count matches no event)
}

std::optional<CollisionEvent> EventDrivenDrift::exit_before(std::int32_t i, double now,
                                                            double until, double h) const {
    // A straight path that ends inside the room has been inside all along (the room is
    // convex): no exit before `until`, and its time, a square root and a division, is not
    // needed. In a resting pile that is nearly every body.
    const Moving& m = s_.moving[static_cast<std::size_t>(i)];
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
    const std::size_t n = s_.moving.size();
    std::vector<CollisionEvent> best(n);
    std::vector<std::uint8_t> found(n, 0);
    const auto count = static_cast<std::ptrdiff_t>(n);
    // The same pass looks out for overlaps (depth > tolerance (R_i + R_j)), leaning towards
    // seeing one: the exact check (find_overlaps) runs only when this one saw something.
    const double close = (1.0 - s_.config.overlap_tolerance) * (1.0 + 1e-12);
    bool overlapping = false;
#pragma omp parallel for schedule(static) reduction(|| : overlapping)
    for (std::ptrdiff_t k = 0; k < count; ++k) {
        const auto i = static_cast<std::int32_t>(k);
        // The neighbours of a body a few ahead are requested now, so that their states have
        // arrived when it comes (in a cloud drawn at random they sit anywhere in memory).
        if (k + prefetch_ahead < count)
            prefetch_neighbours(static_cast<std::int32_t>(k + prefetch_ahead));
        const Moving& mi = s_.moving[static_cast<std::size_t>(k)];
        Upcoming u{no_collision(i), no_collision(i)};
        neighbours_.for_each_neighbour(i, [&](std::int32_t j, std::int8_t image) {
            offer(u, i, j, image, h);
            const Moving& mj = s_.moving[static_cast<std::size_t>(j)];
            const double s = (mi.radius + mj.radius) * close;
            const Vec3 d = mj.pos + s_.image_shift[static_cast<std::size_t>(image)] - mi.pos;
            if (d.squaredNorm() < s * s) overlapping = true;
        });
        if (!s_.config.walls.empty()) offer_walls(u, i, h);
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
        __builtin_prefetch(&s_.moving[static_cast<std::size_t>(j)]);
    });
}

void EventDrivenDrift::predict_for(std::int32_t i, std::int32_t skip, double now, double h) {
    // The neighbours' states are scattered cache lines: ask for all of them before reading
    // the first, so that their misses overlap instead of queueing one behind the other.
    prefetch_neighbours(i);
    Upcoming u{no_collision(i), no_collision(i)};
    if (s_.aggregates) [[unlikely]] {
        offer_nearest_first(u, i, skip, h);
    } else {
        // (Merged bodies have left every list.)
        neighbours_.for_each_neighbour(i, [&](std::int32_t j, std::int8_t image) {
            if (j == skip) return;
            offer(u, i, j, image, h);
        });
    }
    if (!s_.config.walls.empty()) offer_walls(u, i, h);
    upcoming_[static_cast<std::size_t>(i)] = u;
    queue_earliest(i, u.first, now, h);
}

bool EventDrivenDrift::start(const Bodies& b, double h) {
    const std::size_t n = b.size();
    s_.moving.resize(n);
    s_.rigid.resize(n);
    const auto count = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t k = 0; k < count; ++k) {
        const auto u = static_cast<std::size_t>(k);
        s_.moving[u] = Moving{b.pos[u], 0.0, b.vel[u], b.radius[u]};
        s_.rigid[u] =
            Rigid{b.spin[u], b.mass[u], b.inertia[u].x(), b.free_path[u], 0.0, b.vel[u].norm()};
    }
    s_.count.assign(n, 0);
    renewed_.assign(n, 0);
    upcoming_.resize(n);
    queue_.reset(h, n);
    s_.start_rigid(b, h);
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
        __builtin_prefetch(&s_.moving[k]);
        __builtin_prefetch(&s_.rigid[k]);
        __builtin_prefetch(&upcoming_[k]);
        __builtin_prefetch(&s_.count[k]);
        neighbours_.prefetch(b);
    }
}

void EventDrivenDrift::collide(Bodies& b, const CollisionEvent& e, double t0, DriftStats& stats) {
    if (detail::meet_as_rigid(s_, static_cast<std::size_t>(e.i), static_cast<std::size_t>(e.j))) {
        detail::RigidPair::collide(s_, b, e, t0, stats);
        return;
    }
    detail::SphereSphere::collide(s_, b, e, t0, stats);
}

void EventDrivenDrift::collide_wall(Bodies& b, const CollisionEvent& e, double t0,
                                    DriftStats& stats) {
    if (detail::meets_walls_as_rigid(s_, static_cast<std::size_t>(e.i))) {
        detail::RigidWall::collide(s_, b, e, t0, stats);
        return;
    }
    detail::SphereWall::collide(s_, b, e, t0, stats);
}

void EventDrivenDrift::renew_at_exit(const Bodies& b, const CollisionEvent& e, const Vec3& x,
                                     double h, double t0) {
    const auto k = static_cast<std::size_t>(e.i);
    const Moving& m = s_.moving[k];
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
    if (next > e.time && ++renewed_[k] <= static_cast<std::uint64_t>(s_.config.max_per_body))
        return;
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "collisions: body %lld moves at %.6g m/s, %.6g of its radii in one drift of "
                  "%.6g s near t = %.9g s, ",
                  static_cast<long long>(b.id[k]), m.vel.norm(), m.vel.norm() * h / m.radius, h,
                  t0 + e.time);
    throw PhysicsError(
        std::string(buf) +
        (next > e.time
             ? "and left its neighbourhood more than " + std::to_string(s_.config.max_per_body) +
                   " times (collisions.max_per_body): a speed no step resolves, usually from a "
                   "wrong force; check the gravity settings and integrator.dt"
             : "and its next exit from its neighbourhood cannot come later than this one: it "
               "crosses its room (skin R) faster than the drift's clock resolves (a speed no "
               "step resolves, usually from a wrong force; check the gravity settings and "
               "integrator.dt), or its coordinates are too coarse for its room (too far from "
               "the origin for its size)"));
}

double EventDrivenDrift::skin_for_drift(const Bodies& b, double h) {
    if (s_.config.skin > 0.0) return s_.config.skin;
    return adaptive_skin_.next(NeighbourLists::largest_skin(b, h, s_.config.periodic_box));
}

DriftStats EventDrivenDrift::drift(Bodies& b, double h, double t0, bool may_abandon) {
    DriftStats stats;
    if (!begin_drift(b, h, t0, stats)) return stats;
    run_events(b, std::numeric_limits<double>::infinity(), stats, may_abandon);
    end_drift(b, stats);
    return stats;
}

bool EventDrivenDrift::begin_drift(Bodies& b, double h, double t0, DriftStats& stats) {
    t0_ = t0;
    stats.skin = skin_for_drift(b, h);
    for (int k = 0; k < boundaries::image_count; ++k)
        s_.image_shift[static_cast<std::size_t>(k)] =
            shift_of(static_cast<std::int8_t>(k), s_.config.periodic_box);
    stats.rebuilt = neighbours_.prepare(b, h, stats.skin, s_.config.periodic_box);
    for (std::size_t k = 0; k < s_.config.walls.size(); ++k)
        s_.wall_at[k] = boundaries::wall_point_at(s_.config.walls[k], t0);

    s_.h = h;
    if (start(b, h) && !s_.aggregates) {
        if (ghosted_ == nullptr) {
            handle_pairs_at_start(b, h, t0, stats);
        } else if (!find_overlaps(b, neighbours_, s_.config.overlap_tolerance).empty()) {
            // With ghosts the overlaps are found, not handled: the strategies act on the whole
            // state (the caller hands the drift to it).
            ghosted_->overlaps = true;
            return false;
        }
    }
    if (ghosted_ != nullptr && !s_.config.walls.empty()) {
        // And so are overlaps with walls (a body pushed out of a wall may then meet others).
        double deepest = 0.0;
        if (!find_wall_overlaps(b, s_.config.walls, s_.wall_at, s_.config.overlap_tolerance,
                                deepest)
                 .empty()) {
            ghosted_->overlaps = true;
            return false;
        }
    }
    if (s_.aggregates)
        handle_rigid_overlaps_at_start(b, h, t0, stats); // (walls included)
    else if (!s_.config.walls.empty())
        handle_walls_at_start(b, h, t0, stats);
    if constexpr (debug_checks) note_start_overlaps();
    stats.candidate_pairs = neighbours_.pair_count();
    return true;
}

void EventDrivenDrift::run_events(Bodies& b, double until, DriftStats& stats, bool may_abandon) {
    const double h = s_.h, t0 = t0_;

    // Invariant (Rapaport 2004, sec. 14.2): for every pair, one of its bodies has a queued
    // event no later than the pair's next collision, and every body has one no later than
    // its exit. A collision re-predicts its two bodies; an exit renews the neighbourhood and
    // predicts the body against its new neighbours (predict_after_exit); an event that comes
    // up stale because one of its bodies changed meanwhile leaves the other, whose path has
    // not changed, without a queued event: it takes its kept second earliest collision or is
    // predicted again (predict_after_stale).
    std::uint32_t events = 0;
    for (;;) {
        if (ghosted_ != nullptr) [[unlikely]]
            if (apply_due_ghost_update(h, until)) continue;
        if (queue_.empty() || !(queue_.top().time < until)) break;
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
            if (s_.count[i] != e.ci || neighbours_.generation(e.i) != e.cj) {
                ++stats.stale_events;
                continue;
            }
            // The body itself stays where it was last brought (only collisions move bodies, so
            // the sequence of collisions does not depend on the neighbourhoods).
            const Moving& m = s_.moving[i];
            renew_at_exit(b, e, m.pos + (e.time - m.time) * m.vel, h, t0);
            predict_after_exit(e.i, e.time, h);
            continue;
        }
        if (e.partner().is_wall()) {
            // Stale if i collided since (it was re-predicted then); a wall never changes.
            if (s_.count[i] != e.ci) {
                ++stats.stale_events;
                continue;
            }
            // (The checks measure free spheres; aggregates have their own tests. Ghosts follow
            // their owners, which this rank does not check.)
            if constexpr (debug_checks)
                if (!s_.aggregates && ghosted_ == nullptr) check_before_event(b, e, t0);
            s_.advance(e.i, e.time);
            collide_wall(b, e, t0, stats);
            if (ghosted_ != nullptr) [[unlikely]]
                note_ghosted_collision(e, stats, s_.log.size());
            if constexpr (debug_checks)
                if (!s_.aggregates && ghosted_ == nullptr) check_after_event(b, e, t0);
            // Every wall again, the one just hit included: inside a cylinder the next contact
            // may be with the same wall.
            predict_for(e.i, -1, e.time, h);
            continue;
        }
        const auto j = static_cast<std::size_t>(e.j);
        const bool i_same = s_.count[i] == e.ci;
        const bool j_same = s_.count[j] == e.cj;
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
        // (The checks predict and measure free spheres; aggregates have their own tests. Ghosts
        // follow their owners, which this rank does not check.)
        if constexpr (debug_checks)
            if (!s_.aggregates && ghosted_ == nullptr) check_before_event(b, e, t0);
        s_.advance(e.i, e.time);
        s_.advance(e.j, e.time);
        const std::size_t logged = s_.log.size();
        collide(b, e, t0, stats);
        if (ghosted_ != nullptr) [[unlikely]]
            note_ghosted_collision(e, stats, logged);
        if constexpr (debug_checks)
            if (!s_.aggregates && ghosted_ == nullptr) check_after_event(b, e, t0);
        // The detail::DriftState::absorbed body leaves every list; the merged one has a new centre
        // and radius: a new neighbourhood.
        if (s_.outcome.merges()) {
            const std::int32_t keep = s_.alive(e.i) ? e.i : e.j;
            const auto k = static_cast<std::size_t>(keep);
            neighbours_.remove(keep == e.i ? e.j : e.i);
            neighbours_.renew(keep, s_.moving[k].pos, s_.moving[k].radius);
        }
        if (s_.alive(e.i)) predict_for(e.i, e.j, e.time, h);
        if (s_.alive(e.j)) predict_for(e.j, -1, e.time, h);
    }
}

void EventDrivenDrift::end_drift(Bodies& b, DriftStats& stats) {
    const double h = s_.h;
    const std::size_t n = b.size();
    const auto count = static_cast<std::ptrdiff_t>(n);
    // Every body to the end of the drift (each touches only its own state: in parallel), and
    // the distance they travel in a drift, for the adaptive skin (at their final speeds).
    double path = 0.0, radii = 0.0;
    std::int64_t alive_count = 0;
#pragma omp parallel for schedule(static) reduction(+ : path, radii, alive_count)
    for (std::ptrdiff_t k = 0; k < count; ++k) {
        const auto u = static_cast<std::size_t>(k);
        if (!s_.alive(static_cast<std::int32_t>(k))) continue;
        path += s_.rigid[u].speed * h;
        radii += s_.moving[u].radius;
        ++alive_count;
        if (s_.is_rigid(u))
            s_.finish_rigid(b, u, h); // (before advance(): its path starts at moving[u].time)
        else
            s_.turn(b, static_cast<std::int32_t>(k), h);
        s_.advance(static_cast<std::int32_t>(k), h);
        const Moving& m = s_.moving[u];
        const Rigid& r = s_.rigid[u];
        b.pos[u] = m.pos;
        b.vel[u] = m.vel;
        b.spin[u] = r.spin;
        b.free_path[u] = r.free_path;
        if (s_.config.periodic_box > 0.0) {
            const Vec3 w = boundaries::wrap_into_box(b.pos[u], s_.config.periodic_box);
            // The neighbourhood moves with its body (shift() updates the images in the lists).
            neighbours_.shift(static_cast<std::int32_t>(k), w - b.pos[u]);
            b.pos[u] = w;
        }
    }
    if (s_.outcome.rigid_pairs()) s_.join_stuck(b, stats);
    if (std::find(s_.count.begin(), s_.count.end(), detail::DriftState::absorbed) !=
        s_.count.end()) {
        std::vector<std::uint8_t> removed(n, 0);
        for (std::size_t k = 0; k < n; ++k)
            removed[k] = s_.count[k] == detail::DriftState::absorbed ? 1 : 0;
        remove_flagged(b, removed); // the lists are rebuilt at the next drift
    }
    if constexpr (debug_checks) check_end(b, h, t0_);
    stats.renewals = neighbours_.renewals();
    if (s_.config.skin <= 0.0 && alive_count > 0)
        adaptive_skin_.learn(path, stats.collisions, radii / static_cast<double>(alive_count),
                             2.0 * static_cast<double>(stats.candidate_pairs) /
                                 static_cast<double>(alive_count));
}

} // namespace rubble::collisions
