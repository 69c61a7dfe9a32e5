// SPDX-License-Identifier: MIT
// Aggregate builders: lattice fills (counts, connectivity, touching neighbours), the overlap
// convention against the exact union of two spheres, the hull match and its residual, and
// layouts read from files.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "rubble/core/error.hpp"
#include "rubble/core/polyhedron_mass.hpp"
#include "rubble/ic/aggregates.hpp"
#include "temp_dir.hpp"
#include "tolerances.hpp"

using namespace rubble;
using namespace rubble::ic;

namespace {

GrainConfig grain(GrainKind kind, std::int64_t k) {
    GrainConfig g;
    g.kind = kind;
    g.spheres_per_grain = k;
    g.aspect = Vec3(1.0, 0.7, 0.5);
    return g;
}

void expect_refused(const std::string& path, const std::string& what) {
    try {
        (void)read_layout(path, 1000.0);
        ADD_FAILURE() << "expected a refusal mentioning '" << what << "'";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
}

} // namespace

TEST(Aggregates, CubeFillsHitPerfectCubesExactly) {
    for (std::int64_t n = 2; n <= 7; ++n) {
        const shapes::ConvexHull cube = box_hull(Vec3::Constant(1.0));
        const auto parts = fill_hull_count(cube, n * n * n, 1000.0);
        ASSERT_EQ(static_cast<std::int64_t>(parts.size()), n * n * n);
        EXPECT_TRUE(is_connected(parts));
        // Neighbours touch and fill the cube: spacing = 2 R = edge / n (to the 2^-20 of the
        // spacing search).
        EXPECT_NEAR(parts.front().radius, 0.5 / static_cast<double>(n),
                    0x1p-19 / static_cast<double>(n));
        const MassProperties p = mass_properties(parts);
        EXPECT_NEAR(p.centre.norm(), 0.0, 64 * test::eps);
        EXPECT_NEAR(p.moments[0], p.moments[2], test::summation_bound(400) * p.moments[2]);
    }
}

TEST(Aggregates, EveryKindFromTwoToSeveralHundredSpheresIsConnected) {
    Rng rng(4);
    std::vector<std::string> rows;
    for (GrainKind kind :
         {GrainKind::cube, GrainKind::box, GrainKind::tetrahedron, GrainKind::hull}) {
        for (std::int64_t k : {2, 3, 5, 8, 13, 30, 100, 300, 500}) {
            const auto parts = make_grain(grain(kind, k), 2.0, 1000.0, rng);
            EXPECT_GE(parts.size(), 2u);
            EXPECT_TRUE(is_connected(parts)) << enum_name(grain_kind_names, kind) << " " << k;
            // The lattice moves in steps; beyond a few spheres the closest count is within
            // one layer of the target.
            if (k >= 30) {
                EXPECT_LT(std::abs(static_cast<double>(parts.size()) - static_cast<double>(k)),
                          0.3 * static_cast<double>(k))
                    << enum_name(grain_kind_names, kind) << " " << k << ": " << parts.size();
            }
            // Every centre inside the hull scaled to size 2: bounding radius <= 2 + R.
            EXPECT_LE(mass_properties(parts).bounding_radius, 2.0 + parts.front().radius + 1e-12);
        }
    }
}

TEST(Aggregates, FillAtAGivenSphereRadius) {
    GrainConfig g = grain(GrainKind::box, 0);
    g.sphere_radius = 0.1;
    Rng rng(1);
    const auto parts = make_grain(g, 2.0, 1000.0, rng);
    EXPECT_TRUE(is_connected(parts));
    for (const SpherePart& q : parts)
        EXPECT_EQ(q.radius, 0.1);
    g.sphere_radius = 10.0; // larger than the grain
    EXPECT_THROW((void)make_grain(g, 2.0, 1000.0, rng), InputError);
}

TEST(Aggregates, OverlapConventionCountsTheLensTwice) {
    // pkdgrav's convention: mass_properties sums solid spheres. Against the exact union of two
    // equal spheres its mass is too large by exactly the lens, its axial moment by the lens's.
    const double r = 1.0, rho = 1000.0;
    for (double d : {2.0, 1.9, 1.5, 1.0, 0.5}) {
        const double m = sphere_mass(rho, r);
        const MassProperties p = mass_properties(
            {SpherePart{Vec3(-0.5 * d, 0, 0), r, m}, SpherePart{Vec3(0.5 * d, 0, 0), r, m}});
        const TwoSphereUnion u = two_sphere_union(r, d, rho);
        // The closed form against a stack of disks integrated by Simpson's rule (error
        // ~ h^4 f'''' / 180 with h = 2e-4: ~1e-14 relative, plus round-off of 1e4 terms).
        const int n = 10000;
        const double z0 = -0.5 * d - r, h = (d + 2 * r) / n;
        double vol = 0.0, axial = 0.0;
        for (int i = 0; i <= n; ++i) {
            const double z = z0 + i * h;
            const double a2 = std::max({0.0, r * r - (z + 0.5 * d) * (z + 0.5 * d),
                                        r * r - (z - 0.5 * d) * (z - 0.5 * d)});
            const double w = (i == 0 || i == n) ? 1.0 : (i % 2 ? 4.0 : 2.0);
            vol += w * pi * a2;
            axial += w * 0.5 * rho * pi * a2 * a2;
        }
        vol *= h / 3.0;
        axial *= h / 3.0;
        // The integrand has a kink where the spheres meet (d < 2r): Simpson's rule is then
        // first order there, O(h^2) in the integral.
        const double quad = d < 2.0 * r ? 10.0 * h * h : test::summation_bound(n);
        EXPECT_NEAR(u.volume, vol, quad * vol) << d;
        EXPECT_NEAR(u.axial_inertia, axial, quad * axial) << d;
        const double lens = pi * (4 * r + d) * (2 * r - d) * (2 * r - d) / 12.0;
        EXPECT_NEAR(p.mass - rho * u.volume, rho * lens, test::summation_bound(8) * p.mass);
        std::cout << "d/r = " << d / r << ": mass +" << 100 * (p.mass / (rho * u.volume) - 1)
                  << " %, axial moment +" << 100 * (p.moments[0] / u.axial_inertia - 1) << " %\n";
    }
}

TEST(Aggregates, HullMatchGivesTheHullsMassAndInertiaTensor) {
    Rng rng(12);
    const double rho = 2000.0;
    for (int k : {30, 100, 300}) {
        double largest = 0.0, before = 0.0;
        for (int trial = 0; trial < 10; ++trial) {
            const shapes::ConvexHull hull = random_ellipsoid_hull(Vec3(1.0, 0.8, 0.6), rng);
            const MassProperties target = shapes::polyhedron_mass_properties(hull, rho);
            const auto fill =
                fill_hull_count(hull, static_cast<std::int64_t>(k), rho, FillRule::centres_inside);
            const HullMatch m = match_hull(hull, fill, rho);
            const MassProperties got = mass_properties(m.parts);
            EXPECT_TRUE(is_connected(m.parts));
            // Round-off of sums of 2K terms, and the stopping rule (stretches within 1e-13,
            // moments go as their square).
            const double tol = test::summation_bound(2.0 * k) + 4e-13;
            EXPECT_NEAR(got.mass, target.mass, tol * target.mass);
            EXPECT_NEAR((got.centre - target.centre).norm(), 0.0, tol * got.bounding_radius);
            EXPECT_EQ(m.residual, principal_moment_mismatch(got, target));
            EXPECT_LE(m.residual, tol);
            for (int i = 0; i < 3; ++i) // the whole tensor, not just its eigenvalues
                for (int j = 0; j < 3; ++j)
                    EXPECT_NEAR(got.inertia(i, j), target.inertia(i, j),
                                tol * target.moments.maxCoeff());
            largest = std::max(largest, m.residual);
            // For docs/aggregates.md: the plain fill at the hull's mass, before the match.
            MassProperties plain = mass_properties(fill);
            plain.moments *= target.mass / plain.mass;
            before = std::max(before, principal_moment_mismatch(plain, target));
        }
        std::cout << "K ~ " << k << ": principal moments of the plain fill off by up to " << before
                  << ", matched: residual " << largest << "\n";
    }
}

TEST(Aggregates, HullMatchRefusesFillsTooCoarseForTheHull) {
    // Four spheres in a square: no stretch gives the layout a thickness.
    const shapes::ConvexHull cube = box_hull(Vec3::Ones());
    std::vector<SpherePart> flat;
    for (int i = 0; i < 4; ++i)
        flat.push_back(SpherePart{Vec3(i & 1 ? 0.25 : -0.25, i & 2 ? 0.25 : -0.25, 0), 0.25, 1});
    EXPECT_THROW((void)match_hull(cube, flat, 1.0), InputError);
    // Two spheres of radius 0.5 in a slab 0.2 thick carry more inertia than the slab about
    // its in-plane axes' complement: 2/5 m R^2 > the slab's S along its normal x 2.
    const shapes::ConvexHull slab = box_hull(Vec3(2.0, 2.0, 0.2));
    const std::vector<SpherePart> pair{SpherePart{Vec3(-0.5, 0, 0), 0.5, 1},
                                       SpherePart{Vec3(0.5, 0, 0.01), 0.5, 1}};
    try {
        (void)match_hull(slab, pair, 1.0);
        FAIL() << "expected InputError";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("more spheres per grain"), std::string::npos);
    }
}

