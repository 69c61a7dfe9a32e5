// SPDX-License-Identifier: MIT
#pragma once
// Periodic cube, the boundary of event-driven collisions in a box (Allen & Tildesley 2017,
// "Computer Simulation of Liquids", sec. 1.6). A partner is seen through one of 27 images,
// shifted by L (a, b, c) with a, b, c in {-1, 0, 1}; image 13 is the body itself.
#include <cmath>
#include <cstdint>

#include "rubble/core/types.hpp"

namespace rubble::boundaries {

inline constexpr int image_count = 27;
inline constexpr std::int8_t self_image = 13;

/// Shift (m) of image k in a cube of side L.
[[nodiscard]] inline Vec3 image_shift(int k, double L) {
    return L * Vec3(k / 9 - 1, (k / 3) % 3 - 1, k % 3 - 1);
}

/// The image with the opposite shift (how body j sees body i when i sees j through k).
[[nodiscard]] inline std::int8_t opposite_image(std::int8_t k) {
    return static_cast<std::int8_t>(image_count - 1 - k);
}

/// x wrapped into [-L/2, L/2) in each coordinate.
[[nodiscard]] inline Vec3 wrap_into_box(const Vec3& x, double L) {
    Vec3 w;
    for (int d = 0; d < 3; ++d) {
        w[d] = x[d] - L * std::floor(x[d] / L + 0.5);
        if (w[d] >= 0.5 * L) w[d] -= L; // round-off at the upper face
    }
    return w;
}

} // namespace rubble::boundaries
