// SPDX-License-Identifier: MIT
#pragma once
// Pair kind: a free sphere and a wall (pair_kinds.hpp). The contact is found in closed form per
// wall shape (boundaries/wall_predict.hpp) and resolved with the wall as a body of infinite
// mass (wall_resolve.hpp); a sphere bounces off a wall whatever the outcome. Internal to
// src/collisions.
#include <algorithm>
#include <cstdint>

#include "rubble/boundaries/wall_predict.hpp"
#include "rubble/collisions/drift_state.hpp"

namespace rubble::collisions::detail {

struct SphereWall {
    /// Predicts i's contacts with every wall, by ascending index, from i's own time (only the
    /// body asks, so the answer is always the same), keeping them in u as SphereSphere::offer.
    static void offer_walls(const DriftState& s, Upcoming& u, std::int32_t i, double h) {
        const auto ui = static_cast<std::size_t>(i);
        const Moving& m = s.moving[ui];
        for (std::size_t k = 0; k < s.config.walls.size(); ++k) {
            const boundaries::Wall& w = s.config.walls[k];
            const auto dt = boundaries::predict_wall_contact(w, s.wall_at[k] + m.time * w.velocity,
                                                             m.pos, m.vel, m.radius);
            if (!dt) continue;
            const double t = m.time + *dt;
            if (t > h || t > std::max(u.first.time, u.second.time)) continue;
            keep(u, CollisionEvent{t, i, Partner::wall(k).code(), s.count[ui], 0,
                                   boundaries::self_image});
        }
    }
    /// Resolves body e.i's contact with wall e.partner(), the body advanced to e.time.
    static void collide(DriftState& s, Bodies& b, const CollisionEvent& e, double t0,
                        DriftStats& stats);
};

} // namespace rubble::collisions::detail
