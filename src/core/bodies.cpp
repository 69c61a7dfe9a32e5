// SPDX-License-Identifier: MIT
#include "rubble/core/bodies.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>

namespace rubble {

void Bodies::resize(std::size_t n) {
    id.resize(n);
    mass.resize(n);
    radius.resize(n);
    pos.resize(n);
    vel.resize(n);
    spin.resize(n);
    orientation.resize(n, Quat::Identity());
    inertia.resize(n);
    aggregate.resize(n, -1);
    free_path.resize(n, std::numeric_limits<double>::infinity());
}

void Bodies::reserve(std::size_t n) {
    id.reserve(n);
    mass.reserve(n);
    radius.reserve(n);
    pos.reserve(n);
    vel.reserve(n);
    spin.reserve(n);
    orientation.reserve(n);
    inertia.reserve(n);
    aggregate.reserve(n);
    free_path.reserve(n);
}

void Bodies::add_sphere(std::int64_t body_id, double body_mass, double body_radius, const Vec3& p,
                        const Vec3& v, const Vec3& w) {
    id.push_back(body_id);
    mass.push_back(body_mass);
    radius.push_back(body_radius);
    pos.push_back(p);
    vel.push_back(v);
    spin.push_back(w);
    orientation.push_back(Quat::Identity());
    inertia.push_back(Vec3::Constant(solid_sphere_inertia(body_mass, body_radius)));
    aggregate.push_back(-1);
    free_path.push_back(std::numeric_limits<double>::infinity());
}

void Bodies::check_consistent() const {
    const std::size_t n = id.size();
    if (mass.size() != n || radius.size() != n || pos.size() != n || vel.size() != n ||
        spin.size() != n || orientation.size() != n || inertia.size() != n ||
        aggregate.size() != n || free_path.size() != n) {
        throw std::logic_error("Bodies: arrays of different lengths");
    }
}

void remove_flagged(Bodies& b, const std::vector<std::uint8_t>& remove) {
    std::size_t out = 0;
    for (std::size_t i = 0; i < b.size(); ++i) {
        if (remove[i]) continue;
        if (out != i) {
            b.id[out] = b.id[i];
            b.mass[out] = b.mass[i];
            b.radius[out] = b.radius[i];
            b.pos[out] = b.pos[i];
            b.vel[out] = b.vel[i];
            b.spin[out] = b.spin[i];
            b.orientation[out] = b.orientation[i];
            b.inertia[out] = b.inertia[i];
            b.aggregate[out] = b.aggregate[i];
            b.free_path[out] = b.free_path[i];
        }
        ++out;
    }
    b.resize(out);
}

double total_mass(const Bodies& b) {
    double m = 0.0;
    for (double mi : b.mass)
        m += mi;
    return m;
}

double max_density(const Bodies& b) {
    double rho = 0.0;
    for (std::size_t i = 0; i < b.size(); ++i) {
        if (b.radius[i] > 0.0) rho = std::max(rho, b.mass[i] / sphere_mass(1.0, b.radius[i]));
    }
    return rho;
}

std::optional<NonFiniteValue> first_non_finite(const Bodies& b) {
    const auto count = static_cast<std::ptrdiff_t>(b.size());
    // The smallest bad index, found in parallel (the common answer, none, reads every body once).
    std::ptrdiff_t first = count;
#pragma omp parallel for schedule(static) reduction(min : first)
    for (std::ptrdiff_t k = 0; k < count; ++k) {
        const auto i = static_cast<std::size_t>(k);
        const bool finite = std::isfinite(b.mass[i]) && std::isfinite(b.radius[i]) &&
                            b.pos[i].allFinite() && b.vel[i].allFinite() && b.spin[i].allFinite() &&
                            b.orientation[i].coeffs().allFinite() && b.inertia[i].allFinite();
        if (!finite) first = std::min(first, k);
    }
    if (first == count) return std::nullopt;
    const auto i = static_cast<std::size_t>(first);
    const char* field = !std::isfinite(b.mass[i])                ? "mass"
                        : !std::isfinite(b.radius[i])            ? "radius"
                        : !b.pos[i].allFinite()                  ? "position"
                        : !b.vel[i].allFinite()                  ? "velocity"
                        : !b.spin[i].allFinite()                 ? "spin"
                        : !b.orientation[i].coeffs().allFinite() ? "orientation"
                                                                 : "inertia";
    return NonFiniteValue{i, field};
}

void move_to_centre_of_mass_frame(Bodies& b) {
    const double m = total_mass(b);
    if (b.empty() || m <= 0.0) return;
    Vec3 r = Vec3::Zero();
    Vec3 v = Vec3::Zero();
    for (std::size_t i = 0; i < b.size(); ++i) {
        r += b.mass[i] * b.pos[i];
        v += b.mass[i] * b.vel[i];
    }
    r /= m;
    v /= m;
    for (std::size_t i = 0; i < b.size(); ++i) {
        b.pos[i] -= r;
        b.vel[i] -= v;
    }
}

} // namespace rubble
