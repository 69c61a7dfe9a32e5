// SPDX-License-Identifier: MIT
#include "rubble/polyhedra/broad_phase.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_map>

#include <omp.h>

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

// Bodies from this many on are shared between OpenMP threads.
constexpr std::size_t parallel_bodies = 512;

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
    // The bodies sorted by cell, each cell a run of them, and each cell's 27 neighbours
    // (itself included; -1 where empty) looked up once.
    std::vector<Cell> own(n);
    for (std::size_t i = 0; i < n; ++i)
        own[i] = cell_of(pos[i]);
    std::vector<std::int32_t> order(n);
    for (std::size_t i = 0; i < n; ++i)
        order[i] = static_cast<std::int32_t>(i);
    std::sort(order.begin(), order.end(), [&](std::int32_t x, std::int32_t y) {
        const auto ux = static_cast<std::size_t>(x), uy = static_cast<std::size_t>(y);
        return own[ux] != own[uy] ? own[ux] < own[uy] : x < y;
    });
    std::vector<std::size_t> start; // cell c holds order[start[c] .. start[c + 1])
    std::vector<std::int32_t> cell_of_body(n);
    std::unordered_map<Cell, std::int32_t, CellHash> index;
    index.reserve(n);
    for (std::size_t k = 0; k < n; ++k) {
        const auto i = static_cast<std::size_t>(order[k]);
        if (k == 0 || own[i] != own[static_cast<std::size_t>(order[k - 1])]) {
            index.emplace(own[i], static_cast<std::int32_t>(start.size()));
            start.push_back(k);
        }
        cell_of_body[i] = static_cast<std::int32_t>(start.size() - 1);
    }
    const std::size_t cells = start.size();
    start.push_back(n);
    std::vector<std::int32_t> around(27 * cells);
    const bool parallel = n >= parallel_bodies;
#pragma omp parallel for schedule(static) if (parallel)
    for (std::size_t c = 0; c < cells; ++c) {
        const Cell& at = own[static_cast<std::size_t>(order[start[c]])];
        std::size_t d = 27 * c;
        for (std::int64_t dx = -1; dx <= 1; ++dx)
            for (std::int64_t dy = -1; dy <= 1; ++dy)
                for (std::int64_t dz = -1; dz <= 1; ++dz) {
                    const auto it = index.find({at[0] + dx, at[1] + dy, at[2] + dz});
                    around[d++] = it == index.end() ? -1 : it->second;
                }
    }
    // Each thread takes one block of consecutive bodies (schedule static) and lists their
    // pairs in (i, j) order, so the blocks joined in thread order are sorted.
    std::vector<std::vector<std::pair<std::int32_t, std::int32_t>>> found;
#pragma omp parallel if (parallel)
    {
#pragma omp single
        found.resize(static_cast<std::size_t>(omp_get_num_threads()));
        auto& mine = found[static_cast<std::size_t>(omp_get_thread_num())];
        std::vector<std::int32_t> partners;
#pragma omp for schedule(static)
        for (std::size_t i = 0; i < n; ++i) {
            partners.clear();
            const std::size_t d = 27 * static_cast<std::size_t>(cell_of_body[i]);
            for (std::size_t k = d; k < d + 27; ++k) {
                if (around[k] < 0) continue;
                const auto c = static_cast<std::size_t>(around[k]);
                for (std::size_t q = start[c]; q < start[c + 1]; ++q) {
                    const std::int32_t j = order[q];
                    const auto uj = static_cast<std::size_t>(j);
                    if (uj <= i) continue;
                    const double r = reach[i] + reach[uj];
                    if ((pos[i] - pos[uj]).squaredNorm() <= r * r) partners.push_back(j);
                }
            }
            std::sort(partners.begin(), partners.end());
            for (const std::int32_t j : partners)
                mine.emplace_back(static_cast<std::int32_t>(i), j);
        }
    }
    for (const auto& list : found)
        pairs.insert(pairs.end(), list.begin(), list.end());
    if (!std::is_sorted(pairs.begin(), pairs.end())) std::sort(pairs.begin(), pairs.end());
    return pairs;
}

} // namespace rubble::polyhedra
