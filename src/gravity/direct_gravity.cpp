// SPDX-License-Identifier: MIT
#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/gravity/pair_kernel.hpp"

#include <cmath>
#include <cstddef>
#include <stdexcept>

namespace rubble::gravity {
namespace {

// Field (without G) at (xi, yi, zi) of all n bodies, in index order: one row of the direct
// sum, compiled per instruction set.
RUBBLE_TARGET_CLONES
void row_field(const double* xs, const double* ys, const double* zs, const double* ms,
               std::ptrdiff_t n, double xi, double yi, double zi, double eps2, double* out) {
    double ax = 0.0, ay = 0.0, az = 0.0, phi = 0.0;
#pragma omp simd reduction(+ : ax, ay, az, phi)
    for (std::ptrdiff_t j = 0; j < n; ++j)
        add_body_field(xs[j] - xi, ys[j] - yi, zs[j] - zi, ms[j], eps2, ax, ay, az, phi);
    out[0] = ax;
    out[1] = ay;
    out[2] = az;
    out[3] = phi;
}

// acc[t] and potential[t] at point target(t), for t < rows, from all n loaded points: the one
// loop of the direct sum, for every target (compute) or some (compute_rows), so both give
// each target the same bits.
template <class Target>
void field_rows(const std::vector<double>& x, const std::vector<double>& y,
                const std::vector<double>& z, const std::vector<double>& m, double eps2, double G,
                std::ptrdiff_t rows, Target target, std::span<Vec3> acc,
                std::span<double> potential) {
    const auto count = static_cast<std::ptrdiff_t>(x.size());
#pragma omp parallel for schedule(static) if (rows > 256) // no fork/join for tiny N
    for (std::ptrdiff_t t = 0; t < rows; ++t) {
        const std::size_t i = target(t);
        double f[4];
        row_field(x.data(), y.data(), z.data(), m.data(), count, x[i], y[i], z[i], eps2, f);
        acc[static_cast<std::size_t>(t)] = Vec3(G * f[0], G * f[1], G * f[2]);
        potential[static_cast<std::size_t>(t)] = G * f[3];
    }
}

} // namespace

DirectGravity::DirectGravity(double G, double softening) : G_(G), eps2_(softening * softening) {}

void DirectGravity::load(std::span<const Vec3> pos, std::span<const double> mass) {
    const std::size_t n = pos.size();
    x_.resize(n);
    y_.resize(n);
    z_.resize(n);
    m_.resize(n);
    for (std::size_t j = 0; j < n; ++j) {
        x_[j] = pos[j].x();
        y_[j] = pos[j].y();
        z_[j] = pos[j].z();
        m_[j] = mass[j];
    }
}

void DirectGravity::compute(std::span<const Vec3> pos, std::span<const double> mass,
                            std::span<Vec3> acc, std::span<double> potential) {
    const std::size_t n = pos.size();
    if (mass.size() != n || acc.size() != n || potential.size() != n) {
        throw std::invalid_argument("DirectGravity::compute: span sizes differ");
    }
    load(pos, mass);
    field_rows(
        x_, y_, z_, m_, eps2_, G_, static_cast<std::ptrdiff_t>(n),
        [](std::ptrdiff_t t) { return static_cast<std::size_t>(t); }, acc, potential);
}

void DirectGravity::compute_rows(std::span<const Vec3> pos, std::span<const double> mass,
                                 std::span<const std::size_t> targets, std::span<Vec3> acc,
                                 std::span<double> potential) {
    const std::size_t n = pos.size();
    if (mass.size() != n || acc.size() != targets.size() || potential.size() != targets.size())
        throw std::invalid_argument("DirectGravity::compute_rows: span sizes differ");
    for (const std::size_t i : targets) {
        if (i >= n) throw std::invalid_argument("DirectGravity::compute_rows: target out of range");
    }
    load(pos, mass);
    field_rows(
        x_, y_, z_, m_, eps2_, G_, static_cast<std::ptrdiff_t>(targets.size()),
        [&](std::ptrdiff_t t) { return targets[static_cast<std::size_t>(t)]; }, acc, potential);
}

} // namespace rubble::gravity
