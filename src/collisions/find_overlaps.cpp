// SPDX-License-Identifier: MIT
#include "rubble/collisions/find_overlaps.hpp"

#include <algorithm>
#include <cstddef>

#include "rubble/boundaries/periodic.hpp"

namespace rubble::collisions {
namespace {

// Neighbourhood margin of the lists built only to find overlaps: any margin finds every
// overlapping pair (their spheres meet, so their neighbourhoods do); a thin one keeps the
// lists short.
constexpr double search_skin = 1e-3;

} // namespace

std::vector<Overlap> find_overlaps(const Bodies& b, const NeighbourLists& lists, double tolerance) {
    std::vector<Overlap> out;
    const double box = lists.box();
    const auto n = static_cast<std::ptrdiff_t>(b.size());
#pragma omp parallel
    {
        std::vector<Overlap> mine;
#pragma omp for schedule(static) nowait
        for (std::ptrdiff_t k = 0; k < n; ++k) {
            const auto si = static_cast<std::int32_t>(k);
            const auto i = static_cast<std::size_t>(k);
            lists.for_each_neighbour(si, [&](std::int32_t nj, std::int8_t image) {
                if (nj < si) return; // each pair once
                const auto j = static_cast<std::size_t>(nj);
                const Vec3 s = box > 0.0 ? boundaries::image_shift(image, box) : Vec3::Zero();
                const double sigma = b.radius[i] + b.radius[j];
                const double depth = sigma - (b.pos[j] + s - b.pos[i]).norm();
                if (depth > tolerance * sigma) mine.push_back(Overlap{si, nj, s, depth});
            });
        }
#pragma omp critical
        out.insert(out.end(), mine.begin(), mine.end());
    }
    // In pair order whatever the threads did.
    std::sort(out.begin(), out.end(), [](const Overlap& x, const Overlap& y) {
        return x.i != y.i ? x.i < y.i : x.j < y.j;
    });
    return out;
}

std::vector<Overlap> find_overlaps(const Bodies& b, double tolerance) {
    if (b.empty()) return {};
    NeighbourLists lists;
    lists.rebuild(b, search_skin, 0.0);
    return find_overlaps(b, lists, tolerance);
}

double largest_relative_depth(const Bodies& b, const std::vector<Overlap>& overlaps) {
    double largest = 0.0;
    for (const Overlap& o : overlaps)
        largest = std::max(largest, o.depth / (b.radius[static_cast<std::size_t>(o.i)] +
                                               b.radius[static_cast<std::size_t>(o.j)]));
    return largest;
}

} // namespace rubble::collisions
