// SPDX-License-Identifier: MIT
#pragma once
// Which pairs can collide during a drift: the neighbour finder of the event-driven drift.
//
// Each body gets a region, the capsule swept by its sphere over the rest of the drift grown by
// a skin: segment from x to x + v h, radius R (1 + skin). Pairs whose regions meet are found
// with the octree (bodies sorted along the Morton curve, node boxes bounding their bodies'
// regions) in O(N log N), and every pair that can touch is among them. A collision changes
// velocities, so after one the engine asks whether each body's new trajectory still lies in
// its region (cheap: two point-segment distances, the capsule being convex). If not, the body
// gets a new region, the boxes of its tree ancestors grow to cover it, and a query finds its
// new neighbours. The invariant "every body's remaining path lies in its region" then makes
// every pair that can still touch a listed pair, with no global re-search (docs/collisions.md).
#include <cstdint>
#include <vector>

#include "rubble/core/bodies.hpp"
#include "rubble/tree/octree.hpp"

namespace rubble::collisions {

/// A partner j seen through periodic image `image` (periodic.hpp; self_image when open).
struct Neighbour {
    std::int32_t j;
    std::int8_t image;
};

/// A listed pair, i < j, j seen from i through `image`.
struct CandidatePair {
    std::int32_t i, j;
    std::int8_t image;
};

class CandidateSearch {
public:
    /// Builds the tree and the regions of all bodies over a drift of h seconds and finds every
    /// pair whose regions meet. box > 0: periodic cube of that side centred at the origin.
    void build(const Bodies& b, double h, double skin, double box);

    [[nodiscard]] const std::vector<CandidatePair>& pairs() const { return pairs_; }

    /// Calls f(Neighbour) for every listed partner of i (some twice; some no longer alive).
    template <class F> void for_each_neighbour(std::int32_t i, F&& f) const {
        const auto k = static_cast<std::size_t>(i);
        for (std::size_t e = offsets_[k]; e < offsets_[k + 1]; ++e)
            f(entries_[e]);
        for (const Neighbour& nb : extra_[k])
            f(nb);
    }

    /// Does a sphere of radius r moving on the segment from -> to stay inside i's region?
    [[nodiscard]] bool inside(std::int32_t i, const Vec3& from, const Vec3& to, double r) const;

    /// Gives i the region of that path (radius r (1 + skin)) and lists its new neighbours.
    void renew(std::int32_t i, const Vec3& from, const Vec3& to, double r);

    /// Regions renewed since build().
    [[nodiscard]] std::int64_t renewals() const { return renewals_; }

private:
    struct Region {
        Vec3 a, b;  // axis of the capsule, m
        double rad; // m
    };
    struct Box {
        Vec3 lo, hi;
    };
    [[nodiscard]] static Box box_of(const Region& r);
    // Calls visit(sorted position k, image) for every body whose region meets q.
    template <class Visit> void query(const Region& q, Visit&& visit) const;
    // Calls visit(leaf, shift, image) for every leaf whose box, shifted, meets qb.
    template <class Visit> void visit_leaves(const Box& qb, Visit&& visit) const;

    tree::Octree tree_;
    std::vector<Region> region_;          // by original index
    std::vector<Box> node_box_;           // bounds of the regions below each node
    std::vector<Box> sorted_box_;         // region boxes in sorted order, kept by renew()
    std::vector<std::int32_t> sorted_of_; // sorted position of each original index
    std::vector<std::int32_t> parent_;    // of each node, -1 for the root
    std::vector<std::int32_t> leaf_of_;   // by original index
    std::vector<std::size_t> offsets_;    // CSR of the pairs found by build()
    std::vector<Neighbour> entries_;
    std::vector<std::vector<Neighbour>> extra_; // partners found by renew()
    std::vector<std::int32_t> touched_;         // indices with non-empty extra_
    std::vector<CandidatePair> pairs_;
    std::vector<std::int32_t> group_node_; // search groups (tree node indices)
    double skin_ = 0.0;
    double box_ = 0.0;
    std::int64_t renewals_ = 0;
};

} // namespace rubble::collisions
