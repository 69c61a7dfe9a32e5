// SPDX-License-Identifier: MIT
#include <cmath>

#include <gtest/gtest.h>

#include "rubble/collisions/find_overlaps.hpp"
#include "rubble/core/error.hpp"
#include "rubble/core/polyhedron.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/ic/aggregates.hpp"
#include "rubble/ic/generators.hpp"
#include "rubble/ic/validate.hpp"
#include "rubble/integrate/diagnostics.hpp"
#include "tolerances.hpp"

using namespace rubble;
using namespace rubble::ic;
using rubble::test::eps;

TEST(Cloud, SpheresAreInsideTheSphereAndDoNotOverlap) {
    CloudConfig c;
    c.n = 3000;
    c.size = 100.0;
    c.radii = {RadiusDistribution::uniform, 1.0, 0.5, 2.0, 0.0};
    Rng rng(11);
    const Bodies b = make_cloud(c, rng);
    ASSERT_EQ(b.size(), 3000u);
    for (std::size_t i = 0; i < b.size(); ++i) {
        EXPECT_LE(b.pos[i].norm() + b.radius[i], c.size * (1 + 4 * eps));
        EXPECT_NEAR(b.mass[i], sphere_mass(c.density, b.radius[i]), 4 * eps * b.mass[i]);
        EXPECT_NEAR(b.inertia[i].x(), 0.4 * b.mass[i] * b.radius[i] * b.radius[i],
                    4 * eps * b.inertia[i].x());
    }
    EXPECT_TRUE(collisions::find_overlaps(b, collisions::default_overlap_tolerance).empty());
}

TEST(Cloud, CubeRegionAndSeedReproducibility) {
    CloudConfig c;
    c.n = 500;
    c.region = Region::cube;
    c.size = 40.0;
    c.radii.radius = 1.0;
    Rng r1(5), r2(5);
    const Bodies a = make_cloud(c, r1), b = make_cloud(c, r2);
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_LE(a.pos[i].cwiseAbs().maxCoeff() + 1.0, 20.0 * (1 + 4 * eps));
        EXPECT_EQ(a.pos[i], b.pos[i]);
    }
}

// The gap of a Taylor-Couette cell: every sphere entirely inside the annulus, none
// overlapping, and the centres uniform in area (half of them beyond the radius that halves
// the reachable area, to within 4 binomial sigmas).
TEST(Cloud, AnnulusRegion) {
    CloudConfig c;
    c.n = 2000;
    c.region = Region::annulus;
    c.size = 10.0;
    c.inner_radius = 5.0;
    c.height = 4.0;
    c.radii.radius = 0.2;
    Rng rng(3);
    const Bodies b = make_cloud(c, rng);
    ASSERT_EQ(b.size(), 2000u);
    const double a = c.inner_radius + 0.2, o = c.size - 0.2;
    const double half = std::sqrt(0.5 * (a * a + o * o));
    int beyond = 0;
    for (std::size_t i = 0; i < b.size(); ++i) {
        const double rho = std::hypot(b.pos[i].x(), b.pos[i].y());
        EXPECT_GE(rho - 0.2, c.inner_radius * (1 - 4 * eps));
        EXPECT_LE(rho + 0.2, c.size * (1 + 4 * eps));
        EXPECT_LE(std::abs(b.pos[i].z()) + 0.2, 0.5 * c.height * (1 + 4 * eps));
        beyond += rho > half;
    }
    EXPECT_NEAR(beyond, 1000, 4 * std::sqrt(2000 * 0.25));
    EXPECT_TRUE(collisions::find_overlaps(b, collisions::default_overlap_tolerance).empty());
}

TEST(Cloud, TooDenseIsRefusedWithAClearMessage) {
    CloudConfig c;
    c.n = 2000;
    c.size = 10.0; // volume fraction 2000 / 1000 = 2: impossible
    c.radii.radius = 1.0;
    Rng rng(1);
    try {
        (void)make_cloud(c, rng);
        FAIL() << "expected InputError";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("random-packing limit"), std::string::npos);
    }
}

