// SPDX-License-Identifier: MIT
// One cloud, three grain models (issue 22, item 7, first check): the scenario's three
// representations have the same masses (to round-off: each is the hull's volume times the
// density, computed by the same or matched sums), the same centres of mass, and with the same
// motion the same momenta; the aggregates' inertia tensors are the hulls' to the residual of
// match_hull (round-off); none starts overlapping. Tolerances: a few eps relative.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "rubble/core/error.hpp"
#include "rubble/core/polyhedron_mass.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/ic/scenario.hpp"
#include "rubble/ic/validate.hpp"

using namespace rubble;

namespace {

constexpr double eps = 2.220446049250313e-16;

ic::CloudConfig hulls(std::int64_t n) {
    ic::CloudConfig c;
    c.n = n;
    c.region = ic::Region::cube;
    c.size = 4000.0; // m
    c.radii.distribution = ic::RadiusDistribution::uniform;
    c.radii.radius_min = 40.0;
    c.radii.radius_max = 130.0; // Ferrari et al. 2017's boulders, 40 to 130 m
    c.density = 3000.0;
    c.grain.kind = ic::GrainKind::hull;
    c.grain.aspect = Vec3(1.0, 0.7, 0.5);
    c.grain.spheres_per_grain = 20;
    return c;
}

Vec3 momentum(const Bodies& b) {
    Vec3 p = Vec3::Zero();
    for (std::size_t k = 0; k < b.size(); ++k)
        p += b.mass[k] * b.vel[k];
    return p;
}

TEST(Scenario, ThreeRepresentationsShareMassesCentresMomentaAndInertia) {
    Rng rng(2017);
    const ic::Scenario s = ic::make_scenario(hulls(40), rng);
    ASSERT_EQ(s.grains.size(), 40u);
    ic::MotionConfig motion;
    motion.v0 = 0.15;    // m/s
    motion.w0 = 1e-2;    // rad/s
    motion.omega = 5e-5; // rad/s
    Bodies models[3];
    for (const auto m : {ic::Representation::polyhedron, ic::Representation::aggregate,
                         ic::Representation::sphere}) {
        Bodies b = ic::represent(s, m);
        Rng same(99); // the same motion for each model
        ic::apply_motion(b, motion, same);
        // Nothing overlaps: each model's bounding spheres are within the placement's.
        EXPECT_NO_THROW(ic::validate_bodies(b, "scenario", 0.0));
        models[static_cast<int>(m)] = std::move(b);
    }
    const Bodies &poly = models[0], &agg = models[1], &sph = models[2];
    ASSERT_EQ(poly.hulls.size(), 40u);
    ASSERT_EQ(agg.size(), 40u);
    ASSERT_TRUE(sph.all_free_spheres());
    double worst_moment = 0.0;
    for (std::size_t k = 0; k < 40; ++k) {
        SCOPED_TRACE(::testing::Message() << "grain " << k);
        const double m = poly.mass[k];
        EXPECT_NEAR(agg.mass[k], m, 16 * eps * m);
        EXPECT_NEAR(sph.mass[k], m, 16 * eps * m);
        EXPECT_EQ(agg.pos[k], poly.pos[k]);
        EXPECT_EQ(sph.pos[k], poly.pos[k]);
        // Velocities: the same draws; the solid-body part about centres of mass equal to
        // round-off.
        const double v = poly.vel[k].norm();
        EXPECT_LT((agg.vel[k] - poly.vel[k]).norm(), 64 * eps * v);
        EXPECT_LT((sph.vel[k] - poly.vel[k]).norm(), 64 * eps * v);
        EXPECT_EQ(agg.spin[k], poly.spin[k]);
        EXPECT_EQ(sph.spin[k], poly.spin[k]);
        // The aggregate's inertia tensor in the world is the hull's (match_hull).
        const Mat3 ip = inertia_tensor(poly, k), ia = inertia_tensor(agg, k);
        const double scale = poly.inertia[k].maxCoeff();
        worst_moment = std::max(worst_moment, (ia - ip).cwiseAbs().maxCoeff() / scale);
        // The sphere holds the hull's volume.
        EXPECT_NEAR(4.0 / 3.0 * pi * std::pow(sph.radius[k], 3),
                    shapes::polyhedron_volume(s.grains[k].hull),
                    16 * eps * shapes::polyhedron_volume(s.grains[k].hull));
    }
    EXPECT_LT(worst_moment, 1e-12);
    const Vec3 p = momentum(poly);
    const double scale = 40 * poly.mass[0] * 0.2;
    EXPECT_LT((momentum(agg) - p).norm(), 1e-13 * scale);
    EXPECT_LT((momentum(sph) - p).norm(), 1e-13 * scale);
}

TEST(Scenario, RefusesGrainsThatAreNotHulls) {
    ic::CloudConfig c = hulls(5);
    c.grain.kind = ic::GrainKind::sphere;
    Rng rng(1);
    EXPECT_THROW((void)ic::make_scenario(c, rng), InputError);
}

} // namespace
