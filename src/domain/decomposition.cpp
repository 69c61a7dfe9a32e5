// SPDX-License-Identifier: MIT
#include "rubble/domain/decomposition.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

#include "rubble/core/error.hpp"
#include "rubble/tree/morton.hpp"

namespace rubble::domain {
namespace {

constexpr std::uint64_t key_end = std::uint64_t{1} << (3 * tree::morton_levels);
constexpr double cells_per_axis = static_cast<double>(1u << tree::morton_levels);

// The cube of keys: the bounding box of every rank's bodies (exact: a min and a max), its
// longest edge widened by a part in 1e12 so that the highest body falls inside the last cell.
void bounding_cube(std::span<const Vec3> pos, core::Communicator& world, Decomposition& d) {
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> lo{inf, inf, inf}, hi{-inf, -inf, -inf};
    for (const Vec3& p : pos) {
        for (int a = 0; a < 3; ++a) {
            lo[static_cast<std::size_t>(a)] = std::min(lo[static_cast<std::size_t>(a)], p[a]);
            hi[static_cast<std::size_t>(a)] = std::max(hi[static_cast<std::size_t>(a)], p[a]);
        }
    }
    world.min_in_place(lo);
    world.max_in_place(hi);
    if (!(lo[0] <= hi[0])) return; // no bodies anywhere: the unit cube at the origin
    double side = 0.0;
    for (int a = 0; a < 3; ++a)
        side = std::max(side, hi[static_cast<std::size_t>(a)] - lo[static_cast<std::size_t>(a)]);
    const double scale = std::max({std::abs(lo[0]), std::abs(lo[1]), std::abs(lo[2]),
                                   std::abs(hi[0]), std::abs(hi[1]), std::abs(hi[2])});
    d.origin = Vec3(lo[0], lo[1], lo[2]);
    d.side = side > 0.0 ? side * (1.0 + 1e-12) + 1e-12 * scale : std::max(scale, 1.0);
}

} // namespace

std::uint64_t Decomposition::key_of(const Vec3& p) const {
    std::uint32_t cell[3];
    for (int a = 0; a < 3; ++a) {
        const double x = std::floor((p[a] - origin[a]) / side * cells_per_axis);
        cell[a] = static_cast<std::uint32_t>(std::clamp(x, 0.0, cells_per_axis - 1.0));
    }
    return tree::morton_key(cell[0], cell[1], cell[2]);
}

int Decomposition::owner_of_key(std::uint64_t key) const {
    const auto after = std::upper_bound(first_key.begin(), first_key.end(), key);
    return static_cast<int>(after - first_key.begin()) - 1;
}

Decomposition decompose(std::span<const Vec3> pos, std::span<const std::int64_t> weight,
                        core::Communicator& world) {
    // Bad input on one rank is refused on every rank, after a collective that all ranks
    // enter: a rank that threw alone would leave the others waiting in the next one.
    std::int64_t bad = weight.size() == pos.size() ? 0 : 1;
    for (const Vec3& p : pos)
        bad = std::max<std::int64_t>(bad, p.allFinite() ? 0 : 2);
    for (const std::int64_t w : weight)
        bad = std::max<std::int64_t>(bad, w < 0 ? 3 : 0);
    switch (world.max(bad)) {
    case 1:
        throw std::invalid_argument("domain decomposition: one weight per body is needed");
    case 2:
        throw InputError("domain decomposition: a body at a non-finite position");
    case 3:
        throw InputError("domain decomposition: a body of negative weight");
    default:
        break;
    }
    Decomposition d;
    bounding_cube(pos, world, d);
    const bool counted =
        world.sum(std::accumulate(weight.begin(), weight.end(), std::int64_t{0})) == 0;
    const auto weight_of = [&](std::size_t i) { return counted ? std::int64_t{1} : weight[i]; };

    // This rank's keys in curve order, with the weight before each (prefix sums).
    std::vector<std::uint64_t> key(pos.size());
    for (std::size_t i = 0; i < pos.size(); ++i)
        key[i] = d.key_of(pos[i]);
    std::vector<std::size_t> order(pos.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return key[a] < key[b] || (key[a] == key[b] && a < b);
    });
    std::vector<std::uint64_t> sorted(pos.size());
    std::vector<std::int64_t> before(pos.size() + 1, 0);
    for (std::size_t j = 0; j < order.size(); ++j) {
        sorted[j] = key[order[j]];
        before[j + 1] = before[j] + weight_of(order[j]);
    }
    // The weight of this rank's bodies with keys below k.
    const auto local_below = [&](std::uint64_t k) {
        return before[static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), k) -
                                               sorted.begin())];
    };
    d.total_weight = world.sum(before.back());

    // Cut j (1 to P-1) is the smallest key whose predecessors weigh at least total j / P: the
    // largest key below which they weigh less, plus one, found bit by bit.
    const auto p = static_cast<std::size_t>(world.size());
    std::vector<std::int64_t> target(p + 1);
    const auto ranks = static_cast<std::int64_t>(p);
    const std::int64_t whole = d.total_weight / ranks, rest = d.total_weight % ranks;
    for (std::size_t j = 0; j <= p; ++j) // floor(total j / P) without overflow
        target[j] =
            whole * static_cast<std::int64_t>(j) + rest * static_cast<std::int64_t>(j) / ranks;
    std::vector<std::uint64_t> below(p + 1, 0); // the largest key found so far, per cut
    std::vector<std::int64_t> trial(p + 1);
    for (int bit = 3 * tree::morton_levels - 1; bit >= 0; --bit) {
        for (std::size_t j = 1; j < p; ++j)
            trial[j] = local_below(below[j] | (std::uint64_t{1} << bit));
        world.sum_in_place(trial);
        for (std::size_t j = 1; j < p; ++j) {
            if (trial[j] < target[j]) below[j] |= std::uint64_t{1} << bit;
        }
    }
    d.first_key.assign(p + 1, 0);
    d.first_key[p] = key_end;
    for (std::size_t j = 1; j < p; ++j)
        d.first_key[j] = target[j] == 0 ? 0 : below[j] + 1;

    std::vector<std::int64_t> owned(p, 0);
    for (std::size_t j = 0; j < order.size(); ++j)
        owned[static_cast<std::size_t>(d.owner_of_key(sorted[j]))] += weight_of(order[j]);
    world.sum_in_place(owned);
    d.weight = std::move(owned);
    return d;
}

} // namespace rubble::domain
