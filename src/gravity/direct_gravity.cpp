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
    const double* xs = x_.data();
    const double* ys = y_.data();
    const double* zs = z_.data();
    const double* ms = m_.data();
    const double eps2 = eps2_;
    const auto count = static_cast<std::ptrdiff_t>(n);

#pragma omp parallel for schedule(static) if (count > 256) // no fork/join for tiny N
    for (std::ptrdiff_t i = 0; i < count; ++i) {
        double f[4];
        row_field(xs, ys, zs, ms, count, xs[i], ys[i], zs[i], eps2, f);
        acc[static_cast<std::size_t>(i)] = Vec3(G_ * f[0], G_ * f[1], G_ * f[2]);
        potential[static_cast<std::size_t>(i)] = G_ * f[3];
    }
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
    const double* xs = x_.data();
    const double* ys = y_.data();
    const double* zs = z_.data();
    const double* ms = m_.data();
    const double eps2 = eps2_;
    const auto count = static_cast<std::ptrdiff_t>(n);
    const auto rows = static_cast<std::ptrdiff_t>(targets.size());

#pragma omp parallel for schedule(static) if (rows > 256)
    for (std::ptrdiff_t t = 0; t < rows; ++t) {
        const std::size_t i = targets[static_cast<std::size_t>(t)];
        double f[4];
        row_field(xs, ys, zs, ms, count, xs[i], ys[i], zs[i], eps2, f);
        acc[static_cast<std::size_t>(t)] = Vec3(G_ * f[0], G_ * f[1], G_ * f[2]);
        potential[static_cast<std::size_t>(t)] = G_ * f[3];
    }
}

} // namespace rubble::gravity
