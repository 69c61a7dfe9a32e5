// SPDX-License-Identifier: MIT
#pragma once
// The neighbourhood margin chosen from the system's mean free path (collisions.skin = 0,
// docs/collisions.md, "Neighbour search").
//
// The skin trades the length of the neighbour lists (predictions per collision, growing with
// the skin cubed) against renewals (one per skin R or so of a body's path). The best balance
// depends on how far a body flies between collisions: a dense gas wants a thin skin, a dilute
// one or a cloud in free fall a thick one. The skin never changes the collisions (every pair
// that can collide is listed whatever the skin, and an exit moves nothing), only the cost.
#include <cstdint>
#include <limits>

namespace rubble::collisions {

/// The skin for a mean free path of `lambda` mean radii: 0.9 sqrt(lambda), within
/// [min_skin, max_skin]. Fitted to the fastest fixed skin of the elastic gas at packing
/// fractions 0.05 to 0.4 (docs/benchmarks.md); no collisions (lambda = +inf) gives max_skin.
[[nodiscard]] double skin_for_free_path(double lambda);

/// Chooses the skin drift by drift from what the previous drift measured, changing it only
/// when the better one differs by more than a factor `hysteresis` (a new skin rebuilds the
/// lists, an O(N) pass).
class AdaptiveSkin {
public:
    static constexpr double first_skin = 0.5; ///< before anything is measured
    static constexpr double min_skin = 0.2;
    static constexpr double max_skin = 2.0;
    static constexpr double hysteresis = 1.3;
    /// Kept this fraction below the largest skin a periodic box allows, so that speeds
    /// changing from drift to drift do not change the skin every drift.
    static constexpr double below_cap = 0.8;

    /// The skin for the next drift, no larger than `cap` (the largest the periodic box
    /// allows; +inf in open space; a cap <= 0 means no skin fits, and the lists report that).
    [[nodiscard]] double next(double cap);

    /// Lists longer than this (neighbours per body) stop the skin from growing: a still,
    /// dense system (no collisions, so an infinite free path) would otherwise get the largest
    /// skin and some hundred neighbours per body. The fastest skins measured list 8 to 11.
    static constexpr double long_lists = 24.0;

    /// Learns from a finished drift: the distance all bodies travelled (m), the collisions,
    /// the bodies' mean radius (m) and their mean number of neighbours.
    void learn(double path, std::int64_t collisions, double mean_radius, double neighbours);

    [[nodiscard]] double current() const { return skin_; }

private:
    double skin_ = first_skin;
    double cap_ = std::numeric_limits<double>::infinity();
};

} // namespace rubble::collisions
