// SPDX-License-Identifier: MIT
// A fingerprint of everything the event-driven engine produces, per scenario, for bitwise
// comparisons of two builds (a refactoring of the engine must keep every bit): each scenario
// runs three drifts and prints `[bits] <scenario> <hash>`, an FNV-1a hash (Fowler, Noll and Vo)
// of the bodies (every field and every sphere), the collision log, the walls' impulses and
// every DriftStats field. The hashes depend on libm and the compiler, so they are compared
// between two builds on one machine (grep '\[bits\]' of both test binaries, then diff), never
// pinned here. Each scenario also asserts what holds whatever the build: it ran contacts of
// the kind it names, and momentum is kept with the walls' budgets.
//
// The scenarios cover every pair kind ({sphere, aggregate} x {pair, wall}), every outcome
// (bounce, merge, stick) and every overlap strategy against every pair kind.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "aggregates.hpp"
#include "gas.hpp"
#include "rubble/collisions/event_drift.hpp"
#include "rubble/core/random.hpp"
#include "rubble/core/rigid_body.hpp"

namespace rubble::collisions {
namespace {

class Fnv {
public:
    void bytes(const void* p, std::size_t n) {
        const auto* c = static_cast<const unsigned char*>(p);
        for (std::size_t k = 0; k < n; ++k) {
            h_ ^= c[k];
            h_ *= 1099511628211ull;
        }
    }
    template <class T> void add(const T& x) { bytes(&x, sizeof x); }
    template <class T> void add(const std::vector<T>& v) {
        add(v.size());
        if (!v.empty()) bytes(v.data(), v.size() * sizeof(T));
    }
    [[nodiscard]] std::uint64_t value() const { return h_; }

private:
    std::uint64_t h_ = 14695981039346656037ull;
};

void hash_bodies(Fnv& f, const Bodies& b) {
    f.add(b.id);
    f.add(b.mass);
    f.add(b.radius);
    f.add(b.pos);
    f.add(b.vel);
    f.add(b.spin);
    f.add(b.orientation);
    f.add(b.inertia);
    f.add(b.principal_axes);
    f.add(b.free_path);
    f.add(b.spheres.body);
    f.add(b.spheres.offset);
    f.add(b.spheres.radius);
    f.add(b.spheres.mass);
}

void hash_stats(Fnv& f, const DriftStats& s) {
    for (const std::int64_t x :
         {s.collisions, s.wall_collisions, s.merges, s.elastic_by_guard, s.overlaps,
          s.candidate_pairs, s.renewals, s.stale_events, s.grazes})
        f.add(x);
    f.add(s.max_overlap);
    f.add(s.skin);
    f.add(s.rebuilt);
}

Vec3 momentum(const Bodies& b) {
    Vec3 p = Vec3::Zero();
    for (std::size_t i = 0; i < b.size(); ++i)
        p += b.mass[i] * b.vel[i];
    return p;
}

/// Runs `drifts` drifts of h from t = 0, prints the fingerprint and returns the summed counts.
DriftStats fingerprint(const std::string& name, Bodies b, const CollisionConfig& c, double h,
                       int drifts = 3) {
    EventDrivenDrift engine(c);
    Fnv f;
    DriftStats sum;
    const Vec3 p0 = momentum(b);
    double p_scale = 0.0;
    for (std::size_t i = 0; i < b.size(); ++i)
        p_scale += b.mass[i] * b.vel[i].norm();
    for (int d = 0; d < drifts; ++d) {
        const DriftStats s = engine.drift(b, h, d * h);
        hash_stats(f, s);
        sum.collisions += s.collisions;
        sum.wall_collisions += s.wall_collisions;
        sum.merges += s.merges;
        sum.overlaps += s.overlaps;
        sum.grazes += s.grazes;
    }
    hash_bodies(f, b);
    const std::vector<CollisionRecord> log = engine.take_log();
    f.add(log);
    for (const WallImpulse& w : engine.wall_impulses()) {
        f.add(w.linear);
        f.add(w.angular);
    }
    std::printf("[bits] %s %016llx\n", name.c_str(), static_cast<unsigned long long>(f.value()));
    Vec3 walls = Vec3::Zero();
    for (const WallImpulse& w : engine.wall_impulses())
        walls += w.linear;
    EXPECT_LE((momentum(b) - walls - p0).norm(), 1e-12 * (p_scale + 1.0)) << name;
    return sum;
}

boundaries::Wall cylinder(double radius, double length, double spin) {
    boundaries::Wall w;
    w.shape = boundaries::WallShape::cylinder;
    w.point = Vec3(0, 0, length > 0.0 ? -0.5 * length : 0.0);
    w.normal = Vec3::UnitZ();
    w.radius = radius;
    w.length = length;
    w.caps = length > 0.0;
    w.angular_velocity = spin;
    w.name = "walls[0] (cylinder)";
    return w;
}

TEST(EngineBits, PeriodicSphereGasWithFrictionAndTheLog) {
    const test::Gas g = test::lattice_gas(343, 0.3, 1.0, 11);
    CollisionConfig c;
    c.eps_n = 0.8;
    c.eps_t = 0.7;
    c.periodic_box = g.box;
    c.log = true;
    EXPECT_GT(fingerprint("periodic_gas", g.bodies, c, 0.05).collisions, 100);
    c.outcome = ContactOutcome::merge;
    c.overlaps = OverlapStrategy::merge; // (a merged sphere grows into its neighbours)
    EXPECT_GT(fingerprint("periodic_gas_merge", g.bodies, c, 0.05).merges, 20);
}

TEST(EngineBits, SpheresInABoxAndInATurningDrum) {
    const test::Gas g = test::lattice_gas(216, 0.25, 1.0, 12);
    const double half = 0.5 * g.box;
    CollisionConfig c;
    c.eps_n = 0.5;
    c.eps_t = 0.8;
    c.v_min = 0.05;
    c.f_crit = 0.01;
    c.log = true;
    c.walls = boundaries::box_walls(Vec3::Constant(-half), Vec3::Constant(half), Vec3::Zero(),
                                    "walls[0]");
    const DriftStats box = fingerprint("sphere_box", g.bodies, c, 0.2);
    EXPECT_GT(box.wall_collisions, 20);
    EXPECT_GT(box.collisions - box.wall_collisions, 20);
    c.walls = {cylinder(half * std::sqrt(2.0), 0.0, 0.7)};
    c.walls[0].point = Vec3::Zero();
    c.walls.push_back(boundaries::box_walls(Vec3::Constant(-half), Vec3::Constant(half),
                                            Vec3::Zero(), "walls[1]")[4]);
    EXPECT_GT(fingerprint("sphere_drum", g.bodies, c, 0.2).wall_collisions, 20);
}

TEST(EngineBits, SpheresInACan) {
    const test::Gas g = test::lattice_gas(125, 0.25, 1.0, 13);
    CollisionConfig c;
    c.eps_n = 0.9;
    c.eps_t = 0.9;
    c.log = true;
    c.walls = {cylinder(0.5 * g.box * std::sqrt(2.0), g.box, 0.3)};
    EXPECT_GT(fingerprint("sphere_can", g.bodies, c, 0.2).wall_collisions, 20);
}

Bodies moving_aggregates(int n, std::uint64_t seed, double speed) {
    Bodies b = test::aggregate_cloud(n, 6, 0.5, seed);
    Rng rng(seed + 1);
    for (Vec3& v : b.vel)
        v = speed * rng.in_ball(1.0);
    return b;
}

TEST(EngineBits, AggregatesAndFreeSpheresInABox) {
    const Bodies b = moving_aggregates(27, 21, 6.0);
    Vec3 lo = b.pos[0], hi = b.pos[0];
    for (const Vec3& x : b.pos) {
        lo = lo.cwiseMin(x);
        hi = hi.cwiseMax(x);
    }
    CollisionConfig c;
    c.eps_n = 0.6;
    c.mu = 0.3;
    c.v_min = 0.01;
    c.log = true;
    c.walls = boundaries::box_walls(lo - Vec3::Constant(6.0), hi + Vec3::Constant(6.0),
                                    Vec3::Zero(), "walls[0]");
    const DriftStats s = fingerprint("aggregate_box", b, c, 1.5, 6);
    EXPECT_GT(s.wall_collisions, 10);
    EXPECT_GT(s.collisions - s.wall_collisions, 10);
}

TEST(EngineBits, StickingAggregatesAndStickingSpheres) {
    CollisionConfig c;
    c.outcome = ContactOutcome::stick;
    c.stick_speed = 2.0;
    c.eps_n = 0.5;
    c.log = true;
    EXPECT_GT(fingerprint("stick_aggregates", moving_aggregates(27, 31, 3.0), c, 1.0).merges, 2);
    const test::Gas g = test::lattice_gas(125, 0.3, 1.0, 32);
    EXPECT_GT(fingerprint("stick_spheres", g.bodies, c, 0.2).merges, 5);
}

// One overlap of each pair kind, as the kind's own tests set it up (overlaps_test.cpp,
// wall_drift_test.cpp, aggregate_walls_test.cpp).
Bodies overlapping(const std::string& kind) {
    Bodies b;
    if (kind == "sphere_pair") {
        b.add_sphere(3, 1.0, 0.5, Vec3(0, 0, 0), Vec3(0.1, 0, 0), Vec3(0, 0.2, 0));
        b.add_sphere(8, 3.0, 0.5, Vec3(0.9, 0, 0.01), Vec3(-0.1, 0, 0), Vec3::Zero());
    } else if (kind == "sphere_wall") {
        b.add_sphere(1, 1.0, 1.0, Vec3(0, 0, 0.75), Vec3(0.1, 0, -0.5), Vec3(0.3, 0, 0));
    } else if (kind == "rigid_pair") {
        const double r = 0.5, depth = 1e-3;
        add_rigid_body(b, 1, test::cube_parts(r, 1000.0), Vec3(0, 0, 0), Vec3(0.05, 0, 0),
                       Vec3(0.1, 0.2, 0.3));
        add_rigid_body(b, 2, test::cube_parts(r, 1000.0), Vec3(4 * r - depth, 0, 0),
                       Vec3(-0.05, 0, 0), Vec3(-0.2, 0.1, 0.0));
    } else { // rigid_wall
        add_rigid_body(b, 1, test::cube_parts(0.5, 1000.0), Vec3(0, 0, 1.0 - 2e-3),
                       Vec3(0, 0, -0.01), Vec3(0.3, 0, 0),
                       Quat(Eigen::AngleAxisd(0.01, Vec3::UnitY())));
    }
    return b;
}

TEST(EngineBits, EveryOverlapStrategyOnEveryPairKind) {
    const std::vector<std::pair<OverlapStrategy, std::string>> strategies{
        {OverlapStrategy::trace_back, "trace_back"},
        {OverlapStrategy::push_apart, "push_apart"},
        {OverlapStrategy::repulse, "repulse"},
        {OverlapStrategy::merge, "merge"}};
    for (const std::string kind : {"sphere_pair", "sphere_wall", "rigid_pair", "rigid_wall"}) {
        for (const auto& [strategy, name] : strategies) {
            CollisionConfig c;
            c.overlaps = strategy;
            c.eps_n = 0.7;
            c.log = true;
            if (kind == "sphere_wall" || kind == "rigid_wall") c.walls = {boundaries::Wall{}};
            const DriftStats s = fingerprint(kind + "_" + name, overlapping(kind), c, 0.05);
            EXPECT_GT(s.overlaps, 0) << kind << " " << name;
        }
    }
}

} // namespace
} // namespace rubble::collisions
