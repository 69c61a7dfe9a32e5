// SPDX-License-Identifier: MIT
#pragma once
// Two runs' outputs compared bitwise: the last snapshot (or every snapshot), every diagnostics
// row (energies, momenta and the collision counters) and the collision log. What a resumed run must
// match.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "rubble/runfile/run_file.hpp"

namespace rubble::test {

inline void expect_same_final_state(const std::string& a, const std::string& b) {
    const auto sa = runfile::read_snapshot(a, -1), sb = runfile::read_snapshot(b, -1);
    EXPECT_EQ(sa.step, sb.step);
    EXPECT_EQ(sa.time, sb.time);
    EXPECT_EQ(sa.bodies.id, sb.bodies.id);
    EXPECT_EQ(sa.bodies.pos, sb.bodies.pos);
    EXPECT_EQ(sa.bodies.vel, sb.bodies.vel);
    EXPECT_EQ(sa.bodies.spin, sb.bodies.spin);
    EXPECT_EQ(sa.bodies.free_path, sb.bodies.free_path);
    ASSERT_EQ(sa.bodies.size(), sb.bodies.size());
    for (std::size_t i = 0; i < sa.bodies.size(); ++i)
        ASSERT_EQ(sa.bodies.orientation[i].coeffs(), sb.bodies.orientation[i].coeffs());
}

inline void expect_same_diagnostics(const std::string& a, const std::string& b) {
    const auto da = runfile::read_diagnostics(a), db = runfile::read_diagnostics(b);
    ASSERT_EQ(da.size(), db.size());
    for (std::size_t i = 0; i < da.size(); ++i) {
        EXPECT_EQ(da[i].step, db[i].step) << "row " << i;
        EXPECT_EQ(da[i].total_energy, db[i].total_energy) << "row " << i;
        EXPECT_EQ(da[i].angular_momentum, db[i].angular_momentum) << "row " << i;
        EXPECT_EQ(da[i].collisions, db[i].collisions) << "row " << i;
        EXPECT_EQ(da[i].collisions_total, db[i].collisions_total) << "row " << i;
        EXPECT_EQ(da[i].overlaps, db[i].overlaps) << "row " << i;
        EXPECT_EQ(da[i].max_overlap, db[i].max_overlap) << "row " << i;
        EXPECT_EQ(da[i].merges_total, db[i].merges_total) << "row " << i;
    }
}

inline void expect_same_collision_log(const std::string& a, const std::string& b) {
    std::vector<std::int64_t> steps_a, steps_b;
    const auto la = runfile::read_collision_log(a, &steps_a);
    const auto lb = runfile::read_collision_log(b, &steps_b);
    ASSERT_EQ(la.size(), lb.size());
    EXPECT_EQ(steps_a, steps_b);
    for (std::size_t k = 0; k < la.size(); ++k) {
        ASSERT_EQ(la[k].time, lb[k].time) << k;
        ASSERT_EQ(la[k].id1, lb[k].id1) << k;
        ASSERT_EQ(la[k].id2, lb[k].id2) << k;
        ASSERT_EQ(la[k].normal_speed, lb[k].normal_speed) << k;
    }
}

/// Every snapshot's step and bodies (ids, positions, velocities, spins), bitwise.
inline void expect_same_snapshots(const std::string& a, const std::string& b) {
    const auto n = runfile::snapshot_count(a);
    ASSERT_EQ(n, runfile::snapshot_count(b));
    for (std::int64_t k = 0; k < n; ++k) {
        const auto sa = runfile::read_snapshot(a, k), sb = runfile::read_snapshot(b, k);
        EXPECT_EQ(sa.step, sb.step) << k;
        EXPECT_EQ(sa.bodies.id, sb.bodies.id) << k;
        EXPECT_EQ(sa.bodies.pos, sb.bodies.pos) << k;
        EXPECT_EQ(sa.bodies.vel, sb.bodies.vel) << k;
        EXPECT_EQ(sa.bodies.spin, sb.bodies.spin) << k;
    }
}

/// Everything a run writes, bitwise.
inline void expect_same_run(const std::string& a, const std::string& b) {
    expect_same_final_state(a, b);
    expect_same_diagnostics(a, b);
    expect_same_collision_log(a, b);
}

} // namespace rubble::test
