// SPDX-License-Identifier: MIT
#pragma once
// Two sets of bodies compared bit for bit: every column of the bodies, spheres and hulls
// tables (through their field lists, core/fields.hpp, so a field added later is compared too)
// and every hull shape of the catalogue (vertices, triangles, planes).
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "rubble/core/bodies.hpp"

namespace rubble::test {

namespace same_bodies_detail {

template <class T> bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

template <class Table> void expect_same_table(const Table& a, const Table& b, const char* what) {
    for_each_field<Table>([&](const auto& field) {
        EXPECT_TRUE(same_bits(a.*field.member, b.*field.member))
            << what << " column " << field.name << " differs";
    });
}

} // namespace same_bodies_detail

inline void expect_same_bodies(const Bodies& a, const Bodies& b) {
    using same_bodies_detail::expect_same_table;
    using same_bodies_detail::same_bits;
    ASSERT_EQ(a.size(), b.size());
    expect_same_table(a, b, "bodies");
    expect_same_table(a.spheres, b.spheres, "spheres");
    expect_same_table(a.hulls, b.hulls, "hulls");
    ASSERT_EQ(a.hull_shapes().size(), b.hull_shapes().size());
    for (std::size_t k = 0; k < a.hull_shapes().size(); ++k) {
        const auto& p = a.hull_shapes()[k].hull;
        const auto& q = b.hull_shapes()[k].hull;
        EXPECT_TRUE(same_bits(p.vertices, q.vertices)) << "shape " << k << " vertices";
        EXPECT_TRUE(same_bits(p.faces, q.faces)) << "shape " << k << " triangles";
        EXPECT_TRUE(same_bits(p.normals, q.normals)) << "shape " << k << " normals";
        EXPECT_TRUE(same_bits(p.offsets, q.offsets)) << "shape " << k << " offsets";
    }
}

} // namespace rubble::test
