// SPDX-License-Identifier: MIT
#include "rubble/polyhedra/broad_phase.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_map>

namespace rubble::polyhedra {
namespace {

using Cell = std::array<std::int64_t, 3>;

struct CellHash {
    std::size_t operator()(const Cell& c) const {
        // Large odd multipliers mix the three coordinates (Teschner et al. 2003), in unsigned
        // arithmetic, which wraps instead of overflowing.
        const auto u = [](std::int64_t k) { return static_cast<std::uint64_t>(k); };
        return static_cast<std::size_t>(u(c[0]) * 73856093ULL ^ u(c[1]) * 19349663ULL ^
                                        u(c[2]) * 83492791ULL);
    }
};

} // namespace

std::vector<std::pair<std::int32_t, std::int32_t>> sphere_pairs(std::span<const Vec3> pos,
                                                                std::span<const double> reach) {
    const std::size_t n = pos.size();
    std::vector<std::pair<std::int32_t, std::int32_t>> pairs;
    if (n < 2) return pairs;
    double widest = 0.0;
    for (double r : reach)
        widest = std::max(widest, r);
    // Cells at least one diameter wide: spheres that meet have centres in adjacent cells. A
    // floor on the width keeps the cell coordinates of far bodies within int64 (|x| / width
    // below 2^62 for |x| up to 1e300 m would need width > 1e281 m; bodies that far apart are
    // refused by the caller's finite checks long before).
    const double width = std::max(2.0 * widest, 1e-300);
    const auto cell_of = [&](const Vec3& x) {
        Cell c{};
        for (int a = 0; a < 3; ++a) {
            const double k = std::floor(x[a] / width);
            c[static_cast<std::size_t>(a)] = static_cast<std::int64_t>(
                std::clamp(k, -4.0e18, 4.0e18)); // beyond: all far bodies share an edge cell
        }
        return c;
    };
    std::unordered_map<Cell, std::vector<std::int32_t>, CellHash> cells;
    cells.reserve(n);
    std::vector<Cell> own(n);
    for (std::size_t i = 0; i < n; ++i) {
        own[i] = cell_of(pos[i]);
        cells[own[i]].push_back(static_cast<std::int32_t>(i));
    }
    for (std::size_t i = 0; i < n; ++i) {
        const Cell& c = own[i];
        for (int dx = -1; dx <= 1; ++dx)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dz = -1; dz <= 1; ++dz) {
                    const auto it = cells.find({c[0] + dx, c[1] + dy, c[2] + dz});
                    if (it == cells.end()) continue;
                    for (const std::int32_t j : it->second) {
                        const auto uj = static_cast<std::size_t>(j);
                        if (uj <= i) continue;
                        const double r = reach[i] + reach[uj];
                        if ((pos[i] - pos[uj]).squaredNorm() <= r * r)
                            pairs.emplace_back(static_cast<std::int32_t>(i), j);
                    }
                }
    }
    std::sort(pairs.begin(), pairs.end());
    return pairs;
}

} // namespace rubble::polyhedra
