// SPDX-License-Identifier: MIT
#include "rubble/gravity/accuracy.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "rubble/core/random.hpp"

namespace rubble::gravity {

std::vector<Vec3> direct_accelerations(std::span<const Vec3> pos, std::span<const double> mass,
                                       double G, double softening,
                                       std::span<const std::size_t> targets) {
    std::vector<Vec3> out(targets.size());
    const double eps2 = softening * softening;
    const auto count = static_cast<std::ptrdiff_t>(targets.size());
#pragma omp parallel for schedule(dynamic, 8)
    for (std::ptrdiff_t t = 0; t < count; ++t) {
        const std::size_t i = targets[static_cast<std::size_t>(t)];
        Vec3 a = Vec3::Zero();
        for (std::size_t j = 0; j < pos.size(); ++j) {
            const Vec3 d = pos[j] - pos[i];
            const double d2 = d.squaredNorm();
            if (d2 == 0.0) continue;
            const double r2 = d2 + eps2;
            a += mass[j] / (r2 * std::sqrt(r2)) * d;
        }
        out[static_cast<std::size_t>(t)] = G * a;
    }
    return out;
}

ErrorPercentiles check_against_direct(std::span<const Vec3> pos, std::span<const double> mass,
                                      std::span<const Vec3> acc, double G, double softening,
                                      std::size_t samples, std::uint64_t seed) {
    std::vector<std::size_t> targets(pos.size());
    std::iota(targets.begin(), targets.end(), std::size_t{0});
    if (samples < pos.size()) {
        Rng rng(seed); // partial Fisher-Yates: the first `samples` entries are the draw
        for (std::size_t k = 0; k < samples; ++k) {
            const auto pick =
                k + static_cast<std::size_t>(rng.uniform() * static_cast<double>(pos.size() - k));
            std::swap(targets[k], targets[std::min(pick, pos.size() - 1)]);
        }
        targets.resize(samples);
    }
    const std::vector<Vec3> exact = direct_accelerations(pos, mass, G, softening, targets);
    std::vector<double> err;
    err.reserve(targets.size());
    for (std::size_t k = 0; k < targets.size(); ++k) {
        const double norm = exact[k].norm();
        if (norm > 0.0) err.push_back((acc[targets[k]] - exact[k]).norm() / norm);
    }
    ErrorPercentiles r;
    r.samples = err.size();
    if (err.empty()) return r;
    std::sort(err.begin(), err.end());
    const auto at = [&](double q) {
        return err[std::min(err.size() - 1,
                            static_cast<std::size_t>(q * static_cast<double>(err.size())))];
    };
    r.median = at(0.5);
    r.p99 = at(0.99);
    r.max = err.back();
    return r;
}

} // namespace rubble::gravity
