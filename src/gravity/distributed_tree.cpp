// SPDX-License-Identifier: MIT
#include "rubble/gravity/distributed_tree.hpp"

#include <algorithm>
#include <cstring>
#include <deque>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "rubble/tree/walk_criteria.hpp"

namespace rubble::gravity {
namespace {

static_assert(std::is_trivially_copyable_v<WalkNode>);
static_assert(std::is_trivially_copyable_v<tree::Multipole>);

static_assert(std::is_trivially_copyable_v<DomainBox>);

// The squared distance from p to the nearest of the boxes.
double nearest_box_distance2(std::span<const DomainBox> boxes, const double* p) {
    double d2 = std::numeric_limits<double>::infinity();
    for (const DomainBox& b : boxes)
        d2 = std::min(d2, tree::box_distance2(b.lo, b.hi, p));
    return d2;
}

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

std::vector<DomainBox> domain_boxes(const TreeGravity& tree, std::size_t most) {
    const std::vector<tree::Node>& nodes = tree.tree().nodes();
    if (tree.walk_nodes().empty() || nodes.empty()) return {};
    const auto splittable = [&](std::int32_t k) {
        const tree::Node& n = nodes[static_cast<std::size_t>(k)];
        return !n.leaf() && n.count() > tree.group_size();
    };
    // Largest first (ties by index: the same frontier on every machine).
    const auto smaller = [&](std::int32_t a, std::int32_t b) {
        const auto ca = nodes[static_cast<std::size_t>(a)].count();
        const auto cb = nodes[static_cast<std::size_t>(b)].count();
        return ca != cb ? ca < cb : a > b;
    };
    std::vector<std::int32_t> frontier{0}, open; // open: splittable frontier nodes, a heap
    if (splittable(0)) open.push_back(0);
    while (!open.empty()) {
        const tree::Node& n = nodes[static_cast<std::size_t>(open.front())];
        if (frontier.size() - 1 + static_cast<std::size_t>(n.child_count) > most) break;
        std::pop_heap(open.begin(), open.end(), smaller);
        const std::int32_t k = open.back();
        open.pop_back();
        std::erase(frontier, k);
        for (std::int32_t c = n.first_child; c < n.first_child + n.child_count; ++c) {
            frontier.push_back(c);
            if (splittable(c)) {
                open.push_back(c);
                std::push_heap(open.begin(), open.end(), smaller);
            }
        }
    }
    std::vector<DomainBox> out;
    out.reserve(frontier.size());
    for (const std::int32_t k : frontier) {
        const tree::Node& n = nodes[static_cast<std::size_t>(k)];
        DomainBox b{};
        for (int d = 0; d < 3; ++d) {
            b.lo[d] = n.lo[d];
            b.hi[d] = n.hi[d];
        }
        out.push_back(b);
    }
    return out;
}

ImportedTree essential_tree(const TreeGravity& tree, std::span<const DomainBox> boxes) {
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
        if (nearest_box_distance2(boxes, node.com) > node.open2) {
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
    // Every domain as a few boxes around its points (none for a rank without points).
    const std::vector<DomainBox> mine = domain_boxes(tree_, boxes_per_domain);
    const auto boxes = world_.all_gather_bytes(std::span<const std::byte>(
        reinterpret_cast<const std::byte*>(mine.data()), mine.size() * sizeof(DomainBox)));
    const auto p = static_cast<std::size_t>(world_.size());
    std::vector<std::vector<std::byte>> to_rank(p);
    bytes_sent_ = 0;
    for (std::size_t r = 0; r < p; ++r) {
        if (static_cast<int>(r) == world_.rank() || pos.empty() || boxes[r].empty()) continue;
        std::vector<DomainBox> theirs(boxes[r].size() / sizeof(DomainBox));
        std::memcpy(theirs.data(), boxes[r].data(), theirs.size() * sizeof(DomainBox));
        to_rank[r] = to_bytes(essential_tree(tree_, theirs));
        bytes_sent_ += to_rank[r].size();
    }
    const auto received = world_.exchange(to_rank);
    imports_.clear();
    for (const auto& bytes : received)
        if (!bytes.empty()) imports_.push_back(imported_tree_from_bytes(bytes));
    tree_.walk(imports_, acc, potential);
}

} // namespace rubble::gravity