TEST(Aggregates, LayoutFileAndItsErrors) {
    test::TempDir dir;
    const std::string ok =
        dir.write("ok.txt", "# a dumbbell\n0 0 0 1.0\n\n1.5 0 0 0.5  # overlapping\n");
    const auto parts = read_layout(ok, 1000.0);
    ASSERT_EQ(parts.size(), 2u);
    EXPECT_EQ(parts[1].centre, Vec3(1.5, 0, 0));
    EXPECT_EQ(parts[1].mass, sphere_mass(1000.0, 0.5));
    expect_refused(dir.write("a.txt", "0 0 0 1\n0 0 x 1\n"),
                   "a.txt:2: \"x\" is not a finite number");
    expect_refused(dir.write("b.txt", "0 0 0 1\n\n1 0 0\n"),
                   "b.txt:3: \"1 0 0\": expected 4 numbers");
    expect_refused(dir.write("c.txt", "0 0 0 1\n1 0 0 -2\n"), "c.txt:2: radius -2: must be > 0");
    expect_refused(dir.write("d.txt", "0 0 0 1\n"), "d.txt: 1 sphere(s)");
    expect_refused(dir.write("e.txt", "0 0 0 1\n3 0 0 1\n"), "not connected");
    expect_refused(dir.write("f.txt", "0 0 0 1\n1 0 0 inf\n"), "f.txt:2: \"inf\"");
    expect_refused(dir.file("absent.txt"), "absent.txt: cannot read");
}

