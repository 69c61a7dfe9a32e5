// SPDX-License-Identifier: MIT
// The event-driven drift's start-of-drift phases (event_drift.hpp): bodies found overlapping
// beyond collisions.overlap_tolerance when a drift starts are counted and handled by the
// strategy of collisions.overlaps, then the neighbour lists are rebuilt and the drift starts
// again from what the strategy leaves. Free spheres: pairs (overlaps.hpp), then walls
// (wall_overlaps.hpp), each phase rebuilding before the next looks. Aggregates: one list of
// pairs and walls, all found before any is handled (rigid_overlaps.hpp).
#include <algorithm>
#include <vector>

#include "rubble/boundaries/wall.hpp"
#include "rubble/collisions/event_drift.hpp"
#include "rubble/collisions/find_overlaps.hpp"
#include "rubble/collisions/overlaps.hpp"
#include "rubble/collisions/rigid_overlaps.hpp"
#include "rubble/collisions/wall_overlaps.hpp"

namespace rubble::collisions {

void EventDrivenDrift::handle_pairs_at_start(Bodies& b, double h, double t0, DriftStats& stats) {
    // Among the listed neighbours: an overlapping pair's neighbourhoods always meet.
    std::vector<Overlap> overlaps = find_overlaps(b, neighbours_, s_.config.overlap_tolerance);
    stats.max_overlap = largest_relative_depth(b, overlaps);
    stats.overlaps = static_cast<std::int64_t>(overlaps.size());
    if (overlaps.empty()) return;
    std::vector<std::uint8_t> removed(b.size(), 0);
    handle_overlaps(b, overlaps, s_.config, h, t0, removed);
    for (const std::uint8_t r : removed)
        stats.merges += r;
    remove_flagged(b, removed);
    neighbours_.rebuild(b, stats.skin, s_.config.periodic_box); // positions changed
    stats.rebuilt = true;
    (void)start(b, h);
}

void EventDrivenDrift::handle_walls_at_start(Bodies& b, double h, double t0, DriftStats& stats) {
    std::vector<WallOverlap> overlaps = find_wall_overlaps(
        b, s_.config.walls, s_.wall_at, s_.config.overlap_tolerance, stats.max_overlap);
    if (overlaps.empty()) return;
    stats.overlaps += static_cast<std::int64_t>(overlaps.size());
    handle_wall_overlaps(b, overlaps, s_.config.walls, s_.wall_at, s_.config, h, t0,
                         s_.wall_impulses);
    neighbours_.rebuild(b, stats.skin, s_.config.periodic_box); // positions changed
    stats.rebuilt = true;
    (void)start(b, h);
}

void EventDrivenDrift::handle_rigid_overlaps_at_start(Bodies& b, double h, double t0,
                                                      DriftStats& stats) {
    std::vector<RigidOverlap> found;
    // Every sphere's centre at the drift's start, once (a part's row in parts is its row in
    // b.spheres, DriftState::start_rigid).
    const std::size_t n = s_.moving.size();
    std::vector<Vec3> centre(s_.parts.size());
    for (std::size_t i = 0; i < n; ++i) {
        const Quat q = s_.rotor[i].principal_at(0.0);
        for (std::size_t a = s_.parts_begin[i]; a < s_.parts_begin[i + 1]; ++a)
            centre[a] = s_.moving[i].pos + q * s_.parts[a].offset;
    }
    // Pairs among the listed neighbours (an overlapping pair's bounding spheres overlap, so
    // their neighbourhoods meet) whose bounding spheres overlap: every pair of spheres of
    // different bodies.
    for (std::size_t i = 0; i < n; ++i) {
        neighbours_.for_each_neighbour(static_cast<std::int32_t>(i), [&](std::int32_t jj,
                                                                         std::int8_t image) {
            const auto j = static_cast<std::size_t>(jj);
            if (j <= i) return;
            const Vec3 shift = s_.image_shift[static_cast<std::size_t>(image)];
            const double reach = (s_.moving[i].radius + s_.moving[j].radius) * (1.0 + 1e-12);
            if ((s_.moving[j].pos + shift - s_.moving[i].pos).squaredNorm() >= reach * reach)
                return;
            for (std::size_t a = s_.parts_begin[i]; a < s_.parts_begin[i + 1]; ++a) {
                for (std::size_t c = s_.parts_begin[j]; c < s_.parts_begin[j + 1]; ++c) {
                    const double sigma = s_.parts[a].radius + s_.parts[c].radius;
                    const double depth = sigma - (centre[c] + shift - centre[a]).norm();
                    if (!(depth > s_.config.overlap_tolerance * sigma)) continue;
                    found.push_back(RigidOverlap{static_cast<std::int32_t>(i), Partner::body(jj), a,
                                                 c, shift, depth, depth / sigma});
                }
            }
        });
    }
    // Spheres against walls, for bodies whose bounding sphere reaches a wall.
    const std::vector<boundaries::Wall>& walls = s_.config.walls;
    for (std::size_t k = 0; k < n && !walls.empty(); ++k) {
        for (std::size_t w = 0; w < walls.size(); ++w) {
            const boundaries::Wall& wall = walls[w];
            if (boundaries::wall_gap(wall, s_.wall_at[w], s_.moving[k].pos, s_.moving[k].radius)
                    .gap > 0.0)
                continue;
            for (std::size_t a = s_.parts_begin[k]; a < s_.parts_begin[k + 1]; ++a) {
                const double depth =
                    -boundaries::wall_gap(wall, s_.wall_at[w], centre[a], s_.parts[a].radius).gap;
                if (!(depth > s_.config.overlap_tolerance * s_.parts[a].radius)) continue;
                found.push_back(RigidOverlap{static_cast<std::int32_t>(k), Partner::wall(w), a, 0,
                                             Vec3::Zero(), depth, depth / s_.parts[a].radius});
            }
        }
    }
    if (found.empty()) return;
    stats.overlaps += static_cast<std::int64_t>(found.size());
    for (const RigidOverlap& o : found)
        stats.max_overlap = std::max(stats.max_overlap, o.relative);
    std::vector<std::uint8_t> removed(b.size(), 0);
    handle_rigid_overlaps(b, found, walls, s_.wall_at, s_.config, h, t0, removed, s_.wall_impulses);
    if (std::find(removed.begin(), removed.end(), 1) != removed.end()) {
        for (const std::uint8_t r : removed)
            stats.merges += r;
        remove_flagged(b, removed);
    }
    neighbours_.rebuild(b, stats.skin, s_.config.periodic_box); // positions or bodies changed
    stats.rebuilt = true;
    (void)start(b, h);
}

} // namespace rubble::collisions