TEST(RadiusDistribution, PowerLawMeanMatchesTheAnalyticMean) {
    // p(R) = (1-q) R^-q / (b^(1-q) - a^(1-q)); <R> = (1-q)/(2-q) (b^(2-q) - a^(2-q)) /
    // (b^(1-q) - a^(1-q)). The sample mean of n draws has standard error sigma / sqrt(n).
    const RadiusSpec s{RadiusDistribution::power_law, 0.0, 1.0, 10.0, 3.5};
    const double a = 1.0, b = 10.0, q = 3.5;
    const double mean = (1 - q) / (2 - q) * (std::pow(b, 2 - q) - std::pow(a, 2 - q)) /
                        (std::pow(b, 1 - q) - std::pow(a, 1 - q));
    const double mean2 = (1 - q) / (3 - q) * (std::pow(b, 3 - q) - std::pow(a, 3 - q)) /
                         (std::pow(b, 1 - q) - std::pow(a, 1 - q));
    const int n = 200000;
    Rng rng(2);
    double sum = 0.0, lo = 1e300, hi = 0.0;
    for (int i = 0; i < n; ++i) {
        const double r = draw_radius(s, rng);
        sum += r;
        lo = std::min(lo, r);
        hi = std::max(hi, r);
    }
    const double sigma = std::sqrt(mean2 - mean * mean);
    EXPECT_NEAR(sum / n, mean, 5.0 * sigma / std::sqrt(n)); // 5 standard errors
    EXPECT_GE(lo, a);
    EXPECT_LE(hi, b);
}

TEST(Lattice, TouchingSpheresAreNotOverlaps) {
    LatticeConfig c{4, 3, 2, 2.0, 1.0, 3000.0};
    const Bodies b = make_lattice(c);
    ASSERT_EQ(b.size(), 24u);
    EXPECT_TRUE(collisions::find_overlaps(b, collisions::default_overlap_tolerance).empty());
    Vec3 centre = Vec3::Zero();
    for (const auto& p : b.pos)
        centre += p;
    EXPECT_NEAR(centre.norm(), 0.0, 64 * eps);
    EXPECT_NO_THROW(validate_bodies(b, "lattice"));
}

TEST(TwoBody, EnergyAndAngularMomentumAreKeplers) {
    const TwoBodyConfig c{3.0, 1.0, 0.01, 0.01, 2.0, 0.5};
    const double G = 1.5;
    const Bodies b = make_two_body(c, G);
    const double r = (b.pos[1] - b.pos[0]).norm();
    const std::vector<double> phi{-G * c.m2 / r, -G * c.m1 / r};
    const auto d = integrate::compute_diagnostics(b, phi, 0, 0);
    // E = -G m1 m2 / (2a); |L| = mu sqrt(G M a (1 - e^2)) (Murray & Dermott 1999, 2.4).
    const double mu = c.m1 * c.m2 / (c.m1 + c.m2);
    EXPECT_NEAR(d.total_energy, -G * c.m1 * c.m2 / (2 * c.a), 16 * eps);
    EXPECT_NEAR(d.angular_momentum.norm(), mu * std::sqrt(G * 4.0 * c.a * (1 - 0.25)), 16 * eps);
    EXPECT_NEAR(d.momentum.norm(), 0.0, 16 * eps);
    EXPECT_NEAR(r, c.a * (1 - c.e), 16 * eps);
}

TEST(Motion, SolidBodyRotationAndRandomSpeeds) {
    LatticeConfig c{3, 3, 3, 3.0, 1.0, 1000.0};
    Bodies b = make_lattice(c);
    Rng rng(9);
    apply_motion(b, {0.0, 0.0, 0.2}, rng);
    for (std::size_t i = 0; i < b.size(); ++i)
        EXPECT_NEAR((b.vel[i] - Vec3(0, 0, 0.2).cross(b.pos[i])).norm(), 0.0, 64 * eps);
    Bodies d = make_lattice(c);
    apply_motion(d, {1.5, 0.7, 0.0}, rng);
    for (std::size_t i = 0; i < d.size(); ++i) {
        EXPECT_NEAR(d.vel[i].norm(), 1.5, 16 * eps);
        EXPECT_NEAR(d.spin[i].norm(), 0.7, 16 * eps);
    }
}

