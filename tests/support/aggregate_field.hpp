// SPDX-License-Identifier: MIT
#pragma once
// Forces and torques on rigid aggregates from one gravity backend against another (tree or GPU
// against direct summation), through Simulation's own sum over each body's spheres.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <numeric>
#include <vector>

#include "rubble/core/rigid_body.hpp"
#include "rubble/gravity/accuracy.hpp"
#include "rubble/integrate/simulation.hpp"

namespace rubble::test {

/// Per-body relative errors of the centre-of-mass accelerations and of the torques.
struct AggregateFieldErrors {
    double force_median = 0, force_max = 0;   ///< |a - a_ref| / (sum_k m_k |a_k| / M)
    double torque_median = 0, torque_max = 0; ///< |N - N_ref| / sum_k m_k |rho_k| |a_k|
};

/// Errors of `got` against `ref` on the same bodies, each against the scale a relative error e
/// on every sphere's acceleration a_k (exact, direct sum) could move it by: the body's
/// acceleration by at most e sum_k m_k |a_k| / M, its torque by e sum_k m_k |rho_k| |a_k|.
/// Those scales include the spheres' attraction by the other spheres of their own body, which
/// cancels in the exact force and torque but not in a tree's (its forces are not pairwise
/// opposite), so a body's net force or torque may be far smaller than them, even zero. Bodies
/// of one sphere have no torque and are left out of the torque errors.
inline AggregateFieldErrors aggregate_field_errors(const integrate::Simulation& got,
                                                   const integrate::Simulation& ref, double G) {
    const Bodies& b = ref.bodies();
    const std::size_t m = b.spheres.size();
    std::vector<Vec3> points(m);
    for (std::size_t k = 0; k < m; ++k)
        points[k] = sphere_centre(b, k);
    std::vector<std::size_t> all(m);
    std::iota(all.begin(), all.end(), std::size_t{0});
    const std::vector<Vec3> a = gravity::direct_accelerations(points, b.spheres.mass, G, 0.0, all);
    std::vector<double> scale(b.size(), 0.0), force_scale(b.size(), 0.0);
    std::vector<int> count(b.size(), 0);
    for (std::size_t k = 0; k < m; ++k) {
        const auto i = static_cast<std::size_t>(b.spheres.body[k]);
        scale[i] += b.spheres.mass[k] * (points[k] - b.pos[i]).norm() * a[k].norm();
        force_scale[i] += b.spheres.mass[k] * a[k].norm() / b.mass[i];
        ++count[i];
    }
    std::vector<double> force, torque;
    for (std::size_t i = 0; i < b.size(); ++i) {
        force.push_back((got.accelerations()[i] - ref.accelerations()[i]).norm() / force_scale[i]);
        if (count[i] > 1) torque.push_back((got.torques()[i] - ref.torques()[i]).norm() / scale[i]);
    }
    std::sort(force.begin(), force.end());
    std::sort(torque.begin(), torque.end());
    const auto median = [](const std::vector<double>& v) {
        return v.empty() ? 0.0 : v[v.size() / 2];
    };
    const auto max = [](const std::vector<double>& v) { return v.empty() ? 0.0 : v.back(); };
    return {median(force), max(force), median(torque), max(torque)};
}

} // namespace rubble::test
