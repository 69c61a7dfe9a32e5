// SPDX-License-Identifier: MIT
// The event-driven drift of free spheres spread over ranks (run/drift_over_ranks.hpp) against
// the serial engine on the same bodies: every drift's bodies bit for bit and the same
// collision log, over 2 to 4 thread ranks (tests/support/thread_ranks.hpp), with the drifts
// really spread (none handed to rank 0) and, where domains meet, taking more than one round.
// Walls, moving and turning, and periodic boxes included. What it cannot spread (bodies overlapping
// each other or a wall at the start) it hands to rank 0: still the serial drift.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "rubble/boundaries/wall.hpp"
#include "rubble/collisions/event_drift.hpp"
#include "rubble/run/drift_over_ranks.hpp"
#include "rubble/run/run_ranks.hpp"
#include "thread_ranks.hpp"

namespace {

using rubble::Bodies;
using rubble::Vec3;
using rubble::collisions::CollisionConfig;

// n^3 spheres of radius 0.4 m on a jittered lattice of 1 m, moving at about 1 m/s and
// spinning: hundreds of collisions (a few per body) in a drift of 1 s, dissipative and
// frictional so that spins and the f_crit free paths matter.
Bodies gas(int n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    Bodies b;
    std::int64_t id = 0;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            for (int k = 0; k < n; ++k) {
                const Vec3 x(i + 0.05 * u(rng), j + 0.05 * u(rng), k + 0.05 * u(rng));
                const Vec3 v(u(rng), u(rng), u(rng));
                const Vec3 w(u(rng), u(rng), u(rng));
                b.add_sphere(id++, 1.0 + 0.2 * u(rng), 0.4, x, v, w);
            }
    return b;
}

CollisionConfig dissipative() {
    CollisionConfig c;
    c.eps_n = 0.8;
    c.eps_t = 0.5;
    c.f_crit = 0.3;
    c.log = true;
    return c;
}

struct Drifted {
    std::vector<Bodies> states; // after each drift, rows in serial order (rank 0's)
    std::vector<std::vector<rubble::integrate::ContactRecord>> logs;
    std::vector<std::int64_t> contacts;
    std::int64_t spread = 0, on_root = 0, failed_rounds = 0;
    double most_rounds = 0;
    int most_windows = 1; // the most windows a drift was cut into
};

Drifted serial(Bodies b, const CollisionConfig& c, int drifts, double h) {
    rubble::collisions::EventDrivenDrift engine(c);
    Drifted out;
    for (int k = 0; k < drifts; ++k) {
        const auto stats = engine.drift(b, h, k * h);
        out.states.push_back(b);
        out.logs.push_back(engine.take_log());
        out.contacts.push_back(stats.collisions);
    }
    return out;
}

// The drifts over `ranks` thread ranks, the bodies decomposed afresh after each (as a run
// does) and gathered to rank 0 for the comparison.
Drifted over_ranks(const Bodies& all, const CollisionConfig& c, int drifts, double h, int ranks,
                   rubble::run::DriftOverRanks::Placement placement =
                       rubble::run::DriftOverRanks::Placement::spread) {
    Drifted out;
    std::mutex m;
    rubble::test::ThreadRanks(ranks).run([&](rubble::core::Communicator& world) {
        rubble::run::RunRanks r(world);
        Bodies mine = world.rank() == 0 ? all : all.select({});
        r.scatter(mine);
        rubble::run::DriftOverRanks d(
            c, r,
            world.rank() == 0 ? std::make_unique<rubble::collisions::EventDrivenDrift>(c) : nullptr,
            placement);
        for (int k = 0; k < drifts; ++k) {
            const int windows = d.windows();
            const auto stats = d.advance(mine, h, k * h, false);
            r.redistribute(mine);
            Bodies whole = r.gather_to_root(mine);
            if (world.rank() != 0) continue;
            out.states.push_back(whole);
            out.logs.push_back(d.take_log());
            out.contacts.push_back(stats.contacts);
            out.most_rounds =
                std::max(out.most_rounds, rubble::integrate::work_counter(stats, "rounds"));
            if (rubble::integrate::work_counter(stats, "rounds") > 0)
                out.most_windows = std::max(out.most_windows, windows);
        }
        if (world.rank() != 0) return;
        const std::lock_guard<std::mutex> lock(m);
        out.spread = d.spread_drifts();
        out.on_root = d.drifts_on_root();
        out.failed_rounds = d.failed_rounds();
    });
    return out;
}

void expect_same_drifts(const Drifted& a, const Drifted& b) {
    ASSERT_EQ(a.states.size(), b.states.size());
    for (std::size_t k = 0; k < a.states.size(); ++k) {
        const Bodies &x = a.states[k], &y = b.states[k];
        ASSERT_EQ(x.id, y.id) << "drift " << k;
        EXPECT_EQ(x.pos, y.pos) << "drift " << k;
        EXPECT_EQ(x.vel, y.vel) << "drift " << k;
        EXPECT_EQ(x.spin, y.spin) << "drift " << k;
        EXPECT_EQ(x.free_path, y.free_path) << "drift " << k;
        for (std::size_t i = 0; i < x.size(); ++i)
            ASSERT_EQ(x.orientation[i].coeffs(), y.orientation[i].coeffs()) << k << " " << i;
        EXPECT_EQ(a.contacts[k], b.contacts[k]) << "drift " << k;
        ASSERT_EQ(a.logs[k].size(), b.logs[k].size()) << "drift " << k;
        for (std::size_t i = 0; i < a.logs[k].size(); ++i) {
            const auto &p = a.logs[k][i], &q = b.logs[k][i];
            ASSERT_EQ(p.time, q.time) << k << " " << i;
            ASSERT_EQ(p.id1, q.id1) << k << " " << i;
            ASSERT_EQ(p.id2, q.id2) << k << " " << i;
            ASSERT_EQ(p.normal_speed, q.normal_speed) << k << " " << i;
            ASSERT_EQ(p.tangential_speed, q.tangential_speed) << k << " " << i;
        }
    }
}

TEST(DriftOverRanks, AGasDriftedOverTwoToFourRanksIsTheSerialDriftBitForBit) {
    const Bodies b = gas(8, 7);
    const CollisionConfig c = dissipative();
    const Drifted s = serial(b, c, 4, 1.0);
    std::int64_t total = 0;
    for (const auto n : s.contacts)
        total += n;
    ASSERT_GT(total, 1000); // (collisions across every domain boundary)
    for (int p = 2; p <= 4; ++p) {
        SCOPED_TRACE(p);
        const Drifted d = over_ranks(b, c, 4, 1.0, p);
        expect_same_drifts(s, d);
        EXPECT_EQ(d.spread, 4); // every drift spread, none handed to rank 0
        EXPECT_EQ(d.on_root, 0);
        EXPECT_GT(d.most_rounds, 1.0); // collisions across boundaries took rounds
    }
}

TEST(DriftOverRanks, ChosenByTheirSpeedSpreadAndRankZeroDriftsTakeTurnsAndStayTheSerialDrift) {
    // The adaptive placement measures each kind once (spread first, then rank 0) and then
    // picks the faster: whichever it picks, the bodies are the serial drift's.
    const Bodies b = gas(6, 5);
    const CollisionConfig c = dissipative();
    const Drifted s = serial(b, c, 5, 0.5);
    const Drifted d = over_ranks(b, c, 5, 0.5, 2, rubble::run::DriftOverRanks::Placement::adaptive);
    expect_same_drifts(s, d);
    EXPECT_GE(d.spread, 1);
    EXPECT_GE(d.on_root, 1);
    EXPECT_EQ(d.spread + d.on_root, 5);
}

// 216 spheres nearly touching (gaps of 0.1 R) and converging: chains of collisions run through
// the cluster and across every boundary within a drift.
Bodies converging_cluster() {
    Bodies b;
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::int64_t id = 0;
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j)
            for (int k = 0; k < 6; ++k) {
                const Vec3 x = 0.84 * Vec3(i, j, k);
                b.add_sphere(id++, 1.0, 0.4, x,
                             -0.3 * (x - Vec3::Constant(2.1)) + 0.1 * Vec3(u(rng), u(rng), u(rng)),
                             Vec3::Zero());
            }
    return b;
}

