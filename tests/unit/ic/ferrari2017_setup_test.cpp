// SPDX-License-Identifier: MIT
// params/ferrari2017/campaign.toml against the paper's definitions (issue 35, items 1 and 6;
// ../shared/SEEDS.md, Ferrari et al. 2017, Tables 1 to 3): 200 convex hulls whose
// characteristic size, read as the diameter of the sphere about each hull, runs from 40 m
// (the smallest) with a mean of 130 m; density 3000 kg/m^3; a cube of side 5 km; dt = 10 s;
// each body's own velocity of norm v0 and spin of norm w0 in random directions, and the whole
// set turning about +z at Omega; the maxima 0.15 m/s, 1e-2 rad/s and 5e-5 rad/s, every one of
// the eight sets at several levels of them; every grain one mass point. The draws are checked
// with the generator's own motion (ic.centre_of_mass_frame = false: a run then takes out the
// few mm/s of mean velocity the random directions leave, which is not the paper's definition
// to check).
#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "rubble/campaign/campaign.hpp"
#include "rubble/config/run_config.hpp"
#include "rubble/core/polyhedron_mass.hpp"
#include "rubble/ic/initial_conditions.hpp"

using namespace rubble;

namespace {

const std::string ferrari2017_file =
    std::string(RUBBLE_SOURCE_DIR) + "/params/ferrari2017/campaign.toml";

} // namespace

TEST(Ferrari2017Setup, TheSweepIsThePapersSetsAtSeveralLevelsOfItsMaxima) {
    const campaign::Campaign c = campaign::load_campaign(ferrari2017_file);
    EXPECT_EQ(c.models.size(), 3u);
    EXPECT_GE(c.seeds.size(), 3u) << "seeds for the spread";
    std::set<std::string> families;
    double v0 = 0.0, w0 = 0.0, omega = 0.0;
    for (const campaign::CampaignSet& s : c.sets) {
        families.insert(s.family);
        v0 = std::max(v0, s.v0);
        w0 = std::max(w0, s.w0);
        omega = std::max(omega, s.omega);
        // A set varies only its own quantities (Table 3).
        const bool has_v =
            s.family == "1.1" || s.family == "2.1" || s.family == "2.2" || s.family == "3";
        const bool has_w =
            s.family == "1.2" || s.family == "2.1" || s.family == "2.3" || s.family == "3";
        const bool has_o =
            s.family == "1.3" || s.family == "2.2" || s.family == "2.3" || s.family == "3";
        EXPECT_EQ(s.v0 > 0.0, has_v) << s.name;
        EXPECT_EQ(s.w0 > 0.0, has_w) << s.name;
        EXPECT_EQ(s.omega > 0.0, has_o) << s.name;
    }
    EXPECT_EQ(families.size(), 8u);
    EXPECT_EQ(v0, 0.15);
    EXPECT_EQ(w0, 1e-2);
    EXPECT_EQ(omega, 5e-5);
    EXPECT_EQ(c.sets.size(), 1u + 7u * 4u) << "set 0 and four levels of the others";
    const config::RunConfig rc = config::make_run_config(c.shared);
    EXPECT_EQ(rc.dt, 10.0);
    // Every grain one mass point, as the paper's code (and rubble's polyhedra) take them.
    EXPECT_EQ(rc.gravity.aggregates, gravity::AggregateGravity::centres);
    // One solve for the three models, PGS with the diagonal metric (docs/collisions.md, "Deep
    // piles"), as params/ferrari2020/.
    EXPECT_EQ(rc.polyhedra.solver.method, polyhedra::ContactMethod::pgs);
    EXPECT_EQ(rc.polyhedra.solver.metric, polyhedra::PgsMetric::diagonal);
}

TEST(Ferrari2017Setup, TheBouldersAreThePapersSizesDensitySpeedsAndSpins) {
    const campaign::Campaign c = campaign::load_campaign(ferrari2017_file);
    // Set 3 at its highest level: v0, w0 and Omega all at their maxima.
    std::size_t run = c.runs.size();
    for (std::size_t k = 0; k < c.runs.size(); ++k)
        if (c.sets[c.runs[k].set].name == "3@1" &&
            c.runs[k].model == ic::Representation::polyhedron)
            run = k;
    ASSERT_LT(run, c.runs.size());
    config::ParameterSet p = campaign::run_parameters(c, run);
    p.set("ic.centre_of_mass_frame", false, "test");
    const config::RunConfig rc = config::make_run_config(p);
    const Bodies b = ic::make_initial_state(rc.ic, static_cast<std::uint64_t>(c.runs[run].seed),
                                            rc.G, rc.collisions.overlap_tolerance)
                         .bodies;
    ASSERT_EQ(b.size(), 200u);
    ASSERT_EQ(b.hulls.size(), 200u);

    // Sizes: the diameter of the sphere about each hull, uniform from 40 m with a mean of 130 m
    // (so up to 220 m). The hull's own circumradius about its centroid is at most the drawn one
    // plus the centroid's offset from the sphere's centre, and a hull of 16 points reaches its
    // sphere: the diameters of 200 draws have a mean within 4 sigma (sigma = 180 / sqrt(12 x
    // 200) = 3.7 m) of 130 m and a smallest within 5 % of the range of 40 m.
    double sum = 0.0, smallest = INFINITY, largest = 0.0;
    Vec3 lo = Vec3::Constant(INFINITY), hi = Vec3::Constant(-INFINITY);
    for (std::size_t h = 0; h < b.hulls.size(); ++h) {
        const auto k = static_cast<std::size_t>(b.hulls.body[h]);
        const shapes::ConvexHull& hull =
            b.hull_shapes()[static_cast<std::size_t>(b.hulls.shape[h])].hull;
        const double d = 2.0 * b.radius[k];
        sum += d;
        smallest = std::min(smallest, d);
        largest = std::max(largest, d);
        // Density: the body's mass over its hull's volume.
        EXPECT_NEAR(b.mass[k] / shapes::polyhedron_volume(hull), 3000.0, 1e-9 * 3000.0);
        lo = lo.cwiseMin(b.pos[k] - Vec3::Constant(b.radius[k]));
        hi = hi.cwiseMax(b.pos[k] + Vec3::Constant(b.radius[k]));
    }
    EXPECT_NEAR(sum / 200.0, 130.0, 4.0 * 180.0 / std::sqrt(12.0 * 200.0));
    EXPECT_GE(smallest, 40.0 * 0.9);
    EXPECT_LT(smallest, 40.0 + 0.05 * 180.0);
    EXPECT_LE(largest, 220.0 * 1.1);
    // The cube: every boulder inside a box of side 5 km.
    for (int a = 0; a < 3; ++a)
        EXPECT_LE(hi[a] - lo[a], 5000.0 * (1.0 + 1e-12)) << "axis " << a;

    // Motion: each body's velocity less the set's rotation about +z through the centre of
    // mass has norm v0, and each spin norm w0.
    const Vec3 omega(0.0, 0.0, 5e-5);
    const Vec3 centre = centre_of_mass(b);
    for (std::size_t k = 0; k < b.size(); ++k) {
        EXPECT_NEAR((b.vel[k] - omega.cross(b.pos[k] - centre)).norm(), 0.15, 1e-12) << k;
        EXPECT_NEAR(b.spin[k].norm(), 1e-2, 1e-15) << k;
    }
}
