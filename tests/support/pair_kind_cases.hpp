// SPDX-License-Identifier: MIT
#pragma once
// One setup per pair kind of the event-driven engine (src/collisions/pair_kinds.hpp), for test
// bodies written once and run over every kind (tests/unit/collisions/every_pair_kind_test.cpp,
// the shape of Cabana's tests run over every backend). Only the engine's public API is used:
// each case makes bodies whose contact is of its kind, the walls it needs, and says what the
// engine reports about it (the names in messages, the ids in the collision log).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "aggregates.hpp"
#include "rubble/boundaries/wall.hpp"
#include "rubble/core/bodies.hpp"
#include "rubble/core/rigid_body.hpp"

namespace rubble::test {

/// The floor the wall kinds meet: the plane z = 0, bodies above.
inline boundaries::Wall floor_wall() {
    boundaries::Wall w;
    w.name = "walls[0] (plane)";
    return w;
}

/// Two free spheres of radius 0.5 m (ids 3 and 8, masses 1 and 3 kg) along x.
struct SphereSphereCase {
    static constexpr const char* name = "SphereSphere";
    /// m, what DriftStats::max_overlap measures depths against (R1 + R2).
    static constexpr double overlap_length = 1.0;
    static std::vector<boundaries::Wall> walls() { return {}; }
    /// Overlapping by `depth` (m), closing at `speed` (m/s).
    static Bodies overlapping(double depth, double speed) { return head_on(-depth, speed); }
    /// `gap` (m) apart, closing at `speed` (m/s).
    static Bodies head_on(double gap, double speed) {
        Bodies b;
        b.add_sphere(3, 1.0, 0.5, Vec3::Zero(), Vec3(0.5 * speed, 0, 0), Vec3::Zero());
        b.add_sphere(8, 3.0, 0.5, Vec3(1.0 + gap, 0, 0), Vec3(-0.5 * speed, 0, 0), Vec3::Zero());
        return b;
    }
    /// What an abort message names, and the log's ids of the contact.
    static std::vector<std::string> named() { return {"bodies 3 and 8"}; }
    static std::pair<std::int64_t, std::int64_t> log_ids() { return {3, 8}; }
};

/// A free sphere of radius 1 m (id 1) above the floor.
struct SphereWallCase {
    static constexpr const char* name = "SphereWall";
    /// m, what DriftStats::max_overlap measures depths against (R).
    static constexpr double overlap_length = 1.0;
    static std::vector<boundaries::Wall> walls() { return {floor_wall()}; }
    static Bodies overlapping(double depth, double speed) { return head_on(-depth, speed); }
    static Bodies head_on(double gap, double speed) {
        Bodies b;
        b.add_sphere(1, 1.0, 1.0, Vec3(0, 0, 1.0 + gap), Vec3(0, 0, -speed), Vec3::Zero());
        return b;
    }
    static std::vector<std::string> named() { return {"body 1", "walls[0] (plane)"}; }
    static std::pair<std::int64_t, std::int64_t> log_ids() { return {-1, 1}; }
};

/// Two rigid cubes of 2 x 2 x 2 spheres of radius 0.5 m (ids 1 and 2), face to face along x:
/// four pairs of spheres meet at once.
struct RigidPairCase {
    static constexpr const char* name = "RigidPair";
    /// m, what DriftStats::max_overlap measures depths against (R1 + R2 of two touching spheres).
    static constexpr double overlap_length = 1.0;
    static std::vector<boundaries::Wall> walls() { return {}; }
    static Bodies overlapping(double depth, double speed) { return head_on(-depth, speed); }
    static Bodies head_on(double gap, double speed) {
        Bodies b;
        add_rigid_body(b, 1, cube_parts(0.5, 1000.0), Vec3::Zero(), Vec3(0.5 * speed, 0, 0),
                       Vec3::Zero());
        add_rigid_body(b, 2, cube_parts(0.5, 1000.0), Vec3(2.0 + gap, 0, 0),
                       Vec3(-0.5 * speed, 0, 0), Vec3::Zero());
        return b;
    }
    static std::vector<std::string> named() { return {"body 1", "body 2"}; }
    static std::pair<std::int64_t, std::int64_t> log_ids() { return {1, 2}; }
};

/// A rigid cube (id 1) face down above the floor: four spheres meet it at once.
struct RigidWallCase {
    static constexpr const char* name = "RigidWall";
    /// m, what DriftStats::max_overlap measures depths against (R of the touching sphere).
    static constexpr double overlap_length = 0.5;
    static std::vector<boundaries::Wall> walls() { return {floor_wall()}; }
    static Bodies overlapping(double depth, double speed) { return head_on(-depth, speed); }
    static Bodies head_on(double gap, double speed) {
        Bodies b;
        add_rigid_body(b, 1, cube_parts(0.5, 1000.0), Vec3(0, 0, 1.0 + gap), Vec3(0, 0, -speed),
                       Vec3::Zero());
        return b;
    }
    static std::vector<std::string> named() { return {"body 1", "walls[0] (plane)"}; }
    static std::pair<std::int64_t, std::int64_t> log_ids() { return {-1, 1}; }
};

using PairKindCases =
    ::testing::Types<SphereSphereCase, SphereWallCase, RigidPairCase, RigidWallCase>;

struct PairKindCaseNames {
    template <class K> static std::string GetName(int) { return K::name; }
};

} // namespace rubble::test
