// SPDX-License-Identifier: MIT
#include "rubble/collisions/event_drift.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "rubble/collisions/merge.hpp"
#include "rubble/collisions/overlaps.hpp"
#include "rubble/collisions/periodic.hpp"
#include "rubble/collisions/predict.hpp"
#include "rubble/collisions/resolve.hpp"
#include "rubble/collisions/restitution_law.hpp"
#include "rubble/core/error.hpp"
#include "rubble/integrate/leapfrog.hpp"
#include "sphere_access.hpp"

namespace rubble::collisions {
namespace {

Vec3 shift_of(std::int8_t image, double box) {
    return box > 0.0 ? image_shift(image, box) : Vec3::Zero();
}

// Overlaps among the listed pairs: an overlapping pair's regions always meet, so the candidate
// list holds them all and no second search is needed.
std::vector<Overlap> find_overlaps(const Bodies& b, const std::vector<CandidatePair>& pairs,
                                   double box, double tolerance, double& max_relative) {
    std::vector<Overlap> out;
    for (const CandidatePair& p : pairs) {
        const auto i = static_cast<std::size_t>(p.i), j = static_cast<std::size_t>(p.j);
        const Vec3 s = shift_of(p.image, box);
        const double sigma = b.radius[i] + b.radius[j];
        const double depth = sigma - (b.pos[j] + s - b.pos[i]).norm();
        if (!(depth > tolerance * sigma)) continue;
        max_relative = std::max(max_relative, depth / sigma);
        out.push_back(Overlap{p.i, p.j, s, depth});
    }
    return out;
}

} // namespace

std::vector<CollisionRecord> EventDrivenDrift::take_log() {
    std::vector<CollisionRecord> out;
    out.swap(log_);
    return out;
}

std::optional<CollisionEvent> EventDrivenDrift::predict_pair(const Bodies& b, std::int32_t i,
                                                             std::int32_t j, std::int8_t image,
                                                             double h) const {
    // Always predicted in the order i < j, and from the later of the two bodies' own times
    // (the time of the later one's last collision): the answer does not depend on who asks or
    // when, so the engine and the brute-force check agree bitwise.
    if (i > j) {
        std::swap(i, j);
        image = opposite_image(image);
    }
    const auto ui = static_cast<std::size_t>(i), uj = static_cast<std::size_t>(j);
    const double now = std::max(time_[ui], time_[uj]);
    const auto t = predict_contact_at(b.pos[ui], b.vel[ui], time_[ui],
                                      b.pos[uj] + shift_of(image, config_.periodic_box), b.vel[uj],
                                      time_[uj], b.radius[ui] + b.radius[uj], now);
    if (!t || *t > h) return std::nullopt;
    return CollisionEvent{*t, i, j, count_[ui], count_[uj], image};
}

void EventDrivenDrift::predict_initial(const Bodies& b, double h) {
    const auto& pairs = search_.pairs();
    std::vector<CollisionEvent> events(pairs.size());
    std::vector<std::uint8_t> found(pairs.size(), 0);
    const auto n = static_cast<std::ptrdiff_t>(pairs.size());
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t k = 0; k < n; ++k) {
        const CandidatePair& p = pairs[static_cast<std::size_t>(k)];
        const auto e = predict_pair(b, p.i, p.j, p.image, h);
        if (e) {
            events[static_cast<std::size_t>(k)] = *e;
            found[static_cast<std::size_t>(k)] = 1;
        }
    }
    // Only each body's earliest event enters the queue (Rapaport 2004, The Art of Molecular
    // Dynamics Simulation, sec. 14.2): the queue holds O(N) events instead of O(pairs).
    const LaterEvent later;
    std::vector<std::int64_t> best(b.size(), -1);
    for (std::size_t k = 0; k < events.size(); ++k) {
        if (!found[k]) continue;
        for (const std::int32_t body : {events[k].i, events[k].j}) {
            std::int64_t& slot = best[static_cast<std::size_t>(body)];
            if (slot < 0 || later(events[static_cast<std::size_t>(slot)], events[k]))
                slot = static_cast<std::int64_t>(k);
        }
    }
    for (std::size_t body = 0; body < best.size(); ++body) {
        const std::int64_t k = best[body];
        if (k < 0) continue;
        const CollisionEvent& e = events[static_cast<std::size_t>(k)];
        // An event that is both bodies' earliest is queued once, from its first body.
        if (static_cast<std::int32_t>(body) == e.j && best[static_cast<std::size_t>(e.i)] == k)
            continue;
        queue_.push(e);
    }
}

void EventDrivenDrift::predict_for(const Bodies& b, std::int32_t i, std::int32_t skip, double h) {
    std::optional<CollisionEvent> earliest;
    const LaterEvent later;
    search_.for_each_neighbour(i, [&](const Neighbour& nb) {
        if (nb.j == skip || !alive_[static_cast<std::size_t>(nb.j)]) return;
        const auto e = predict_pair(b, i, nb.j, nb.image, h);
        if (e && (!earliest || later(*earliest, *e))) earliest = e;
    });
    if (earliest) queue_.push(*earliest);
}

void EventDrivenDrift::advance(Bodies& b, std::int32_t i, double t) {
    const auto k = static_cast<std::size_t>(i);
    const double dt = t - time_[k];
    if (dt <= 0.0) return;
    b.pos[k] += dt * b.vel[k];
    b.orientation[k] = integrate::rotate_by_spin(b.orientation[k], b.spin[k], dt);
    b.free_path[k] += dt * b.vel[k].norm();
    time_[k] = t;
}

