// SPDX-License-Identifier: MIT
#include "rubble/domain/root_transfer.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <numeric>
#include <stdexcept>

#include "rubble/domain/decomposition.hpp"
#include "rubble/domain/migration.hpp"

namespace rubble::domain {

namespace {

// Rank 0's hull shapes on every rank: per shape its vertices and triangles.
void share_hull_shapes(Bodies& b, core::Communicator& world) {
    std::vector<double> packed;
    if (world.rank() == 0) {
        packed.push_back(static_cast<double>(b.hull_shapes().size()));
        for (const shapes::Polyhedron& p : b.hull_shapes()) {
            packed.push_back(static_cast<double>(p.hull.vertices.size()));
            for (const Vec3& v : p.hull.vertices)
                packed.insert(packed.end(), {v.x(), v.y(), v.z()});
            packed.push_back(static_cast<double>(p.hull.faces.size()));
            for (const auto& f : p.hull.faces)
                packed.insert(packed.end(), {static_cast<double>(f[0]), static_cast<double>(f[1]),
                                             static_cast<double>(f[2])});
        }
    }
    const auto all = world.all_gather_bytes(std::span<const std::byte>(
        reinterpret_cast<const std::byte*>(packed.data()), packed.size() * sizeof(double)));
    if (world.rank() == 0) return;
    std::vector<double> v(all[0].size() / sizeof(double));
    std::memcpy(v.data(), all[0].data(), all[0].size());
    std::size_t at = 0;
    const auto next = [&] { return v.at(at++); };
    HullShapes shapes(static_cast<std::size_t>(next()));
    for (shapes::Polyhedron& shape : shapes) {
        std::vector<Vec3> vertices(static_cast<std::size_t>(next()));
        for (Vec3& x : vertices) {
            const double a = next(), c = next(), d = next();
            x = Vec3(a, c, d);
        }
        std::vector<std::array<int, 3>> triangles(static_cast<std::size_t>(next()));
        for (auto& t : triangles)
            for (int& k : t)
                k = static_cast<int>(next());
        shape = shapes::polyhedron_from_faces(std::move(vertices), std::move(triangles));
    }
    if (!shapes.empty()) b.set_hull_shapes(std::move(shapes));
}

} // namespace

std::vector<std::int64_t> scatter_from_root(Bodies& b, core::Communicator& world,
                                            std::vector<std::int64_t>* weight) {
    share_hull_shapes(b, world);
    std::vector<std::int64_t> order(b.size());
    std::iota(order.begin(), order.end(), std::int64_t{0});
    redistribute(b, order, world, weight);
    return order;
}

void redistribute(Bodies& b, std::vector<std::int64_t>& order, core::Communicator& world,
                  std::vector<std::int64_t>* weight) {
    const std::vector<std::int64_t> unit(weight == nullptr ? b.size() : 0, 1);
    const Decomposition d = decompose(b.pos, weight == nullptr ? unit : *weight, world);
    std::vector<int> to(b.size());
    for (std::size_t k = 0; k < b.size(); ++k)
        to[k] = d.owner(b.pos[k]);
    migrate(b, order, to, world, weight);
}

Bodies gather_to_root(const Bodies& b, std::span<const std::int64_t> order,
                      core::Communicator& world, std::vector<std::int64_t>* weight) {
    Bodies all = b;
    std::vector<std::int64_t> all_order(order.begin(), order.end());
    const std::vector<int> to_root(b.size(), 0);
    migrate(all, all_order, to_root, world, weight);
    return all;
}

std::vector<double> gather_values_to_root(std::span<const double> values, std::size_t width,
                                          std::span<const std::int64_t> order,
                                          core::Communicator& world) {
    const std::size_t n = order.size();
    if (world.max(width > 0 && values.size() == width * n ? 0 : 1) != 0)
        throw std::invalid_argument("gather_values_to_root: `width` values per body are needed");
    // Each row as its order value and its values, one message to rank 0.
    const std::size_t row_bytes = sizeof(std::int64_t) + width * sizeof(double);
    std::vector<std::vector<std::byte>> to_rank(static_cast<std::size_t>(world.size()));
    std::vector<std::byte>& mine = to_rank[0];
    mine.resize(n * row_bytes);
    for (std::size_t k = 0; k < n; ++k) {
        std::byte* row = mine.data() + k * row_bytes;
        std::memcpy(row, &order[k], sizeof(std::int64_t));
        std::memcpy(row + sizeof(std::int64_t), values.data() + k * width, width * sizeof(double));
    }
    const auto received = world.exchange(to_rank);
    if (world.rank() != 0) return {};
    std::vector<std::int64_t> all_order;
    std::vector<double> all_values;
    for (const auto& message : received) {
        const std::size_t rows = message.size() / row_bytes;
        for (std::size_t k = 0; k < rows; ++k) {
            const std::byte* row = message.data() + k * row_bytes;
            std::int64_t o = 0;
            std::memcpy(&o, row, sizeof o);
            all_order.push_back(o);
            const std::size_t at = all_values.size();
            all_values.resize(at + width);
            std::memcpy(all_values.data() + at, row + sizeof(std::int64_t), width * sizeof(double));
        }
    }
    std::vector<std::size_t> by_order(all_order.size());
    std::iota(by_order.begin(), by_order.end(), std::size_t{0});
    std::stable_sort(by_order.begin(), by_order.end(),
                     [&](std::size_t x, std::size_t y) { return all_order[x] < all_order[y]; });
    std::vector<double> sorted(all_values.size());
    for (std::size_t k = 0; k < by_order.size(); ++k)
        std::copy_n(all_values.begin() + static_cast<std::ptrdiff_t>(by_order[k] * width), width,
                    sorted.begin() + static_cast<std::ptrdiff_t>(k * width));
    return sorted;
}

} // namespace rubble::domain