TEST(Validate, OverlapNamesThePairAndTheDepth) {
    Bodies b;
    b.add_sphere(10, 1.0, 1.0, Vec3(0, 0, 0), Vec3::Zero(), Vec3::Zero());
    b.add_sphere(20, 1.0, 1.0, Vec3(5, 0, 0), Vec3::Zero(), Vec3::Zero());
    b.add_sphere(30, 1.0, 1.0, Vec3(1.5, 0, 0), Vec3::Zero(), Vec3::Zero());
    const auto r = collisions::find_overlaps(b, collisions::default_overlap_tolerance);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_DOUBLE_EQ(r[0].depth, 0.5);
    try {
        validate_bodies(b, "f.h5");
        FAIL();
    } catch (const InputError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("ids 10 and 30 overlap by 0.5 m"), std::string::npos) << msg;
    }
}

TEST(Validate, AggregatesAndPolyhedraAreCheckedByTheirShapes) {
    // A settled pile's grains have their bounding spheres deep in each other while their
    // shapes only touch: that starts a run; shapes in each other do not, named with the depth.
    const std::vector<SpherePart> pair = {{Vec3(-1, 0, 0), 1.0, 1.0}, {Vec3(1, 0, 0), 1.0, 1.0}};
    const auto dumbbells = [&](double dy) { // side by side along y, bounding radius 2 each
        Bodies b;
        add_rigid_body(b, 1, pair, Vec3::Zero(), Vec3::Zero(), Vec3::Zero());
        add_rigid_body(b, 2, pair, Vec3(0, dy, 0), Vec3::Zero(), Vec3::Zero());
        return b;
    };
    validate_bodies(dumbbells(2.0), "f.h5"); // touching, bounding spheres 2 m deep
    try {
        validate_bodies(dumbbells(1.8), "f.h5");
        FAIL() << "overlapping aggregates accepted";
    } catch (const InputError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("f.h5: 1 pair(s) of bodies whose shapes overlap; deepest: ids 1 and 2 "
                           "overlap by 0.2 m"),
                  std::string::npos)
            << msg;
    }
    const auto cubes = [](double dx) { // side 2, bounding radius sqrt 3, faces dx - 2 apart
        Bodies b;
        const auto shape = b.add_hull_shape(shapes::make_polyhedron(box_hull(Vec3::Constant(2.0))));
        add_polyhedron(b, 5, shape, 1000.0, Vec3::Zero(), Vec3::Zero(), Vec3::Zero());
        add_polyhedron(b, 6, shape, 1000.0, Vec3(dx, 0, 0), Vec3::Zero(), Vec3::Zero());
        return b;
    };
    validate_bodies(cubes(2.0 + 1e-9), "f.h5"); // bounding spheres 1.46 m deep
    validate_bodies(cubes(1.99), "f.h5", 0.01); // 0.01 m deep, within 1 % of the radii
    try {
        validate_bodies(cubes(1.9), "f.h5");
        FAIL() << "overlapping hulls accepted";
    } catch (const InputError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("ids 5 and 6 overlap by 0.1"), std::string::npos) << msg;
    }
}

TEST(Validate, BadValuesNameTheBody) {
    Bodies b;
    b.add_sphere(4, 1.0, 1.0, Vec3(0, 0, 0), Vec3::Zero(), Vec3::Zero());
    b.set_free_sphere(0, 1.0, -1.0);
    EXPECT_THROW(validate_bodies(b, "x"), InputError);
    b.set_free_sphere(0, 1.0, 1.0);
    b.pos[0].x() = std::nan("");
    try {
        validate_bodies(b, "x");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("body id 4: position"), std::string::npos);
    }
}

// An overfull region (volume fraction 2) is refused by config::check_new_run before placement; the
// generator itself still gives up after a bounded number of attempts rather than for ever.
TEST(Cloud, PlacementGivesUpAfterABoundedNumberOfAttempts) {
    CloudConfig c;
    c.n = 2000;
    c.size = 10.0;
    c.radii.radius = 1.0;
    Rng rng(3);
    try {
        (void)make_cloud(c, rng);
        ADD_FAILURE() << "an overfull cloud was placed";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("attempts"), std::string::npos) << e.what();
    }
}
