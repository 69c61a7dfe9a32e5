// SPDX-License-Identifier: MIT
#include "rubble/polyhedra/warm_starts.hpp"

#include <algorithm>

namespace rubble::polyhedra {
namespace {

// The table stays at most half full, so a probe ends after a couple of slots on average.
constexpr std::size_t smallest_capacity = 64;

// A 64-bit mix of the key whose low bits depend on all of its bits (the table indexes by
// them): each word folded in by multiplication, then splitmix64's finaliser (Steele, Lea &
// Flood 2014).
std::uint64_t hash_of(const NscWarmKey& k) {
    std::uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (const std::uint64_t x :
         {static_cast<std::uint64_t>(k.id_a), static_cast<std::uint64_t>(k.id_b), k.feature}) {
        h = (h ^ x) * 0xbf58476d1ce4e5b9ULL;
        h ^= h >> 31U;
    }
    h ^= h >> 30U;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27U;
    h *= 0x94d049bb133111ebULL;
    return h ^ (h >> 31U);
}

} // namespace

void NscWarmStarts::clear() {
    std::fill(used_.begin(), used_.end(), std::uint8_t{0});
    size_ = 0;
}

void NscWarmStarts::reserve(std::size_t n) {
    while (2 * n > slots_.size())
        grow();
}

std::size_t NscWarmStarts::slot_of(const NscWarmKey& key) const {
    const std::size_t mask = slots_.size() - 1;
    std::size_t s = static_cast<std::size_t>(hash_of(key)) & mask;
    while (used_[s] && !(slots_[s].key == key))
        s = (s + 1) & mask;
    return s;
}

const Vec3* NscWarmStarts::find(const NscWarmKey& key) const {
    if (size_ == 0) return nullptr;
    const std::size_t s = slot_of(key);
    return used_[s] ? &slots_[s].impulse : nullptr;
}

void NscWarmStarts::assign(const NscWarmKey& key, const Vec3& impulse) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    const std::size_t s = slot_of(key);
    if (!used_[s]) {
        used_[s] = 1;
        slots_[s].key = key;
        ++size_;
    }
    slots_[s].impulse = impulse;
}

bool NscWarmStarts::insert(const NscWarmKey& key, const Vec3& impulse) {
    if (find(key) != nullptr) return false;
    assign(key, impulse);
    return true;
}

std::vector<NscWarmStarts::Entry> NscWarmStarts::entries() const {
    std::vector<Entry> out;
    out.reserve(size_);
    for (std::size_t s = 0; s < slots_.size(); ++s)
        if (used_[s]) out.push_back(slots_[s]);
    return out;
}

void NscWarmStarts::grow() {
    const std::vector<Entry> kept = entries();
    const std::size_t capacity = std::max(smallest_capacity, 2 * slots_.size());
    slots_.assign(capacity, Entry{});
    used_.assign(capacity, 0);
    size_ = 0;
    for (const Entry& e : kept)
        assign(e.key, e.impulse);
}

} // namespace rubble::polyhedra
