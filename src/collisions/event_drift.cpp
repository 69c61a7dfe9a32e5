// SPDX-License-Identifier: MIT
#include "rubble/collisions/event_drift.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
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

void EventDrivenDrift::push_if_before(const Bodies& b, std::int32_t i, std::int32_t j,
                                      std::int8_t image, double now, double h) {
    // Always predicted in the order i < j, so the answer does not depend on who asks.
    if (i > j) {
        std::swap(i, j);
        image = opposite_image(image);
    }
    const auto ui = static_cast<std::size_t>(i), uj = static_cast<std::size_t>(j);
    const auto t = predict_contact_at(b.pos[ui], b.vel[ui], time_[ui],
                                      b.pos[uj] + shift_of(image, config_.periodic_box), b.vel[uj],
                                      time_[uj], b.radius[ui] + b.radius[uj], now);
    if (t && *t <= h) queue_.push(CollisionEvent{*t, i, j, count_[ui], count_[uj], image});
}

void EventDrivenDrift::predict_initial(const Bodies& b, double h) {
    const auto& pairs = search_.pairs();
    std::vector<CollisionEvent> events(pairs.size());
    std::vector<std::uint8_t> found(pairs.size(), 0);
    const auto n = static_cast<std::ptrdiff_t>(pairs.size());
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t k = 0; k < n; ++k) {
        const CandidatePair& p = pairs[static_cast<std::size_t>(k)];
        const auto i = static_cast<std::size_t>(p.i), j = static_cast<std::size_t>(p.j);
        const auto t = predict_contact_at(b.pos[i], b.vel[i], 0.0,
                                          b.pos[j] + shift_of(p.image, config_.periodic_box),
                                          b.vel[j], 0.0, b.radius[i] + b.radius[j], 0.0);
        if (t && *t <= h) {
            events[static_cast<std::size_t>(k)] = CollisionEvent{*t, p.i, p.j, 0, 0, p.image};
            found[static_cast<std::size_t>(k)] = 1;
        }
    }
    for (std::size_t k = 0; k < events.size(); ++k)
        if (found[k]) queue_.push(events[k]);
}

void EventDrivenDrift::predict_for(const Bodies& b, std::int32_t i, std::int32_t skip, double h) {
    const double now = time_[static_cast<std::size_t>(i)];
    search_.for_each_neighbour(i, [&](const Neighbour& nb) {
        if (nb.j == skip || !alive_[static_cast<std::size_t>(nb.j)]) return;
        push_if_before(b, i, nb.j, nb.image, now, h);
    });
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

    while (!queue_.empty()) {
        const CollisionEvent e = queue_.top();
        queue_.pop();
        const auto i = static_cast<std::size_t>(e.i), j = static_cast<std::size_t>(e.j);
        if (count_[i] != e.ci || count_[j] != e.cj || !alive_[i] || !alive_[j]) {
            ++stats.stale_events;
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
