// SPDX-License-Identifier: MIT
#include "rubble/integrate/leapfrog.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "rubble/core/error.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/integrate/free_rotor.hpp"
#include "rubble/integrate/stepper.hpp"

namespace rubble::integrate {

void kick(Bodies& b, std::span<const Vec3> acc, double h) {
    const std::size_t n = b.size();
    for (std::size_t i = 0; i < n; ++i)
        b.vel[i] += h * acc[i];
}

void kick(Bodies& b, std::span<const Vec3> acc, std::span<const Vec3> torque, double h) {
    kick(b, acc, h);
    if (torque.empty()) return;
    const std::size_t n = b.size();
    for (std::size_t i = 0; i < n; ++i) {
        const Mat3 r = principal_to_inertial(b, i).toRotationMatrix();
        const Vec3 l = r * b.inertia[i].cwiseProduct(r.transpose() * b.spin[i]) + h * torque[i];
        b.spin[i] = r * (r.transpose() * l).cwiseQuotient(b.inertia[i]);
    }
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
        const Vec3& I = b.inertia[i];
        if (I.x() == I.y() && I.y() == I.z()) {
            // Equal moments (free spheres): the spin is constant.
            b.orientation[i] = rotate_by_spin(b.orientation[i], b.spin[i], h);
        } else {
            Quat principal = principal_to_inertial(b, i);
            turn_free_rotor(principal, b.spin[i], I, h);
            b.orientation[i] = (principal * b.principal_axes[i].conjugate()).normalized();
        }
    }
}

double work_counter(const StepStats& s, std::string_view name) {
    for (const WorkCounter& w : s.work)
        if (name == w.name) return w.value;
    return 0.0;
}

const StateArray* StepperState::find(std::string_view name) const {
    for (const StateArray& a : arrays)
        if (a.name == name) return &a;
    return nullptr;
}

void Stepper::restore_state(const StepperState& s) {
    if (!s.empty())
        throw InputError("a state of the '" + s.stepper + "' stepper, which the '" + name() +
                         "' stepper of this run does not keep");
}

StepStats PlainDrift::advance(Bodies& b, double h, double /*t0*/, bool /*may_abandon*/) {
    drift(b, h);
    return {};
}

} // namespace rubble::integrate
