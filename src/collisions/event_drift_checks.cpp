// SPDX-License-Identifier: MIT
// The event-driven drift's invariant checks (drift_checks.hpp), kept out of event_drift.cpp:
// the engine calls these only when debug_checks is true, and they only read its state (bodies
// are carried to an event's time on copies), so a run's results are bitwise the same with the
// checks on or off.
#include <algorithm>
#include <utility>

#include "rubble/boundaries/wall_predict.hpp"
#include "rubble/collisions/drift_checks.hpp"
#include "rubble/collisions/event_drift.hpp"
#include "rubble/core/contact_time.hpp"

namespace rubble::collisions {

Vec3 EventDrivenDrift::position_at(std::int32_t k, double t) const {
    const detail::Moving& m = s_.moving[static_cast<std::size_t>(k)];
    return m.pos + (t - m.time) * m.vel;
}

void EventDrivenDrift::note_start_overlaps() {
    // Pairs (and body-wall contacts) that overlap beyond the tolerance once the start-of-drift
    // strategy has run (repulse, for one, leaves them overlapping for a while): the checks after
    // each event exempt them. Every other pair starts apart, and an exact drift keeps it so.
    overlapping_at_start_.clear();
    const double tol = s_.config.overlap_tolerance;
    for (std::size_t k = 0; k < s_.moving.size(); ++k) {
        const auto i = static_cast<std::int32_t>(k);
        const detail::Moving& mi = s_.moving[k];
        neighbours_.for_each_neighbour(i, [&](std::int32_t j, std::int8_t image) {
            const detail::Moving& mj = s_.moving[static_cast<std::size_t>(j)];
            const double sigma = mi.radius + mj.radius;
            const Vec3 d = mj.pos + s_.image_shift[static_cast<std::size_t>(image)] - mi.pos;
            if (sigma - d.norm() > tol * sigma)
                overlapping_at_start_.emplace_back(std::min(i, j), Partner::body(std::max(i, j)));
        });
        for (std::size_t w = 0; w < s_.config.walls.size(); ++w)
            if (-boundaries::wall_gap(s_.config.walls[w], s_.wall_at[w], mi.pos, mi.radius).gap >
                tol * mi.radius)
                overlapping_at_start_.emplace_back(i, Partner::wall(w));
    }
    std::sort(overlapping_at_start_.begin(), overlapping_at_start_.end());
}

void EventDrivenDrift::check_before_event(const Bodies& b, const CollisionEvent& e,
                                          double t0) const {
    // The event is the earliest of its bodies': no contact of theirs, predicted afresh with the
    // arithmetic of offer() and offer_walls() from the same states (so bitwise what the engine
    // predicted when it last saw the pair), may come before it.
    const std::int32_t bodies[2] = {e.i, e.partner().is_wall() ? e.i : e.j};
    for (const std::int32_t i : bodies) {
        const detail::Moving& mi = s_.moving[static_cast<std::size_t>(i)];
        neighbours_.for_each_neighbour(i, [&](std::int32_t j, std::int8_t image) {
            std::int32_t a = i, c = j;
            if (a > c) {
                std::swap(a, c);
                image = boundaries::opposite_image(image);
            }
            const detail::Moving& ma = s_.moving[static_cast<std::size_t>(a)];
            const detail::Moving& mc = s_.moving[static_cast<std::size_t>(c)];
            const auto t = predict_contact_at(
                ma.pos, ma.vel, ma.time, mc.pos + s_.image_shift[static_cast<std::size_t>(image)],
                mc.vel, mc.time, ma.radius + mc.radius, std::max(ma.time, mc.time));
            if (t)
                checks::no_earlier_contact(b.id[static_cast<std::size_t>(i)],
                                           b.id[static_cast<std::size_t>(j)], t0 + e.time, t0 + *t);
        });
        for (std::size_t k = 0; k < s_.config.walls.size(); ++k) {
            const boundaries::Wall& w = s_.config.walls[k];
            const auto dt = boundaries::predict_wall_contact(
                w, s_.wall_at[k] + mi.time * w.velocity, mi.pos, mi.vel, mi.radius);
            if (dt)
                checks::no_earlier_contact(b.id[static_cast<std::size_t>(i)],
                                           Partner::wall(k).log_id(b.id), t0 + e.time,
                                           t0 + (mi.time + *dt));
        }
        if (bodies[1] == bodies[0]) break;
    }
}

void EventDrivenDrift::check_after_event(const Bodies& b, const CollisionEvent& e,
                                         double t0) const {
    // A merged sphere may grow into its neighbours (handled at the next drift's start,
    // overlaps.hpp): nothing to check then.
    if (s_.outcome.merges()) return;
    const double t = e.time;
    const double tol = s_.config.overlap_tolerance;
    const std::int32_t bodies[2] = {e.i, e.partner().is_wall() ? e.i : e.j};
    for (const std::int32_t i : bodies) {
        const auto ui = static_cast<std::size_t>(i);
        const checks::SphereAt si{b.id[ui], position_at(i, t), s_.moving[ui].radius};
        neighbours_.for_each_neighbour(i, [&](std::int32_t j, std::int8_t image) {
            if (std::binary_search(overlapping_at_start_.begin(), overlapping_at_start_.end(),
                                   std::make_pair(std::min(i, j), Partner::body(std::max(i, j)))))
                return;
            const auto uj = static_cast<std::size_t>(j);
            const checks::SphereAt sj{
                b.id[uj], position_at(j, t) + s_.image_shift[static_cast<std::size_t>(image)],
                s_.moving[uj].radius};
            checks::pair_clear(si, sj, tol, t0 + t);
        });
        for (std::size_t k = 0; k < s_.config.walls.size(); ++k) {
            if (std::binary_search(overlapping_at_start_.begin(), overlapping_at_start_.end(),
                                   std::make_pair(i, Partner::wall(k))))
                continue;
            const boundaries::Wall& w = s_.config.walls[k];
            checks::wall_clear(si, w, k, s_.wall_at[k] + t * w.velocity, tol, t0 + t);
        }
        if (bodies[1] == bodies[0]) break;
    }
}

void EventDrivenDrift::check_end(const Bodies& b, double h, double t0) const {
    checks::inside_box(b, s_.config.periodic_box, t0 + h);
    checks::ids_consistent(b, t0 + h);
}

} // namespace rubble::collisions
