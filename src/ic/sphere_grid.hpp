// SPDX-License-Identifier: MIT
#pragma once
// Uniform hash grid for overlap tests between spheres of radius <= cell/2. Cells are keyed by
// packed integer coordinates; distant cells may share a key, which only adds candidates that
// the caller rejects by distance, so it is always correct. Internal to src/ic.
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "rubble/core/types.hpp"

namespace rubble::ic {

class SphereGrid {
public:
    explicit SphereGrid(double cell) : inv_cell_(1.0 / cell) {}

    void insert(std::size_t index, const Vec3& p) {
        if (next_.size() <= index) next_.resize(index + 1, -1);
        auto [it, fresh] = head_.try_emplace(key(cell_of(p)), -1);
        next_[index] = it->second;
        it->second = static_cast<std::int64_t>(index);
        (void)fresh;
    }

    /// Calls f(index) for every inserted index in the 27 cells around p.
    template <class F> void for_each_near(const Vec3& p, F&& f) const {
        const Cell c = cell_of(p);
        for (std::int64_t dx = -1; dx <= 1; ++dx)
            for (std::int64_t dy = -1; dy <= 1; ++dy)
                for (std::int64_t dz = -1; dz <= 1; ++dz) {
                    const auto it = head_.find(key({c.x + dx, c.y + dy, c.z + dz}));
                    if (it == head_.end()) continue;
                    for (std::int64_t i = it->second; i >= 0;
                         i = next_[static_cast<std::size_t>(i)])
                        f(static_cast<std::size_t>(i));
                }
    }

private:
    struct Cell {
        std::int64_t x, y, z;
    };
    Cell cell_of(const Vec3& p) const {
        return {static_cast<std::int64_t>(std::floor(p.x() * inv_cell_)),
                static_cast<std::int64_t>(std::floor(p.y() * inv_cell_)),
                static_cast<std::int64_t>(std::floor(p.z() * inv_cell_))};
    }
    static std::uint64_t key(const Cell& c) {
        constexpr std::uint64_t mask = (std::uint64_t{1} << 21) - 1;
        return (static_cast<std::uint64_t>(c.x) & mask) |
               ((static_cast<std::uint64_t>(c.y) & mask) << 21) |
               ((static_cast<std::uint64_t>(c.z) & mask) << 42);
    }
    double inv_cell_;
    std::unordered_map<std::uint64_t, std::int64_t> head_;
    std::vector<std::int64_t> next_;
};

} // namespace rubble::ic
