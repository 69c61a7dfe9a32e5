// SPDX-License-Identifier: MIT
#include "rubble/integrate/leapfrog.hpp"

#include "rubble/integrate/stepper.hpp"

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

double work_counter(const StepStats& s, std::string_view name) {
    for (const WorkCounter& w : s.work)
        if (name == w.name) return w.value;
    return 0.0;
}

StepStats PlainDrift::advance(Bodies& b, double h, double /*t0*/, bool /*may_abandon*/) {
    drift(b, h);
    return {};
}

} // namespace rubble::integrate
