// SPDX-License-Identifier: MIT
#include "rubble/gravity/distributed_tree.hpp"

#include <cstring>
#include <deque>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "rubble/tree/walk_criteria.hpp"

namespace rubble::gravity {
namespace {

static_assert(std::is_trivially_copyable_v<WalkNode>);
static_assert(std::is_trivially_copyable_v<tree::Multipole>);

// A domain's bounding box as it travels; `empty` for a rank without points.
struct Box {
    double lo[3], hi[3];
    std::int64_t empty;
};

// Each array as its length and its values' bytes, into a buffer sized once.
template <class T> std::size_t packed_size(const std::vector<T>& v) {
    return sizeof(std::uint64_t) + v.size() * sizeof(T);
}

template <class T> void put(std::byte* out, std::size_t& at, const std::vector<T>& v) {
    const std::uint64_t n = v.size();
    std::memcpy(out + at, &n, sizeof n);
    at += sizeof n;
    if (!v.empty()) std::memcpy(out + at, v.data(), v.size() * sizeof(T));
    at += v.size() * sizeof(T);
}

template <class T> void get(std::span<const std::byte> in, std::size_t& at, std::vector<T>& v) {
    std::uint64_t n = 0;
    if (at + sizeof n > in.size()) throw std::length_error("imported tree: bytes end early");
    std::memcpy(&n, in.data() + at, sizeof n);
    at += sizeof n;
    if (n > (in.size() - at) / sizeof(T)) throw std::length_error("imported tree: bytes end early");
    v.resize(n);
    if (n > 0) std::memcpy(v.data(), in.data() + at, n * sizeof(T));
    at += n * sizeof(T);
}

} // namespace

ImportedTree essential_tree(const TreeGravity& tree, const double lo[3], const double hi[3]) {
    ImportedTree out;
    const std::vector<WalkNode>& walk = tree.walk_nodes();
    if (walk.empty()) return out;
    const tree::Octree& t = tree.tree();
    // Breadth first, so that each kept node's children are contiguous, as the walk reads them.
    std::deque<std::pair<std::int32_t, std::int32_t>> queue{{0, 0}}; // (source, destination)
    out.nodes.push_back(walk[0]);
    out.multipoles.push_back(t.multipoles()[0]);
    while (!queue.empty()) {
        const auto [from, to] = queue.front();
        queue.pop_front();
        const WalkNode& node = walk[static_cast<std::size_t>(from)];
        WalkNode& kept = out.nodes[static_cast<std::size_t>(to)];
        if (tree::box_distance2(lo, hi, node.com) > node.open2) {
            kept.child_count = 0; // accepted whole for the domain: its multipole alone
            kept.first_child = -1;
            kept.begin = kept.end = 0;
        } else if (node.child_count == 0) {
            const auto b0 = static_cast<std::size_t>(node.begin);
            const auto b1 = static_cast<std::size_t>(node.end);
            kept.begin = static_cast<std::int32_t>(out.x.size());
            out.x.insert(out.x.end(), t.x().begin() + static_cast<std::ptrdiff_t>(b0),
                         t.x().begin() + static_cast<std::ptrdiff_t>(b1));
            out.y.insert(out.y.end(), t.y().begin() + static_cast<std::ptrdiff_t>(b0),
                         t.y().begin() + static_cast<std::ptrdiff_t>(b1));
            out.z.insert(out.z.end(), t.z().begin() + static_cast<std::ptrdiff_t>(b0),
                         t.z().begin() + static_cast<std::ptrdiff_t>(b1));
            out.m.insert(out.m.end(), t.mass().begin() + static_cast<std::ptrdiff_t>(b0),
                         t.mass().begin() + static_cast<std::ptrdiff_t>(b1));
            kept.end = static_cast<std::int32_t>(out.x.size());
        } else {
            const auto first = static_cast<std::int32_t>(out.nodes.size());
            const std::int32_t count = node.child_count;
            kept.first_child = first;
            for (std::int32_t c = 0; c < count; ++c) {
                const std::int32_t child = node.first_child + c;
                out.nodes.push_back(walk[static_cast<std::size_t>(child)]);
                out.multipoles.push_back(t.multipoles()[static_cast<std::size_t>(child)]);
                queue.emplace_back(child, first + c);
            }
        }
    }
    return out;
}

std::vector<std::byte> to_bytes(const ImportedTree& t) {
    std::vector<std::byte> out(packed_size(t.nodes) + packed_size(t.multipoles) + packed_size(t.x) +
                               packed_size(t.y) + packed_size(t.z) + packed_size(t.m));
    std::size_t at = 0;
    put(out.data(), at, t.nodes);
    put(out.data(), at, t.multipoles);
    put(out.data(), at, t.x);
    put(out.data(), at, t.y);
    put(out.data(), at, t.z);
    put(out.data(), at, t.m);
    return out;
}

ImportedTree imported_tree_from_bytes(std::span<const std::byte> bytes) {
    ImportedTree t;
    std::size_t at = 0;
    get(bytes, at, t.nodes);
    get(bytes, at, t.multipoles);
    get(bytes, at, t.x);
    get(bytes, at, t.y);
    get(bytes, at, t.z);
    get(bytes, at, t.m);
    if (at != bytes.size()) throw std::length_error("imported tree: bytes run on");
    return t;
}

void TreeGravityOverRanks::compute(std::span<const Vec3> pos, std::span<const double> mass,
                                   std::span<Vec3> acc, std::span<double> potential) {
    // Checked on every rank before the exchanges, so that all refuse together.
    const bool fits =
        mass.size() == pos.size() && acc.size() == pos.size() && potential.size() == pos.size();
    if (world_.max(fits ? 0 : 1) != 0)
        throw std::invalid_argument("TreeGravityOverRanks::compute: span sizes differ on some "
                                    "rank");
    tree_.build(pos, mass);
    // Every domain's box: the bounding box of its points, the root's box of its tree.
    Box mine{};
    mine.empty = pos.empty() ? 1 : 0;
    if (!pos.empty()) {
        const tree::Node& root = tree_.tree().nodes()[0];
        for (int d = 0; d < 3; ++d) {
            mine.lo[d] = root.lo[d];
            mine.hi[d] = root.hi[d];
        }
    }
    const auto boxes = world_.all_gather_bytes(
        std::span<const std::byte>(reinterpret_cast<const std::byte*>(&mine), sizeof mine));
    const auto p = static_cast<std::size_t>(world_.size());
    std::vector<std::vector<std::byte>> to_rank(p);
    bytes_sent_ = 0;
    for (std::size_t r = 0; r < p; ++r) {
        if (static_cast<int>(r) == world_.rank() || pos.empty()) continue;
        Box theirs{};
        std::memcpy(&theirs, boxes[r].data(), sizeof theirs);
        if (theirs.empty != 0) continue;
        to_rank[r] = to_bytes(essential_tree(tree_, theirs.lo, theirs.hi));
        bytes_sent_ += to_rank[r].size();
    }
    const auto received = world_.exchange(to_rank);
    imports_.clear();
    for (const auto& bytes : received)
        if (!bytes.empty()) imports_.push_back(imported_tree_from_bytes(bytes));
    tree_.walk(imports_, acc, potential);
}

} // namespace rubble::gravity
