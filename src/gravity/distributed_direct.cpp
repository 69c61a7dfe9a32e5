// SPDX-License-Identifier: MIT
#include "rubble/gravity/distributed_direct.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <stdexcept>

namespace rubble::gravity {
namespace {

// A point as it travels: its order, position and mass (trivially copyable, one layout on every
// rank of a job).
struct Point {
    std::int64_t order;
    double x, y, z, mass;
};

} // namespace

DistributedDirectGravity::DistributedDirectGravity(double G, double softening,
                                                   core::Communicator& world)
    : direct_(G, softening), world_(world) {}

void DistributedDirectGravity::compute(std::span<const std::int64_t> order,
                                       std::span<const Vec3> pos, std::span<const double> mass,
                                       std::span<Vec3> acc, std::span<double> potential) {
    const std::size_t n = pos.size();
    // Checked on every rank before the gather, so that all refuse together rather than the
    // others waiting for a rank that left.
    const bool fits =
        order.size() == n && mass.size() == n && acc.size() == n && potential.size() == n;
    if (world_.max(fits ? 0 : 1) != 0)
        throw std::invalid_argument("DistributedDirectGravity::compute: span sizes differ on "
                                    "some rank");
    std::vector<Point> mine(n);
    for (std::size_t i = 0; i < n; ++i)
        mine[i] = Point{order[i], pos[i].x(), pos[i].y(), pos[i].z(), mass[i]};
    const auto gathered = world_.all_gather_bytes(std::span<const std::byte>(
        reinterpret_cast<const std::byte*>(mine.data()), mine.size() * sizeof(Point)));
    std::vector<Point> all;
    for (const auto& bytes : gathered) {
        const std::size_t count = bytes.size() / sizeof(Point);
        const std::size_t at = all.size();
        all.resize(at + count);
        std::memcpy(all.data() + at, bytes.data(), count * sizeof(Point));
    }
    std::sort(all.begin(), all.end(),
              [](const Point& a, const Point& b) { return a.order < b.order; });
    all_order_.resize(all.size());
    all_pos_.resize(all.size());
    all_mass_.resize(all.size());
    for (std::size_t j = 0; j < all.size(); ++j) {
        if (j > 0 && all[j].order == all[j - 1].order)
            throw std::invalid_argument("DistributedDirectGravity::compute: the order value " +
                                        std::to_string(all[j].order) + " is held twice");
        all_order_[j] = all[j].order;
        all_pos_[j] = Vec3(all[j].x, all[j].y, all[j].z);
        all_mass_[j] = all[j].mass;
    }
    std::vector<std::size_t> rows(n);
    for (std::size_t i = 0; i < n; ++i)
        rows[i] = static_cast<std::size_t>(
            std::lower_bound(all_order_.begin(), all_order_.end(), order[i]) - all_order_.begin());
    direct_.compute_rows(all_pos_, all_mass_, rows, acc, potential);
}

} // namespace rubble::gravity
