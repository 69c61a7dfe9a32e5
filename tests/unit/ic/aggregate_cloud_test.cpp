// SPDX-License-Identifier: MIT
// The cloud generator with rigid aggregates: bounding spheres apart and inside the region,
// every body's stored mass properties those of its spheres, and the momentum and angular
// momentum that v0, w0 and Omega ask for, summed over the spheres.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "rubble/core/rigid_body.hpp"
#include "rubble/ic/generators.hpp"
#include "rubble/ic/validate.hpp"
#include "temp_dir.hpp"
#include "tolerances.hpp"

using namespace rubble;
using namespace rubble::ic;

namespace {

CloudConfig aggregate_cloud(GrainKind kind) {
    CloudConfig c;
    c.n = 150;
    c.size = 60.0;
    c.radii = {RadiusDistribution::uniform, 1.0, 1.0, 3.0, 0.0};
    c.grain.kind = kind;
    c.grain.spheres_per_grain = 12;
    c.grain.aspect = Vec3(1.0, 0.8, 0.5);
    c.grain.layout = {SpherePart{Vec3(0, 0, 0), 1.0, 0}, SpherePart{Vec3(1.5, 0, 0), 0.7, 0},
                      SpherePart{Vec3(0, 1.2, 0.4), 0.6, 0}};
    return c;
}

std::vector<SpherePart> parts_of(const Bodies& b, std::size_t k) {
    std::vector<SpherePart> parts;
    for (std::size_t s = 0; s < b.spheres.size(); ++s)
        if (static_cast<std::size_t>(b.spheres.body[s]) == k)
            parts.push_back(
                SpherePart{b.spheres.offset[s], b.spheres.radius[s], b.spheres.mass[s]});
    return parts;
}

class AggregateCloud : public ::testing::TestWithParam<GrainKind> {};

} // namespace

TEST_P(AggregateCloud, BoundingSpheresApartAndMassPropertiesFromTheSpheres) {
    const CloudConfig c = aggregate_cloud(GetParam());
    Rng rng(21);
    const Bodies b = make_cloud(c, rng);
    ASSERT_EQ(b.size(), static_cast<std::size_t>(c.n));
    b.check_consistent();
    validate_bodies(b, "test");
    EXPECT_GT(b.spheres.size(), 2 * b.size());
    for (std::size_t i = 0; i < b.size(); ++i) {
        EXPECT_LE(b.pos[i].norm() + b.radius[i], c.size * (1 + 4 * test::eps));
        for (std::size_t j = i + 1; j < b.size(); ++j)
            EXPECT_GE((b.pos[i] - b.pos[j]).norm(), b.radius[i] + b.radius[j]) << i << " " << j;
        const std::vector<SpherePart> parts = parts_of(b, i);
        const MassProperties p = mass_properties(parts);
        const double tol = test::summation_bound(static_cast<double>(parts.size()));
        EXPECT_NEAR(p.mass, b.mass[i], tol * b.mass[i]);
        EXPECT_NEAR(p.centre.norm(), 0.0, tol * b.radius[i]); // offsets from the centre of mass
        EXPECT_NEAR(p.bounding_radius, b.radius[i], tol * b.radius[i]);
        // The stored tensor (moments and principal axes, in the body frame) is the spheres'.
        const Mat3 axes = b.principal_axes[i].toRotationMatrix();
        const Mat3 stored = axes * b.inertia[i].asDiagonal() * axes.transpose();
        EXPECT_LE((stored - p.inertia).cwiseAbs().maxCoeff(), 4 * tol * p.moments.maxCoeff());
        EXPECT_NEAR(b.orientation[i].norm(), 1.0, 4 * test::eps);
    }
    // Random orientations: not all the same.
    EXPECT_GT(b.orientation[0].angularDistance(b.orientation[1]), 1e-3);
}

TEST_P(AggregateCloud, MomentumAndAngularMomentumAreWhatV0W0AndOmegaAskFor) {
    const CloudConfig c = aggregate_cloud(GetParam());
    Rng rng(5);
    Bodies b = make_cloud(c, rng);
    Rng replay = rng; // the draws apply_motion makes next
    const MotionConfig motion{0.3, 0.05, 0.002};
    apply_motion(b, motion, rng);
    double m = 0.0;
    Vec3 centre = Vec3::Zero();
    for (std::size_t k = 0; k < b.size(); ++k) {
        m += b.mass[k];
        centre += b.mass[k] * b.pos[k];
    }
    centre /= m;
    // Expected: each body v0 along its drawn direction plus Omega z x (x - centre), spin w0
    // about its drawn axis; momentum and angular momentum summed over the spheres, each a
    // solid sphere moving with its body.
    Vec3 p_want = Vec3::Zero(), l_want = Vec3::Zero(), p_got = Vec3::Zero(), l_got = Vec3::Zero();
    double p_scale = 0.0, l_scale = 0.0;
    for (std::size_t k = 0; k < b.size(); ++k) {
        const Vec3 v_dir = replay.unit_vector(), w_dir = replay.unit_vector();
        const Vec3 v = motion.v0 * v_dir + Vec3(0, 0, motion.omega).cross(b.pos[k] - centre);
        const Vec3 w = motion.w0 * w_dir;
        for (const SpherePart& s : parts_of(b, k)) {
            const Vec3 r = b.orientation[k] * s.centre;
            const Vec3 x = b.pos[k] + r, u = v + w.cross(r);
            p_want += s.mass * u;
            l_want += s.mass * x.cross(u) + solid_sphere_inertia(s.mass, s.radius) * w;
            p_scale += s.mass * u.norm();
            l_scale +=
                s.mass * x.norm() * u.norm() + solid_sphere_inertia(s.mass, s.radius) * w.norm();
        }
        p_got += b.mass[k] * b.vel[k];
        l_got += b.mass[k] * b.pos[k].cross(b.vel[k]) + inertia_tensor(b, k) * b.spin[k];
    }
    const double tol = test::summation_bound(static_cast<double>(b.spheres.size()));
    EXPECT_LE((p_got - p_want).norm(), tol * p_scale);
    EXPECT_LE((l_got - l_want).norm(), tol * l_scale);
}

INSTANTIATE_TEST_SUITE_P(Kinds, AggregateCloud,
                         ::testing::Values(GrainKind::cube, GrainKind::box, GrainKind::tetrahedron,
                                           GrainKind::hull, GrainKind::file),
                         [](const auto& param_info) {
                             return std::string(enum_name(grain_kind_names, param_info.param));
                         });

TEST(AggregateCloudMatch, MatchedHullGrainsHaveTheirHullsMass) {
    CloudConfig c = aggregate_cloud(GrainKind::hull);
    c.grain.spheres_per_grain = 40;
    c.grain.match_hull = true;
    c.n = 20;
    Rng rng(3);
    const Bodies b = make_cloud(c, rng);
    validate_bodies(b, "test");
    for (std::size_t k = 0; k < b.size(); ++k) {
        // The hull's mass is density x volume <= density x 4/3 pi R^3 (R the circumradius,
        // here the bounding radius up to the matched spheres' reach).
        EXPECT_LT(b.mass[k], sphere_mass(c.density, b.radius[k]));
        EXPECT_GT(b.mass[k], 0.0);
    }
}
