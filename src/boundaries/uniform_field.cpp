// SPDX-License-Identifier: MIT
#include "rubble/boundaries/uniform_field.hpp"

#include <cstddef>

namespace rubble::boundaries {

void add_uniform_field(const Vec3& g, std::span<const Vec3> pos, std::span<Vec3> acc,
                       std::span<double> potential) {
    for (std::size_t i = 0; i < pos.size(); ++i) {
        acc[i] += g;
        potential[i] -= 2.0 * g.dot(pos[i]);
    }
}

} // namespace rubble::boundaries
