// SPDX-License-Identifier: MIT
#include "rubble/collisions/adaptive_skin.hpp"

#include <algorithm>
#include <cmath>

namespace rubble::collisions {

double skin_for_free_path(double lambda) {
    // Renewals per collision fall as 1/skin and list lengths grow as (1 + skin)^3; the fastest
    // fixed skin measured on the 1e4 elastic gas (docs/benchmarks.md: 0.2 to 0.3 at packing
    // 0.4, 0.4 to 0.5 at 0.3, about 1 at 0.15, 1.5 to 2 at 0.05, where the Enskog mean free
    // path is 0.16, 0.32, 1.0 and 4.1 radii) follows 0.9 sqrt(lambda / R) within the noise.
    if (!(lambda >= 0.0)) return AdaptiveSkin::first_skin; // (NaN: nothing to go by)
    return std::clamp(0.9 * std::sqrt(lambda), AdaptiveSkin::min_skin, AdaptiveSkin::max_skin);
}

double AdaptiveSkin::next(double cap) {
    cap_ = cap;
    if (cap > 0.0 && skin_ > cap) skin_ = below_cap * cap;
    return skin_;
}

void AdaptiveSkin::learn(double path, std::int64_t collisions, double mean_radius,
                         double neighbours) {
    if (!(mean_radius > 0.0) || !(path >= 0.0)) return;
    // Each collision ends two free paths.
    const double lambda = collisions > 0
                              ? path / (2.0 * static_cast<double>(collisions)) / mean_radius
                              : std::numeric_limits<double>::infinity();
    double want = skin_for_free_path(lambda);
    if (cap_ > 0.0) want = std::min(want, below_cap * cap_);
    if (neighbours > long_lists) want = std::min(want, skin_);
    if (want > hysteresis * skin_ || want * hysteresis < skin_) skin_ = want;
}

} // namespace rubble::collisions