CollisionConfig nearly_elastic() {
    CollisionConfig c = dissipative();
    c.f_crit = 0.0;
    c.eps_n = 0.9;
    return c;
}

TEST(DriftOverRanks, ADenseClusterWhoseCollisionsChainAcrossDomainsIsTheSerialDrift) {
    // Its first drift takes many rounds, so the later ones are cut into windows (a fixed point
    // per window, from the copy of the engine at the window's start): still the serial drift.
    const Bodies b = converging_cluster();
    const CollisionConfig c = nearly_elastic();
    const Drifted s = serial(b, c, 4, 0.25);
    for (int p = 2; p <= 4; ++p) {
        SCOPED_TRACE(p);
        const Drifted d = over_ranks(b, c, 4, 0.25, p);
        expect_same_drifts(s, d);
        EXPECT_EQ(d.spread + d.on_root, 4);
        EXPECT_GE(d.most_windows, 2);
    }
}

TEST(DriftOverRanks, RoundsThatThrowOnSomeRankAreDrivenOnToTheSerialDrift) {
    // With a low collisions.max_per_body (which the serial drift stays within), ranks told
    // wrong changes in intermediate rounds meet an "inelastic collapse" that no body has: the
    // rounds go on, and the result is still the serial drift.
    const Bodies b = converging_cluster();
    CollisionConfig c = nearly_elastic();
    c.max_per_body = 60;
    const Drifted s = serial(b, c, 2, 0.5);
    const Drifted d = over_ranks(b, c, 2, 0.5, 4);
    expect_same_drifts(s, d);
    EXPECT_GT(d.failed_rounds, 0);
    EXPECT_GE(d.spread, 1); // (a drift spread to its end after rounds that threw)
}

