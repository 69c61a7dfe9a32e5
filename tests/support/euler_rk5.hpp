// SPDX-License-Identifier: MIT
#pragma once
// The reference the lectures use for a free rigid body (Richardson, "N rigid-body dynamics",
// PiTP lectures): Euler's equations for the body-frame angular velocity plus the quaternion
// kinematics, integrated by an adaptive explicit Runge-Kutta 5(4) pair (Dormand & Prince 1980,
// J. Comput. Appl. Math. 6, 19; the tableau and step control of Hairer, Norsett & Wanner,
// "Solving ODEs I", sec. II.4-5). Not symplectic: its energy and |L| errors follow the local
// error tolerance and drift secularly, which is what the comparison with the splitting shows.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "rubble/core/types.hpp"

namespace rubble::test {

/// A torque-free rigid body integrated by Dormand-Prince 5(4) with adaptive steps.
class EulerRk5 {
public:
    /// `moments`: principal moments (kg m^2); `q`: principal frame -> inertial frame;
    /// `w_body`: angular velocity in the principal frame (rad/s); rtol/atol: the local error
    /// tolerances of the step control (per component, on q and w).
    EulerRk5(const Vec3& moments, const Quat& q, const Vec3& w_body, double rtol, double atol)
        : moments_(moments), rtol_(rtol), atol_(atol) {
        y_ = {q.w(), q.x(), q.y(), q.z(), w_body.x(), w_body.y(), w_body.z()};
        h_ = 0.01 / std::max(w_body.norm(), 1e-300);
    }

    /// Advances by t (s) exactly, with as many accepted steps as the tolerance needs.
    void advance(double t) {
        double done = 0.0;
        while (done < t) {
            const double h = std::min(h_, t - done);
            if (try_step(h)) done += h;
        }
    }

    [[nodiscard]] Quat orientation() const { return Quat(y_[0], y_[1], y_[2], y_[3]); }
    [[nodiscard]] Vec3 w_body() const { return Vec3(y_[4], y_[5], y_[6]); }
    /// Body-frame angular momentum I w (kg m^2/s).
    [[nodiscard]] Vec3 l_body() const { return moments_.cwiseProduct(w_body()); }
    /// Rotational kinetic energy w.I.w / 2 (J).
    [[nodiscard]] double energy() const { return 0.5 * w_body().dot(l_body()); }
    [[nodiscard]] std::int64_t accepted() const { return accepted_; }
    [[nodiscard]] std::int64_t rejected() const { return rejected_; }

private:
    using State = std::array<double, 7>;

    // Euler's equations I1 w1' = (I2 - I3) w2 w3 (cyclic) and q' = q (x) (0, w) / 2.
    [[nodiscard]] State rate(const State& y) const {
        const double w1 = y[4], w2 = y[5], w3 = y[6];
        const double I1 = moments_.x(), I2 = moments_.y(), I3 = moments_.z();
        State d;
        d[0] = 0.5 * (-y[1] * w1 - y[2] * w2 - y[3] * w3);
        d[1] = 0.5 * (y[0] * w1 + y[2] * w3 - y[3] * w2);
        d[2] = 0.5 * (y[0] * w2 + y[3] * w1 - y[1] * w3);
        d[3] = 0.5 * (y[0] * w3 + y[1] * w2 - y[2] * w1);
        d[4] = (I2 - I3) / I1 * w2 * w3;
        d[5] = (I3 - I1) / I2 * w3 * w1;
        d[6] = (I1 - I2) / I3 * w1 * w2;
        return d;
    }

    // One Dormand-Prince step of length h; true (and the state advanced) when accepted. The
    // next step is h (0.9 / err)^(1/5), clamped to [h / 5, 5 h] (Hairer et al., eq. II.4.13).
    bool try_step(double h) {
        static constexpr double a21 = 1.0 / 5, a31 = 3.0 / 40, a32 = 9.0 / 40, a41 = 44.0 / 45,
                                a42 = -56.0 / 15, a43 = 32.0 / 9, a51 = 19372.0 / 6561,
                                a52 = -25360.0 / 2187, a53 = 64448.0 / 6561, a54 = -212.0 / 729,
                                a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247,
                                a64 = 49.0 / 176, a65 = -5103.0 / 18656, b1 = 35.0 / 384,
                                b3 = 500.0 / 1113, b4 = 125.0 / 192, b5 = -2187.0 / 6784,
                                b6 = 11.0 / 84;
        // b (fifth order) minus b-hat (fourth order): the embedded error estimate.
        static constexpr double e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920,
                                e5 = -17253.0 / 339200, e6 = 22.0 / 525, e7 = -1.0 / 40;
        const auto combine = [&](std::initializer_list<std::pair<double, const State*>> terms) {
            State out = y_;
            for (const auto& [c, k] : terms)
                for (std::size_t i = 0; i < 7; ++i)
                    out[i] += h * c * (*k)[i];
            return out;
        };
        const State k1 = rate(y_);
        const State k2 = rate(combine({{a21, &k1}}));
        const State k3 = rate(combine({{a31, &k1}, {a32, &k2}}));
        const State k4 = rate(combine({{a41, &k1}, {a42, &k2}, {a43, &k3}}));
        const State k5 = rate(combine({{a51, &k1}, {a52, &k2}, {a53, &k3}, {a54, &k4}}));
        const State k6 =
            rate(combine({{a61, &k1}, {a62, &k2}, {a63, &k3}, {a64, &k4}, {a65, &k5}}));
        const State y1 = combine({{b1, &k1}, {b3, &k3}, {b4, &k4}, {b5, &k5}, {b6, &k6}});
        const State k7 = rate(y1);
        double err = 0.0;
        for (std::size_t i = 0; i < 7; ++i) {
            const double e =
                h * (e1 * k1[i] + e3 * k3[i] + e4 * k4[i] + e5 * k5[i] + e6 * k6[i] + e7 * k7[i]);
            const double scale = atol_ + rtol_ * std::max(std::abs(y_[i]), std::abs(y1[i]));
            err = std::max(err, std::abs(e) / scale);
        }
        const double factor = err == 0.0 ? 5.0 : std::clamp(0.9 * std::pow(err, -0.2), 0.2, 5.0);
        if (err > 1.0) {
            ++rejected_;
            h_ = h * std::min(factor, 1.0);
            return false;
        }
        ++accepted_;
        y_ = y1;
        // A step shortened to land on the end time does not shrink the next one.
        h_ = std::max(h_, h) * factor;
        return true;
    }

    Vec3 moments_;
    double rtol_, atol_;
    State y_;
    double h_;
    std::int64_t accepted_ = 0, rejected_ = 0;
};

} // namespace rubble::test
