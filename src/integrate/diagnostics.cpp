// SPDX-License-Identifier: MIT
#include "rubble/integrate/diagnostics.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "rubble/core/rigid_body.hpp"

namespace rubble::integrate {

Diagnostics compute_diagnostics(const Bodies& b, std::span<const double> potential, double time,
                                std::int64_t step) {
    Diagnostics d;
    d.time = time;
    d.step = step;
    double m_total = 0.0;
    Vec3 spin_l = Vec3::Zero();
    double spin_l_sum = 0.0;
    for (std::size_t i = 0; i < b.size(); ++i) {
        const double m = b.mass[i];
        m_total += m;
        d.kinetic_translational += 0.5 * m * b.vel[i].squaredNorm();
        d.potential += 0.5 * m * potential[i];
        // Spin: L = R I R^T w with I diagonal in the principal frame.
        const Mat3 rot = principal_to_inertial(b, i).toRotationMatrix();
        const Vec3 w_body = rot.transpose() * b.spin[i];
        const Vec3 l_body = b.inertia[i].cwiseProduct(w_body);
        d.kinetic_rotational += 0.5 * w_body.dot(l_body);
        spin_l += rot * l_body;
        spin_l_sum += l_body.norm();
        d.momentum += m * b.vel[i];
        d.angular_momentum += m * b.pos[i].cross(b.vel[i]);
        d.com_position += m * b.pos[i];
    }
    if (m_total > 0.0) {
        d.com_position /= m_total;
        d.com_velocity = d.momentum / m_total;
    }
    // L about the centre of mass = L_origin - M R x V (orbital part), plus spin either way.
    d.angular_momentum_com = d.angular_momentum - m_total * d.com_position.cross(d.com_velocity);
    d.angular_momentum_scale = spin_l_sum;
    for (std::size_t i = 0; i < b.size(); ++i) {
        d.angular_momentum_scale +=
            b.mass[i] * (b.pos[i] - d.com_position).norm() * (b.vel[i] - d.com_velocity).norm();
    }
    d.angular_momentum += spin_l;
    d.angular_momentum_com += spin_l;
    d.total_energy = d.kinetic_translational + d.kinetic_rotational + d.potential;
    return d;
}

double relative_energy_error(const Diagnostics& now, const Diagnostics& start) {
    if (start.total_energy == 0.0) return std::abs(now.total_energy);
    return std::abs((now.total_energy - start.total_energy) / start.total_energy);
}

double angular_momentum_error(const Diagnostics& now, const Diagnostics& start) {
    const double dl = (now.angular_momentum_com - start.angular_momentum_com).norm();
    const double ref = std::max({start.angular_momentum_com.norm(), start.angular_momentum_scale,
                                 now.angular_momentum_scale});
    return ref > 0.0 ? dl / ref : dl;
}

} // namespace rubble::integrate
