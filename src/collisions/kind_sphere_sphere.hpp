// SPDX-License-Identifier: MIT
#pragma once
// Pair kind: two free spheres (pair_kinds.hpp). Their contact is the root of a quadratic
// (core/contact_time.hpp), resolved by Richardson's restitution model with spin (resolve.hpp)
// or, with outcome = merge, by one sphere of both (merge.hpp). Internal to src/collisions.
#include <algorithm>
#include <cstdint>

#include "rubble/collisions/drift_state.hpp"
#include "rubble/core/contact_time.hpp"

namespace rubble::collisions::detail {

struct SphereSphere {
    /// Predicts the contact of i < j (j seen through `image`) within the drift of h and keeps
    /// it in u (i's kept collisions) if it is among the two earliest. Inlined into the
    /// scheduler's loops over neighbours: it runs some 16 times per collision, and a call would
    /// cost a fifth of it.
    [[gnu::always_inline]] static void offer(const DriftState& s, Upcoming& u, std::int32_t i,
                                             std::int32_t j, std::int8_t image, double h) {
        const auto ui = static_cast<std::size_t>(i), uj = static_cast<std::size_t>(j);
        const Moving& mi = s.moving[ui];
        const Moving& mj = s.moving[uj];
        const double now = std::max(mi.time, mj.time);
        const auto t = predict_contact_at(mi.pos, mi.vel, mi.time,
                                          mj.pos + s.image_shift[static_cast<std::size_t>(image)],
                                          mj.vel, mj.time, mi.radius + mj.radius, now);
        // Most contacts come after both kept ones (or after the drift): no event is built for
        // them.
        if (!t || *t > h || *t > std::max(u.first.time, u.second.time)) return;
        keep(u, CollisionEvent{*t, i, j, s.count[ui], s.count[uj], image});
    }
    /// Resolves e, both bodies advanced to e.time: a bounce, or with outcome = merge one sphere
    /// of the two (the other flagged absorbed).
    static void collide(DriftState& s, Bodies& b, const CollisionEvent& e, double t0,
                        DriftStats& stats);
};

} // namespace rubble::collisions::detail
