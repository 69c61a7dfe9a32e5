// SPDX-License-Identifier: MIT
#pragma once
// The NSC stepper's warm starts: the last step's impulse of each contact by its key (the body
// ids and the manifold point's feature). Refilled at every step with tens of thousands of
// contacts in a dense pile and looked up by every contact of the next, so it is a flat table
// with open addressing (linear probing, Knuth 1998, TAOCP vol. 3, sec. 6.4) rather than
// std::unordered_map, whose node per entry made refilling it cost as much as the step's
// solver setup; clearing keeps its storage. Look-ups do not change it, so threads may look up
// at once. Only ever looked up by key: its order never enters the results.
#include <cstdint>
#include <vector>

#include "rubble/core/types.hpp"

namespace rubble::polyhedra {

/// The key of a contact's warm start: the body ids and the contact's feature.
struct NscWarmKey {
    std::int64_t id_a, id_b; ///< body ids; id_b = -1 - wall index for a wall or fixed hull
    std::uint64_t feature;   ///< the manifold point's feature key, or the wall vertex
    bool operator==(const NscWarmKey&) const = default;
};

/// The last step's impulses (N s, world) by contact key.
class NscWarmStarts {
public:
    struct Entry {
        NscWarmKey key;
        Vec3 impulse;
    };

    /// Forgets every entry, keeping the storage.
    void clear();
    /// Room for n entries without growing.
    void reserve(std::size_t n);
    [[nodiscard]] std::size_t size() const { return size_; }
    [[nodiscard]] bool empty() const { return size_ == 0; }
    /// The impulse stored under key, or nullptr.
    [[nodiscard]] const Vec3* find(const NscWarmKey& key) const;
    /// Stores impulse under key, replacing what was there.
    void assign(const NscWarmKey& key, const Vec3& impulse);
    /// Stores impulse under key unless the key is there already; false then (nothing changed).
    bool insert(const NscWarmKey& key, const Vec3& impulse);
    /// Every entry, in no particular order.
    [[nodiscard]] std::vector<Entry> entries() const;

private:
    // The slot of key: where it is, or the empty slot where it would go.
    [[nodiscard]] std::size_t slot_of(const NscWarmKey& key) const;
    void grow();

    std::vector<Entry> slots_;
    std::vector<std::uint8_t> used_;
    std::size_t size_ = 0;
};

} // namespace rubble::polyhedra
