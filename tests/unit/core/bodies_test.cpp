// SPDX-License-Identifier: MIT
// Storage of bodies and their spheres: the field lists, removal, the id map, the invariants.
#include <stdexcept>

#include <gtest/gtest.h>

#include "rubble/core/bodies.hpp"
#include "rubble/core/rigid_body.hpp"

using namespace rubble;

namespace {

// Free spheres 0, 1, 2, a two-sphere body 10, a free sphere 3.
Bodies mixed() {
    Bodies b;
    for (int k = 0; k < 3; ++k)
        b.add_sphere(k, 1.0 + k, 0.5, Vec3(10.0 * k, 0, 0), Vec3::Zero(), Vec3::Zero());
    add_rigid_body(b, 10, {{Vec3(-1, 0, 0), 0.5, 2.0}, {Vec3(1, 0, 0), 0.5, 2.0}}, Vec3(0, 5, 0),
                   Vec3::Zero(), Vec3::Zero());
    b.add_sphere(3, 4.0, 0.5, Vec3(0, 0, 9), Vec3::Zero(), Vec3::Zero());
    return b;
}

} // namespace

TEST(Bodies, FreeSpheresAreBodiesWithOneSphereAtTheirCentre) {
    Bodies b;
    b.add_sphere(7, 3.0, 0.25, Vec3(1, 2, 3), Vec3::Zero(), Vec3::Zero());
    ASSERT_EQ(b.spheres.size(), 1U);
    EXPECT_EQ(b.spheres.body[0], 0);
    EXPECT_EQ(b.spheres.offset[0], Vec3::Zero());
    EXPECT_EQ(b.spheres.radius[0], 0.25);
    EXPECT_EQ(b.spheres.mass[0], 3.0);
    EXPECT_TRUE(b.all_free_spheres());
    EXPECT_NO_THROW(b.check_consistent());
}

TEST(Bodies, RemovalKeepsEverySphereLinkedToItsBody) {
    Bodies b = mixed();
    ASSERT_EQ(b.size(), 5U);
    ASSERT_EQ(b.spheres.size(), 6U);
    EXPECT_FALSE(b.all_free_spheres());
    remove_flagged(b, {0, 1, 0, 0, 1}); // ids 1 and 3 go
    ASSERT_EQ(b.size(), 3U);
    EXPECT_EQ(b.id, (std::vector<std::int64_t>{0, 2, 10}));
    ASSERT_EQ(b.spheres.size(), 4U);
    EXPECT_EQ(b.spheres.body, (std::vector<std::int64_t>{0, 1, 2, 2}));
    EXPECT_EQ(b.spheres.mass[1], 3.0); // id 2's sphere moved down with it
    EXPECT_NO_THROW(b.check_consistent());
}

TEST(Bodies, TheIdMapFollowsRemovalsAndAdditions) {
    Bodies b = mixed();
    EXPECT_EQ(b.index_of(10), std::optional<std::size_t>(3));
    remove_flagged(b, {1, 0, 0, 0, 0});
    EXPECT_EQ(b.index_of(10), std::optional<std::size_t>(2));
    EXPECT_EQ(b.index_of(0), std::nullopt);
    b.add_sphere(0, 1.0, 0.5, Vec3::Zero(), Vec3::Zero(), Vec3::Zero()); // id 0 back, last row
    EXPECT_EQ(b.index_of(0), std::optional<std::size_t>(4));
    std::swap(b.id[0], b.id[1]); // rows reordered by hand: ids 2, 1, 10, 3, 0
    EXPECT_EQ(b.index_of(1), std::optional<std::size_t>(1));
    EXPECT_EQ(b.index_of(99), std::nullopt);
    EXPECT_EQ(b.index_of(2), std::optional<std::size_t>(0));
    EXPECT_EQ(b.index_of(3), std::optional<std::size_t>(3));
}

TEST(Bodies, InvariantViolationsAreNamed) {
    Bodies b = mixed();
    b.mass[1] = 5.0;
    EXPECT_THROW(b.check_consistent(), std::logic_error);
    b = mixed();
    b.id[4] = 0;
    try {
        b.check_consistent();
        FAIL() << "duplicate id accepted";
    } catch (const std::logic_error& e) {
        EXPECT_NE(std::string(e.what()).find("two bodies with id 0"), std::string::npos);
    }
    b = mixed();
    b.spheres.body[5] = 1; // spheres no longer grouped by body
    EXPECT_THROW(b.check_consistent(), std::logic_error);
    b = mixed();
    b.radius[0] = 2.0; // a free sphere whose sphere disagrees
    b.spheres.mass.pop_back();
    EXPECT_THROW(b.check_consistent(), std::logic_error);
}

TEST(Bodies, ResizeAddsFreeSpheresAndShrinkDropsTheirSpheres) {
    Bodies b = mixed();
    b.resize(4); // drops id 3 (a free sphere after the rigid body)
    EXPECT_EQ(b.spheres.size(), 5U);
    b.resize(6);
    EXPECT_EQ(b.spheres.size(), 7U);
    EXPECT_EQ(b.spheres.body.back(), 5);
    b.id[4] = 20;
    b.id[5] = 21;
    b.set_free_sphere(4, 1.0, 1.0); // its sphere is row 5 of the table
    b.set_free_sphere(5, 2.0, 1.0);
    EXPECT_EQ(b.spheres.mass[5], 1.0);
    EXPECT_EQ(b.spheres.mass[6], 2.0);
    EXPECT_NO_THROW(b.check_consistent());
    EXPECT_THROW(b.set_free_sphere(3, 1.0, 1.0), std::logic_error); // two spheres
}
