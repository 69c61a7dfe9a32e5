// SPDX-License-Identifier: MIT
#include "rubble/core/random.hpp"

#include <cmath>

namespace rubble {

Vec3 Rng::unit_vector() {
    // z uniform in [-1, 1] and azimuth uniform: area-uniform on the sphere (Archimedes).
    const double z = uniform(-1.0, 1.0);
    const double phi = uniform(0.0, 2.0 * pi);
    const double s = std::sqrt(std::max(0.0, 1.0 - z * z));
    return {s * std::cos(phi), s * std::sin(phi), z};
}

Vec3 Rng::in_ball(double r) {
    for (;;) {
        const Vec3 p(uniform(-1.0, 1.0), uniform(-1.0, 1.0), uniform(-1.0, 1.0));
        if (p.squaredNorm() <= 1.0) return r * p;
    }
}

} // namespace rubble
