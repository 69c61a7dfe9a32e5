// SPDX-License-Identifier: MIT
#pragma once
// What every resolved contact of the event-driven drift does besides its geometry and impulse,
// written once for the four pair kinds (pair_kinds.hpp): the guards against inelastic collapse,
// the collision log, the counters and the free paths. Internal to src/collisions.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "rubble/collisions/drift_state.hpp"
#include "rubble/collisions/restitution_law.hpp"

namespace rubble::collisions::detail {

/// Body k has moved less than f_crit of its radius since its last collision (McNamara and
/// Young's remedy against inelastic collapse, as pkdgrav: Richardson's lectures, "Inelastic
/// collapse"): its contacts are elastic.
[[gnu::always_inline]] inline bool hit_recently(const DriftState& s, std::size_t k) {
    return s.rigid[k].free_path < s.config.f_crit * s.moving[k].radius;
}

/// The restitution of a contact approaching at un (m/s) whose bodies were hit recently
/// (hit_recently) or not; a contact the guards make elastic (recent, or slower than v_min) is
/// counted in elastic_by_guard unless it does not bounce (`bounces` false: it sticks).
[[gnu::always_inline]] inline Restitution guard(const CollisionConfig& c, double un, bool recent,
                                                bool bounces, DriftStats& stats) {
    const Restitution eps = restitution_for(c, un, recent);
    if (bounces && (recent || (un < c.v_min && c.eps_n < 1.0))) ++stats.elastic_by_guard;
    return eps;
}

/// Books a contact of bodies e.i and e.j: its log record (config.log; ids in increasing order,
/// the impact parameter from the centres' separation r and relative velocity v), the counts,
/// and both free paths restarted.
[[gnu::always_inline]] inline void book_pair(DriftState& s, const Bodies& b,
                                             const CollisionEvent& e, double t0, double un,
                                             double ut, const Vec3& r, const Vec3& v,
                                             DriftStats& stats) {
    const auto i = static_cast<std::size_t>(e.i), j = static_cast<std::size_t>(e.j);
    if (s.config.log) {
        const double speed = v.norm();
        const double impact = speed > 0.0 ? r.cross(v).norm() / speed : 0.0;
        s.log.push_back(CollisionRecord{t0 + e.time, std::min(b.id[i], b.id[j]),
                                        std::max(b.id[i], b.id[j]), un, ut, impact});
    }
    ++stats.collisions;
    ++s.count[i];
    ++s.count[j];
    s.rigid[i].free_path = 0.0;
    s.rigid[j].free_path = 0.0;
}

/// Books a contact of body e.i with wall e.partner(): its log record (the wall's id -1 - k
/// first, so id1 < id2 still holds; no impact parameter), the counts, the free path restarted.
[[gnu::always_inline]] inline void book_wall(DriftState& s, const Bodies& b,
                                             const CollisionEvent& e, double t0, double un,
                                             double ut, DriftStats& stats) {
    const auto i = static_cast<std::size_t>(e.i);
    if (s.config.log)
        s.log.push_back(
            CollisionRecord{t0 + e.time, e.partner().log_id(b.id), b.id[i], un, ut, 0.0});
    ++stats.collisions;
    ++stats.wall_collisions;
    ++s.count[i];
    s.rigid[i].free_path = 0.0;
}

} // namespace rubble::collisions::detail
