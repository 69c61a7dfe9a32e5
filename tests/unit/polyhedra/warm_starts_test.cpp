// SPDX-License-Identifier: MIT
// The warm-start table against std::map on the same operations: many keys (it grows), keys
// that differ in one word only, a repeated key (assign replaces, insert refuses), clearing
// (it forgets, keeps working) and keys absent from it.
#include <cstdint>
#include <map>
#include <tuple>

#include <gtest/gtest.h>

#include "rubble/core/random.hpp"
#include "rubble/polyhedra/warm_starts.hpp"

using namespace rubble;
using polyhedra::NscWarmKey;
using polyhedra::NscWarmStarts;

namespace {

using Reference = std::map<std::tuple<std::int64_t, std::int64_t, std::uint64_t>, Vec3>;

std::tuple<std::int64_t, std::int64_t, std::uint64_t> tie_of(const NscWarmKey& k) {
    return {k.id_a, k.id_b, k.feature};
}

void expect_same(const NscWarmStarts& table, const Reference& reference) {
    ASSERT_EQ(table.size(), reference.size());
    for (const auto& e : table.entries()) {
        const auto it = reference.find(tie_of(e.key));
        ASSERT_NE(it, reference.end());
        EXPECT_EQ(e.impulse, it->second);
    }
    for (const auto& [k, v] : reference) {
        const Vec3* found = table.find({std::get<0>(k), std::get<1>(k), std::get<2>(k)});
        ASSERT_NE(found, nullptr);
        EXPECT_EQ(*found, v);
    }
}

} // namespace

TEST(NscWarmStarts, BehavesAsAMapOfItsKeys) {
    Rng rng(7);
    NscWarmStarts table;
    Reference reference;
    EXPECT_EQ(table.find({1, 2, 3}), nullptr); // empty: no storage yet
    for (int round = 0; round < 3; ++round) {
        for (int k = 0; k < 20000; ++k) {
            // Small ids and features, as a pile has: many keys differ in one word only.
            const NscWarmKey key{static_cast<std::int64_t>(rng.uniform(0, 3000)),
                                 static_cast<std::int64_t>(rng.uniform(-6, 3000)),
                                 static_cast<std::uint64_t>(rng.uniform(0, 64))};
            const Vec3 j = rng.in_ball(1.0);
            if (rng.uniform() < 0.5) {
                table.assign(key, j);
                reference[tie_of(key)] = j;
            } else {
                const bool fresh = reference.emplace(tie_of(key), j).second;
                EXPECT_EQ(table.insert(key, j), fresh);
            }
        }
        expect_same(table, reference);
        EXPECT_EQ(table.find({-5, 7, 1}), nullptr); // an id no key has
        table.clear();
        reference.clear();
        EXPECT_TRUE(table.empty());
        EXPECT_EQ(table.find({1, 2, 3}), nullptr);
    }
}

TEST(NscWarmStarts, KeysDifferingInHighBitsOnly) {
    NscWarmStarts table;
    Reference reference;
    for (std::uint64_t k = 0; k < 4096; ++k) {
        const NscWarmKey key{7, -1, k << 40U};
        table.assign(key, Vec3(static_cast<double>(k), 0, 0));
        reference[tie_of(key)] = Vec3(static_cast<double>(k), 0, 0);
    }
    expect_same(table, reference);
}