void EventDrivenDrift::keep_region(const Bodies& b, std::int32_t i, double h) {
    const auto k = static_cast<std::size_t>(i);
    const Vec3 to = b.pos[k] + (h - time_[k]) * b.vel[k];
    if (!search_.inside(i, b.pos[k], to, b.radius[k])) search_.renew(i, b.pos[k], to, b.radius[k]);
}

void EventDrivenDrift::collide(Bodies& b, const CollisionEvent& e, double t0, DriftStats& stats) {
    const auto i = static_cast<std::size_t>(e.i), j = static_cast<std::size_t>(e.j);
    const Vec3 shift = shift_of(e.image, config_.periodic_box);
    const SphereState si = sphere_of(b, i, Vec3::Zero()), sj = sphere_of(b, j, shift);

    const Vec3 r = sj.pos - si.pos;
    const Vec3 n = r.normalized();
    const Vec3 v = sj.vel - si.vel;
    // Spin adds only tangential surface velocity (w x n is normal to n).
    const Vec3 u =
        (sj.vel + sj.spin.cross(-sj.radius * n)) - (si.vel + si.spin.cross(si.radius * n));
    const double un = -u.dot(n);
    const double ut = (u + un * n).norm();

    const bool recent =
        b.free_path[i] < config_.f_crit * si.radius || b.free_path[j] < config_.f_crit * sj.radius;
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
    b.free_path[i] = 0.0;
    b.free_path[j] = 0.0;
    if (config_.outcome == ContactOutcome::merge) {
        ++stats.merges;
        const SphereState m = merge_spheres(si, sj);
        const bool keep_i = si.mass > sj.mass || (si.mass == sj.mass && b.id[i] < b.id[j]);
        store_merged(b, keep_i ? i : j, m, keep_i ? Vec3::Zero() : shift);
        alive_[keep_i ? j : i] = 0;
    } else {
        const Outcome o = resolve_collision(si, sj, eps);
        b.vel[i] = o.vel1;
        b.vel[j] = o.vel2;
        b.spin[i] = o.spin1;
        b.spin[j] = o.spin2;
    }

    for (const std::size_t k : {i, j}) {
        if (count_[k] <= static_cast<std::uint64_t>(config_.max_per_body)) continue;
        char buf[256];
        std::snprintf(buf, sizeof buf, "%.9g s", t0 + e.time);
        throw PhysicsError(
            "inelastic collapse: body " + std::to_string(b.id[k]) + " collided more than " +
            std::to_string(config_.max_per_body) + " times in the drift ending near t = " + buf +
            " (collisions.max_per_body); set collisions.v_min or collisions.f_crit, or raise "
            "collisions.eps_n (docs/collisions.md)");
    }
}

DriftStats EventDrivenDrift::drift(Bodies& b, double h, double t0) {
    DriftStats stats;
    search_.build(b, h, config_.skin, config_.periodic_box);

    std::vector<Overlap> overlaps = find_overlaps(b, search_.pairs(), config_.periodic_box,
                                                  config_.overlap_tolerance, stats.max_overlap);
    stats.overlaps = static_cast<std::int64_t>(overlaps.size());
    if (!overlaps.empty()) {
        std::vector<std::uint8_t> removed(b.size(), 0);
        handle_overlaps(b, overlaps, config_, h, t0, removed);
        for (const std::uint8_t r : removed)
            stats.merges += r;
        remove_flagged(b, removed);
        search_.build(b, h, config_.skin, config_.periodic_box); // positions changed
    }

    const std::size_t n = b.size();
    stats.candidate_pairs = static_cast<std::int64_t>(search_.pairs().size());
    time_.assign(n, 0.0);
    count_.assign(n, 0);
    alive_.assign(n, 1);
    queue_.clear();
    predict_initial(b, h);

    // Invariant (Rapaport 2004, sec. 14.2): each body's queued event is no later than its
    // next collision. A collision re-predicts its two bodies; an event that comes up stale
    // because one of its bodies collided meanwhile re-predicts the other one, whose path has
    // not changed but whose earliest event is gone.
    while (!queue_.empty()) {
        const CollisionEvent e = queue_.top();
        queue_.pop();
        const auto i = static_cast<std::size_t>(e.i), j = static_cast<std::size_t>(e.j);
        const bool i_same = count_[i] == e.ci && alive_[i];
        const bool j_same = count_[j] == e.cj && alive_[j];
        if (!i_same || !j_same) {
            ++stats.stale_events;
            if (i_same) predict_for(b, e.i, -1, h);
            if (j_same) predict_for(b, e.j, -1, h);
            continue;
        }
        advance(b, e.i, e.time);
        advance(b, e.j, e.time);
        collide(b, e, t0, stats);
        // The two (or the merged one) move differently now: keep their regions honest, then
        // predict their next collisions.
        for (const std::int32_t k : {e.i, e.j})
            if (alive_[static_cast<std::size_t>(k)]) keep_region(b, k, h);
        if (alive_[i]) predict_for(b, e.i, e.j, h);
        if (alive_[j]) predict_for(b, e.j, -1, h);
    }

    for (std::size_t k = 0; k < n; ++k)
        if (alive_[k]) advance(b, static_cast<std::int32_t>(k), h);
    if (config_.periodic_box > 0.0)
        for (Vec3& x : b.pos)
            x = wrap_into_box(x, config_.periodic_box);
    if (std::find(alive_.begin(), alive_.end(), std::uint8_t{0}) != alive_.end()) {
        std::vector<std::uint8_t> removed(n, 0);
        for (std::size_t k = 0; k < n; ++k)
            removed[k] = alive_[k] ? 0 : 1;
        remove_flagged(b, removed);
    }
    stats.renewals = search_.renewals();
    return stats;
}

} // namespace rubble::collisions
