// SPDX-License-Identifier: MIT
// Sticking (rigid_merge.hpp): two bodies become one aggregate with momentum and angular momentum
// conserved to round-off, the mass properties of the union of their spheres, no sphere moved,
// and the analytic kinetic energy loss.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "aggregates.hpp"
#include "rubble/collisions/merge.hpp"
#include "rubble/collisions/rigid_merge.hpp"
#include "rubble/core/rigid_body.hpp"
#include "tolerances.hpp"

using namespace rubble;
using namespace rubble::collisions;
using test::eps;

namespace {

// Round-off allowance: mass properties and L are sums over the spheres of a few products each;
// summation_bound with n = 64 terms covers the up to 12 spheres and the 3x3 products here.
const double merge_round_off = test::summation_bound(64);

enum class Kind { aggregate, sphere };

void add_body(Bodies& b, std::int64_t id, Kind kind, double scale, Rng& rng) {
    const Vec3 v = rng.in_ball(1.0), w = rng.in_ball(2.0);
    if (kind == Kind::sphere) {
        b.add_sphere(id, sphere_mass(2000.0, scale), scale, rng.in_ball(10.0), v, w);
    } else {
        const int count = 2 + static_cast<int>(rng.uniform() * 5.0);
        add_rigid_body(b, id, test::random_cluster(rng, count, scale, 2000.0), rng.in_ball(10.0), v,
                       w, test::random_rotation(rng));
    }
}

struct MergeTotals {
    double mass = 0;
    Vec3 momentum = Vec3::Zero(), angular_momentum = Vec3::Zero(); // L about the origin
    double kinetic = 0, momentum_scale = 0, angular_scale = 0;
};

// Momentum, angular momentum and kinetic energy summed over every sphere as a rigid part of its
// body (sphere s at x_s moving with v + w x (x_s - x), own spin w): apart from the bodies'
// inertia tensors. The spheres of flagged bodies are left out.
MergeTotals sphere_totals(const Bodies& b, const std::vector<std::uint8_t>& removed) {
    MergeTotals t;
    for (std::size_t s = 0; s < b.spheres.size(); ++s) {
        const auto k = static_cast<std::size_t>(b.spheres.body[s]);
        if (removed[k]) continue;
        const double m = b.spheres.mass[s], own = solid_sphere_inertia(m, b.spheres.radius[s]);
        const Vec3 x = sphere_centre(b, s);
        const Vec3 v = b.vel[k] + b.spin[k].cross(x - b.pos[k]);
        t.mass += m;
        t.momentum += m * v;
        t.angular_momentum += m * x.cross(v) + own * b.spin[k];
        t.kinetic += 0.5 * m * v.squaredNorm() + 0.5 * own * b.spin[k].squaredNorm();
        t.momentum_scale += m * v.norm();
        t.angular_scale += m * x.norm() * v.norm() + own * b.spin[k].norm();
    }
    return t;
}

std::vector<Vec3> centres(const Bodies& b, std::size_t k, const Vec3& shift) {
    std::vector<Vec3> c;
    for (std::size_t s = 0; s < b.spheres.size(); ++s)
        if (b.spheres.body[s] == static_cast<std::int64_t>(k))
            c.push_back(sphere_centre(b, s) + shift);
    return c;
}

} // namespace

