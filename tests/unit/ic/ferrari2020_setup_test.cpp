// SPDX-License-Identifier: MIT
// params/ferrari2020/campaign.toml against what Ferrari, Lavagna & Blazquez 2020 set up (issue
// 35, item 5; ../shared/SEEDS.md): 1e4 convex hulls of 16 random points, average
// characteristic size 3 km (read as in params/ferrari2017/: the diameter of the sphere about
// each hull), at most about 100 km apart (the diameter of the ball they start in), 3000
// kg/m^3, NSC with Coulomb friction 0.6 and no restitution, dt 10 s, every grain one mass
// point; and the grains of its aggregate model buildable (a lattice fill too flat to match a
// hull's inertia is refused, which a campaign would only meet at its first aggregate run).
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "rubble/campaign/campaign.hpp"
#include "rubble/config/run_config.hpp"
#include "rubble/ic/initial_conditions.hpp"

using namespace rubble;

namespace {

const std::string ferrari2020_file =
    std::string(RUBBLE_SOURCE_DIR) + "/params/ferrari2020/campaign.toml";

} // namespace

TEST(Ferrari2020Setup, TheCloudIsThePapersAndEveryModelSharesOneContactLawAndGravity) {
    const campaign::Campaign c = campaign::load_campaign(ferrari2020_file);
    EXPECT_EQ(c.models.size(), 3u);
    EXPECT_EQ(c.sets.front().name, "0") << "the cold collapse first";
    const config::RunConfig rc = config::make_run_config(c.shared);
    const ic::CloudConfig& cloud = rc.ic.cloud;
    EXPECT_EQ(cloud.n, 10000);
    EXPECT_EQ(cloud.region, ic::Region::sphere);
    EXPECT_EQ(2.0 * cloud.size, 100e3) << "the ball's diameter, m";
    EXPECT_EQ(cloud.radii.distribution, ic::RadiusDistribution::fixed);
    EXPECT_EQ(2.0 * cloud.radii.radius, 3000.0) << "the hulls' diameter, m";
    EXPECT_EQ(cloud.density, 3000.0);
    EXPECT_EQ(cloud.grain.kind, ic::GrainKind::hull);
    EXPECT_EQ(rc.dt, 10.0);
    EXPECT_EQ(rc.collisions.stepper, collisions::ContactStepper::nsc);
    EXPECT_EQ(rc.collisions.mu, 0.6);
    EXPECT_EQ(rc.collisions.eps_n, 0.0);
    EXPECT_EQ(rc.gravity.aggregates, gravity::AggregateGravity::centres);
    // A pile of 1e4 grains rests only with PGS's diagonal metric (docs/collisions.md, "Deep
    // piles"): the uniform step leaves it breathing at 1e-2 of its escape speed.
    EXPECT_EQ(rc.polyhedra.solver.method, polyhedra::ContactMethod::pgs);
    EXPECT_EQ(rc.polyhedra.solver.metric, polyhedra::PgsMetric::diagonal);
    EXPECT_EQ(rc.polyhedra.solver.sor, 1.0) << "over-relaxing the diagonal metric diverges";
    // The reading of the size must leave room to place the grains at random: their bounding
    // spheres fill n (r / R)^3 = 0.27 of the ball, below the 0.38 at which random sequential
    // addition of spheres jams (Torquato & Stillinger 2010); read as the radius, 2.2.
    EXPECT_LT(static_cast<double>(cloud.n) * std::pow(cloud.radii.radius / cloud.size, 3), 0.38);
}

TEST(Ferrari2020Setup, TheAggregateModelBuildsItsGrains) {
    // 100 of the campaign's grains, in a ball of the same volume fraction, as aggregates.
    const campaign::Campaign c = campaign::load_campaign(ferrari2020_file);
    std::size_t run = c.runs.size();
    for (std::size_t k = 0; k < c.runs.size() && run == c.runs.size(); ++k)
        if (c.runs[k].model == ic::Representation::aggregate) run = k;
    ASSERT_LT(run, c.runs.size());
    config::ParameterSet p = campaign::run_parameters(c, run);
    p.set("ic.cloud.n", std::int64_t{100}, "test");
    p.set("ic.cloud.size", 50e3 * std::cbrt(100.0 / 10000.0), "test");
    const config::RunConfig rc = config::make_run_config(p);
    const Bodies b = ic::make_initial_state(rc.ic, static_cast<std::uint64_t>(c.runs[run].seed),
                                            rc.G, rc.collisions.overlap_tolerance)
                         .bodies;
    ASSERT_EQ(b.size(), 100u);
    EXPECT_EQ(b.hulls.size(), 0u);
    // Each a solid fill (four spheres at least: fewer lie in one plane) near the asked count
    // (a lattice fill's count is a target: ic/aggregates.hpp).
    std::vector<int> count(b.size(), 0);
    for (std::size_t k = 0; k < b.spheres.size(); ++k)
        ++count[static_cast<std::size_t>(b.spheres.body[k])];
    const auto target = static_cast<double>(rc.ic.cloud.grain.spheres_per_grain);
    for (std::size_t i = 0; i < b.size(); ++i)
        EXPECT_GE(count[i], 4) << "grain " << i;
    EXPECT_NEAR(static_cast<double>(b.spheres.size()) / 100.0, target, 0.1 * target);
}
