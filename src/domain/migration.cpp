// SPDX-License-Identifier: MIT
#include "rubble/domain/migration.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <type_traits>

namespace rubble::domain {
namespace {

// Columns go as the raw bytes of their numbers: integers and doubles as they are, Eigen's
// fixed-size vectors and quaternions as their coefficients (Eigen types are not trivially
// copyable by the trait, though their storage is plain). Ranks of one job share one byte
// order and one floating-point format.
template <class T> constexpr std::size_t scalars_of() {
    if constexpr (std::is_same_v<T, Vec3>)
        return 3;
    else if constexpr (std::is_same_v<T, Quat>)
        return 4;
    else
        return 1;
}

class Writer {
public:
    void count(std::size_t n) { raw(&n, sizeof n); }
    template <class T> void column(const std::vector<T>& v) {
        count(v.size());
        if constexpr (std::is_same_v<T, Vec3> || std::is_same_v<T, Quat>) {
            for (const T& x : v) {
                if constexpr (std::is_same_v<T, Vec3>)
                    raw(x.data(), 3 * sizeof(double));
                else
                    raw(x.coeffs().data(), 4 * sizeof(double));
            }
        } else {
            static_assert(std::is_trivially_copyable_v<T>, "a field that cannot travel as bytes");
            raw(v.data(), v.size() * sizeof(T));
        }
    }
    std::vector<std::byte> bytes;

private:
    void raw(const void* p, std::size_t n) {
        const auto* b = static_cast<const std::byte*>(p);
        bytes.insert(bytes.end(), b, b + n);
    }
};

class Reader {
public:
    explicit Reader(std::span<const std::byte> bytes) : bytes_(bytes) {}
    std::size_t count() {
        std::size_t n = 0;
        raw(&n, sizeof n);
        return n;
    }
    // Appends a column as written (its length given by the packing).
    template <class T> void column(std::vector<T>& v) {
        const std::size_t n = count();
        constexpr std::size_t size =
            scalars_of<T>() * (scalars_of<T>() == 1 ? sizeof(T) : sizeof(double));
        if (n > (bytes_.size() - at_) / size)
            throw std::length_error("unpack_bodies: a column runs past the message's end");
        const std::size_t old = v.size();
        v.resize(old + n);
        for (std::size_t i = old; i < old + n; ++i) {
            if constexpr (std::is_same_v<T, Vec3>)
                raw(v[i].data(), 3 * sizeof(double));
            else if constexpr (std::is_same_v<T, Quat>)
                raw(v[i].coeffs().data(), 4 * sizeof(double));
            else
                raw(&v[i], sizeof(T));
        }
    }
    [[nodiscard]] bool done() const { return at_ == bytes_.size(); }

private:
    void raw(void* p, std::size_t n) {
        if (n > bytes_.size() - at_)
            throw std::length_error("unpack_bodies: the message ends early");
        std::memcpy(p, bytes_.data() + at_, n);
        at_ += n;
    }
    std::span<const std::byte> bytes_;
    std::size_t at_ = 0;
};

} // namespace

std::vector<std::byte> pack_bodies(const Bodies& b, std::span<const std::int64_t> order) {
    Writer w;
    for_each_column(b, [&](const auto& column) { w.column(column); });
    for_each_column(b.spheres, [&](const auto& column) { w.column(column); });
    for_each_column(b.hulls, [&](const auto& column) { w.column(column); });
    w.column(std::vector<std::int64_t>(order.begin(), order.end()));
    return std::move(w.bytes);
}

void unpack_bodies(std::span<const std::byte> bytes, Bodies& b, std::vector<std::int64_t>& order) {
    // Into a table of its own first: its links count from its own first body.
    Bodies more = b.select({});
    Reader r(bytes);
    for_each_column(more, [&](auto& column) { r.column(column); });
    for_each_column(more.spheres, [&](auto& column) { r.column(column); });
    for_each_column(more.hulls, [&](auto& column) { r.column(column); });
    std::vector<std::int64_t> more_order;
    r.column(more_order);
    if (!r.done()) throw std::length_error("unpack_bodies: bytes left after the bodies");
    if (!columns_agree(more) || !columns_agree(more.spheres) || !columns_agree(more.hulls) ||
        more_order.size() != more.size())
        throw std::length_error("unpack_bodies: columns of different lengths");
    b.append(more);
    order.insert(order.end(), more_order.begin(), more_order.end());
}

void migrate(Bodies& b, std::vector<std::int64_t>& order, std::span<const int> destination,
             core::Communicator& world, std::vector<std::int64_t>* weight) {
    const auto p = static_cast<std::size_t>(world.size());
    // Checked on every rank before the exchange, so that all refuse together.
    bool fits = destination.size() == b.size() && order.size() == b.size() &&
                (weight == nullptr || weight->size() == b.size());
    for (const int r : destination)
        fits = fits && r >= 0 && static_cast<std::size_t>(r) < p;
    if (world.max(fits ? 0 : 1) != 0)
        throw std::invalid_argument("migrate: a destination per body, each a rank, is needed");
    std::vector<std::vector<std::size_t>> rows(p);
    for (std::size_t k = 0; k < b.size(); ++k)
        rows[static_cast<std::size_t>(destination[k])].push_back(k);
    std::vector<std::vector<std::byte>> to_rank(p);
    for (std::size_t r = 0; r < p; ++r) {
        std::vector<std::int64_t> their_order;
        their_order.reserve(rows[r].size());
        for (const std::size_t k : rows[r])
            their_order.push_back(order[k]);
        to_rank[r] = pack_bodies(b.select(rows[r]), their_order);
    }
    const std::vector<std::vector<std::byte>> received = world.exchange(to_rank);
    // The weights in a message of their own beside the bodies, rows in the same order.
    std::vector<std::int64_t> arrived_weight;
    if (weight != nullptr) {
        for (std::size_t r = 0; r < p; ++r) {
            to_rank[r].resize(rows[r].size() * sizeof(std::int64_t));
            for (std::size_t i = 0; i < rows[r].size(); ++i)
                std::memcpy(to_rank[r].data() + i * sizeof(std::int64_t), &(*weight)[rows[r][i]],
                            sizeof(std::int64_t));
        }
        for (const auto& message : world.exchange(to_rank)) {
            const std::size_t at = arrived_weight.size();
            arrived_weight.resize(at + message.size() / sizeof(std::int64_t));
            if (!message.empty())
                std::memcpy(arrived_weight.data() + at, message.data(), message.size());
        }
    }
    Bodies arrived = b.select({});
    std::vector<std::int64_t> arrived_order;
    for (const auto& message : received)
        unpack_bodies(message, arrived, arrived_order);
    // Rows in serial order: the order values, ties (which a run never has) by arrival.
    std::vector<std::size_t> by_order(arrived.size());
    std::iota(by_order.begin(), by_order.end(), std::size_t{0});
    std::stable_sort(by_order.begin(), by_order.end(), [&](std::size_t x, std::size_t y) {
        return arrived_order[x] < arrived_order[y];
    });
    b = arrived.select(by_order);
    order.resize(by_order.size());
    for (std::size_t i = 0; i < by_order.size(); ++i)
        order[i] = arrived_order[by_order[i]];
    if (weight != nullptr) {
        if (arrived_weight.size() != by_order.size())
            throw std::length_error("migrate: weights and bodies arrived in different numbers");
        weight->resize(by_order.size());
        for (std::size_t i = 0; i < by_order.size(); ++i)
            (*weight)[i] = arrived_weight[by_order[i]];
    }
}

} // namespace rubble::domain
