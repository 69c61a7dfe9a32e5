// SPDX-License-Identifier: MIT
#include "rubble/integrate/leapfrog.hpp"

#include <cmath>
#include <cstddef>

namespace rubble::integrate {

void kick(Bodies& b, std::span<const Vec3> acc, double h) {
    const std::size_t n = b.size();
    for (std::size_t i = 0; i < n; ++i)
        b.vel[i] += h * acc[i];
}

Quat rotate_by_spin(const Quat& q, const Vec3& w, double h) {
    const double rate = w.norm();
    if (rate == 0.0) return q;
    const Quat step(Eigen::AngleAxisd(rate * h, w / rate));
    return (step * q).normalized();
}

void drift(Bodies& b, double h) {
    const std::size_t n = b.size();
    for (std::size_t i = 0; i < n; ++i) {
        b.pos[i] += h * b.vel[i];
        b.orientation[i] = rotate_by_spin(b.orientation[i], b.spin[i], h);
    }
}

} // namespace rubble::integrate