TEST(RigidMerge, StickingConservesMomentumAngularMomentumAndBuildsTheUnion) {
    Rng rng(21);
    int ran = 0;
    for (const Kind a : {Kind::aggregate, Kind::sphere})
        for (const Kind c : {Kind::aggregate, Kind::sphere})
            for (const double ratio : {0.1, 1.0, 10.0})
                for (int k = 0; k < 10; ++k) {
                    Bodies b;
                    add_body(b, 5, Kind::sphere, 0.5, rng); // a bystander in row 0
                    add_body(b, 40 + k, a, 1.0, rng);
                    add_body(b, 20 + k, c, std::cbrt(ratio), rng);
                    add_body(b, 9, Kind::aggregate, 0.5, rng); // and one in row 3
                    test::touch(b, 1, 2, rng);
                    const Bodies before = b;
                    std::vector<std::uint8_t> removed(b.size(), 0);
                    const MergeTotals t0 = sphere_totals(b, removed);
                    // The union, as a set of spheres in the inertial frame, survivor's first.
                    const bool keep_1 = first_survives(b.mass[1], b.id[1], b.mass[2], b.id[2]);
                    std::vector<SpherePart> parts;
                    for (const std::size_t body : {keep_1 ? 1u : 2u, keep_1 ? 2u : 1u}) {
                        const std::vector<Vec3> cs = centres(b, body, Vec3::Zero());
                        std::size_t s = 0;
                        for (std::size_t r = 0; r < b.spheres.size(); ++r)
                            if (b.spheres.body[r] == static_cast<std::int64_t>(body))
                                parts.push_back({cs[s++], b.spheres.radius[r], b.spheres.mass[r]});
                    }
                    const MassProperties want = mass_properties(parts);

                    const StickOutcome o = stick_bodies(b, 1, 2, removed);
                    ++ran;
                    EXPECT_EQ(o.survivor, keep_1 ? 1u : 2u);
                    EXPECT_EQ(removed, std::vector<std::uint8_t>(
                                           {0, static_cast<std::uint8_t>(keep_1 ? 0 : 1),
                                            static_cast<std::uint8_t>(keep_1 ? 1 : 0), 0}));
                    const MergeTotals t1 = sphere_totals(b, removed);
                    EXPECT_LT((t1.momentum - t0.momentum).norm(),
                              merge_round_off * (t0.momentum_scale + t1.momentum_scale));
                    EXPECT_LT((t1.angular_momentum - t0.angular_momentum).norm(),
                              merge_round_off * (t0.angular_scale + t1.angular_scale));
                    EXPECT_NEAR(t0.kinetic - t1.kinetic, o.energy_loss,
                                merge_round_off * (t0.kinetic + t1.kinetic));
                    EXPECT_GE(o.energy_loss, -merge_round_off * t0.kinetic);

                    // The analytic loss, from the union's inertia tensor.
                    const double m1 = before.mass[1], m2 = before.mass[2], m = m1 + m2;
                    const Vec3 x = (m1 * before.pos[1] + m2 * before.pos[2]) / m;
                    const Vec3 v = (m1 * before.vel[1] + m2 * before.vel[2]) / m;
                    Vec3 l = Vec3::Zero();
                    double spin_energy = 0.0;
                    for (const std::size_t k2 : {1u, 2u}) {
                        const Mat3 ik = inertia_tensor(before, k2);
                        l += before.mass[k2] * (before.pos[k2] - x).cross(before.vel[k2] - v) +
                             ik * before.spin[k2];
                        spin_energy += 0.5 * before.spin[k2].dot(ik * before.spin[k2]);
                    }
                    const double analytic =
                        0.5 * m1 * m2 / m * (before.vel[2] - before.vel[1]).squaredNorm() +
                        spin_energy - 0.5 * l.dot(want.inertia.inverse() * l);
                    EXPECT_NEAR(o.energy_loss, analytic,
                                merge_round_off * (t0.kinetic + t1.kinetic));

                    // No sphere moved, and the new body has the union's mass properties.
                    const std::size_t s = o.survivor;
                    const std::vector<Vec3> now = centres(b, s, Vec3::Zero());
                    ASSERT_EQ(now.size(), parts.size());
                    for (std::size_t p = 0; p < parts.size(); ++p)
                        EXPECT_LT((now[p] - parts[p].centre).norm(),
                                  merge_round_off * (parts[p].centre.norm() + b.radius[s]));
                    EXPECT_NEAR(b.mass[s], want.mass, merge_round_off * want.mass);
                    EXPECT_LT((b.pos[s] - want.centre).norm(),
                              merge_round_off * (want.centre.norm() + b.radius[s]));
                    EXPECT_LT((inertia_tensor(b, s) - want.inertia).norm(),
                              merge_round_off * want.inertia.norm());
                    EXPECT_NEAR(b.radius[s], want.bounding_radius,
                                merge_round_off * (want.centre.norm() + want.bounding_radius));
                    EXPECT_EQ(b.free_path[s], 0.0);

                    remove_flagged(b, removed);
                    ASSERT_EQ(b.size(), 3u);
                    EXPECT_NO_THROW(b.check_consistent());
                    EXPECT_EQ(b.id[0], 5);
                    EXPECT_EQ(b.id[2], 9);
                    EXPECT_EQ(b.id[1], keep_1 ? 40 + k : 20 + k);
                    // The bystanders are untouched.
                    EXPECT_EQ(b.pos[0], before.pos[0]);
                    EXPECT_EQ(b.pos[2], before.pos[3]);
                    EXPECT_EQ(centres(b, 2, Vec3::Zero()), centres(before, 3, Vec3::Zero()));
                }
    EXPECT_EQ(ran, 120);
}

TEST(RigidMerge, APeriodicImageSticksWhereItTouches) {
    // Body j touches i through the periodic boundary: its image at x_j + shift joins i. The
    // union sits in the survivor's own image.
    for (const double mass_j : {0.5, 2.0}) {
        Bodies b;
        b.add_sphere(1, 1.0, 0.5, Vec3(4.8, 0, 0), Vec3(1, 0, 0), Vec3::Zero());
        b.add_sphere(2, mass_j, 0.5, Vec3(-4.9, 0.3, 0), Vec3(-1, 0, 0), Vec3(0, 0, 1));
        const Vec3 shift(10.0, 0, 0);
        const std::vector<Vec3> want{Vec3(4.8, 0, 0), Vec3(5.1, 0.3, 0)};
        std::vector<std::uint8_t> removed(2, 0);
        const StickOutcome o = stick_bodies(b, 0, 1, removed, shift);
        const Vec3 image = o.survivor == 0 ? Vec3::Zero() : shift;
        const std::vector<Vec3> got = centres(b, o.survivor, image);
        ASSERT_EQ(got.size(), 2u);
        EXPECT_EQ(o.survivor, mass_j > 1.0 ? 1u : 0u);
        // The survivor's sphere first, then the absorbed one's.
        const std::size_t first = o.survivor == 0 ? 0 : 1;
        EXPECT_LT((got[0] - want[first]).norm(), merge_round_off * 10.0);
        EXPECT_LT((got[1] - want[1 - first]).norm(), merge_round_off * 10.0);
        remove_flagged(b, removed);
        EXPECT_NO_THROW(b.check_consistent());
    }
}

TEST(RigidMerge, RejectsARowWithItselfOrAMissingFlag) {
    Bodies b;
    b.add_sphere(1, 1.0, 0.5, Vec3::Zero(), Vec3::Zero(), Vec3::Zero());
    b.add_sphere(2, 1.0, 0.5, Vec3(1, 0, 0), Vec3::Zero(), Vec3::Zero());
    std::vector<std::uint8_t> removed(2, 0), short_flags(1, 0);
    EXPECT_THROW((void)stick_bodies(b, 0, 0, removed), std::invalid_argument);
    EXPECT_THROW((void)stick_bodies(b, 0, 1, short_flags), std::invalid_argument);
}