TEST(Aggregates, HullVertexFilesGiveTheirHullOrAClearRefusal) {
    test::TempDir dir;
    std::string cube = "# a unit cube and its centre\n";
    for (int i = 0; i < 8; ++i)
        cube += std::to_string(i & 1) + " " + std::to_string((i >> 1) & 1) + " " +
                std::to_string((i >> 2) & 1) + "\n";
    cube += "0.5 0.5 0.5 # inside: dropped\n";
    const shapes::ConvexHull h = read_hull_vertices(dir.write("cube.txt", cube));
    EXPECT_EQ(h.vertices.size(), 8u);
    EXPECT_NEAR(shapes::polyhedron_volume(h), 1.0, test::summation_bound(12));
    const auto refused = [&](const std::string& name, const std::string& text,
                             const std::string& what) {
        try {
            (void)read_hull_vertices(dir.write(name, text));
            ADD_FAILURE() << "expected a refusal mentioning '" << what << "'";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
        }
    };
    refused("a.txt", "0 0 0\n1 0 0 2\n", "a.txt:2: \"1 0 0 2\": expected 3 numbers");
    refused("b.txt", "0 0 0\n1 0 nan\n", "b.txt:2: \"nan\" is not a finite number");
    refused("c.txt", "0 0 0\n1 0 0\n0 1 0\n1 1 0\n", "c.txt: convex hull: all points are coplanar");
    refused("d.txt", "0 0 0\n1 0 0\n0 1 0\n", "d.txt: convex hull: needs at least 4 points");
    refused("e.txt", "0 0 0\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n", "coincide");
}

TEST(Aggregates, RandomOrientationsAreUnitAndIsotropic) {
    Rng rng(2);
    Vec3 mean = Vec3::Zero();
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
        const Quat q = random_orientation(rng);
        EXPECT_NEAR(q.norm(), 1.0, 4 * test::eps);
        mean += q * Vec3::UnitZ();
    }
    // The mean of n isotropic unit vectors has per-component sigma 1/sqrt(3n): 5 sigma.
    EXPECT_LT((mean / n).cwiseAbs().maxCoeff(), 5.0 / std::sqrt(3.0 * n));
}