// A gas in a closed box of six plane walls, one of them moving in (a piston) and one turning
// (a plane spinning about its normal drags what it touches): a wall contact is its body's
// owner's alone, a ghost meets no wall on the ranks that hold it and moves as its owner says.
TEST(DriftOverRanks, AGasInABoxOfWallsIsTheSerialDriftWallContactsIncluded) {
    const Bodies b = gas(6, 13);
    CollisionConfig c = dissipative();
    for (int axis = 0; axis < 3; ++axis)
        for (const double side : {-1.0, 1.0}) {
            rubble::boundaries::Wall w;
            w.normal = Vec3::Zero();
            w.normal[axis] = -side; // towards the gas
            w.point = Vec3::Constant(2.5);
            w.point[axis] = 2.5 + side * 3.1;
            c.walls.push_back(w);
        }
    c.walls[1].velocity = Vec3(-0.2, 0.0, 0.0); // the +x face moves in
    c.walls[4].angular_velocity = 0.5;          // the -z floor turns
    const Drifted s = serial(b, c, 3, 1.0);
    std::int64_t at_walls = 0;
    for (const auto& log : s.logs)
        for (const auto& r : log)
            at_walls += r.id1 < 0 ? 1 : 0;
    ASSERT_GT(at_walls, 50);
    for (int p = 2; p <= 4; ++p) {
        SCOPED_TRACE(p);
        const Drifted d = over_ranks(b, c, 3, 1.0, p);
        expect_same_drifts(s, d);
        EXPECT_EQ(d.spread, 3);
    }
    EXPECT_TRUE(rubble::run::drift_spreads_over_ranks(c, true));
}

// The gas in a periodic box: bodies meet across the box's faces through their images, where
// domains cut along the Morton curve of the box meet too; positions are wrapped at the end of
// each drift, by each body's owner.
TEST(DriftOverRanks, AGasInAPeriodicBoxIsTheSerialDriftAcrossTheFaces) {
    Bodies b = gas(8, 17);
    for (Vec3& x : b.pos)
        x -= Vec3::Constant(3.5); // the lattice's 8 layers a spacing apart across each face
    CollisionConfig c = dissipative();
    c.periodic_box = 8.0;
    const Drifted s = serial(b, c, 6, 0.5);
    std::int64_t across = 0; // collisions of bodies a box apart
    for (std::size_t k = 0; k < s.logs.size(); ++k)
        for (const auto& r : s.logs[k]) {
            const Bodies& at = k == 0 ? b : s.states[k - 1];
            const auto row = [&](std::int64_t id) {
                return static_cast<std::size_t>(std::find(at.id.begin(), at.id.end(), id) -
                                                at.id.begin());
            };
            across += (at.pos[row(r.id1)] - at.pos[row(r.id2)]).cwiseAbs().maxCoeff() > 4.0;
        }
    ASSERT_GT(across, 20);
    for (int p = 2; p <= 4; ++p) {
        SCOPED_TRACE(p);
        const Drifted d = over_ranks(b, c, 6, 0.5, p);
        expect_same_drifts(s, d);
        EXPECT_EQ(d.spread, 6);
    }
    EXPECT_TRUE(rubble::run::drift_spreads_over_ranks(c, true));
}

TEST(DriftOverRanks, BodiesOverlappingAtTheStartAreDriftedOnRankZeroAsTheSerialRunDoes) {
    Bodies b = gas(4, 3);
    b.pos[1] = b.pos[0] + Vec3(0.7, 0.0, 0.0); // depth 0.1 of R1 + R2 = 0.8
    CollisionConfig c = dissipative();
    c.overlaps = rubble::collisions::OverlapStrategy::push_apart;
    const Drifted s = serial(b, c, 2, 0.5);
    const Drifted d = over_ranks(b, c, 2, 0.5, 3);
    expect_same_drifts(s, d);
    EXPECT_GE(d.on_root, 1);
}

TEST(DriftOverRanks, ABodyOverlappingAWallAtTheStartIsDriftedOnRankZeroAsTheSerialRunDoes) {
    Bodies b = gas(4, 3);
    CollisionConfig c = dissipative();
    c.overlaps = rubble::collisions::OverlapStrategy::push_apart;
    rubble::boundaries::Wall floor; // z = -0.5: the bottom layer's spheres (R = 0.4) clear it
    floor.point = Vec3(0.0, 0.0, -0.5);
    c.walls.push_back(floor);
    b.pos[5].z() = -0.3; // depth 0.2, half its radius
    const Drifted s = serial(b, c, 2, 0.5);
    const Drifted d = over_ranks(b, c, 2, 0.5, 3);
    expect_same_drifts(s, d);
    EXPECT_GE(d.on_root, 1);
}

} // namespace
