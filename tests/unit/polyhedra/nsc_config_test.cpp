// SPDX-License-Identifier: MIT
// The NSC stepper refuses what it cannot do with a message naming the key or the wall: values
// out of range, cylinders, fixed hulls that are not placed by a unit quaternion or are too
// small for the collision margin.
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "rubble/core/error.hpp"
#include "rubble/core/polyhedron.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/gravity/no_gravity.hpp"
#include "rubble/ic/aggregates.hpp"
#include "rubble/integrate/simulation.hpp"
#include "rubble/polyhedra/nsc_stepper.hpp"

using namespace rubble;

namespace {

void expect_refused(const polyhedra::NscConfig& c, const std::string& what) {
    try {
        polyhedra::check_nsc_config(c);
        ADD_FAILURE() << "expected a refusal mentioning '" << what << "'";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
}

boundaries::FixedHull cube_hull(double side, const std::string& name) {
    boundaries::FixedHull f;
    f.shape = shapes::make_polyhedron(ic::box_hull(Vec3::Constant(side)));
    f.name = name;
    return f;
}

TEST(NscConfig, RefusesValuesOutOfRangeNamingThem) {
    polyhedra::NscConfig c;
    c.mu = -0.1;
    expect_refused(c, "mu = ");
    c = {};
    c.eps_n = 1.5;
    expect_refused(c, "collisions.eps_n = 1.5");
    c = {};
    boundaries::Wall drum;
    drum.shape = boundaries::WallShape::cylinder;
    drum.radius = 1.0;
    drum.name = "walls[3]";
    c.walls.push_back(drum);
    expect_refused(c, "walls[3]: the non-smooth contact stepper takes plane walls only");
    c = {};
    c.fixed_hulls.push_back(cube_hull(1.0, "fixed_hulls[1]"));
    c.fixed_hulls.back().orientation = Quat(2.0, 0.0, 0.0, 0.0);
    expect_refused(c, "fixed_hulls[1]: position must be finite and orientation a unit quaternion");
    c.fixed_hulls.back().orientation = Quat::Identity();
    polyhedra::check_nsc_config(c); // and the same hull placed properly passes
}

TEST(NscConfig, PgsOnlySettingsAreRefusedWithApgd) {
    // The relaxation and the metric are of PGS's sweeps; APGD would silently ignore them.
    polyhedra::NscConfig c;
    c.solver.method = polyhedra::ContactMethod::apgd;
    c.solver.sor = 1.5;
    expect_refused(c, "collisions.solver_relaxation = 1.5: over-relaxation is of PGS's sweeps");
    c.solver.sor = 1.0;
    c.solver.metric = polyhedra::PgsMetric::diagonal;
    expect_refused(c, "collisions.solver_metric = \"diagonal\": the metric is of PGS's steps");
    c.solver.method = polyhedra::ContactMethod::pgs;
    c.solver.sor = 1.5;
    polyhedra::check_nsc_config(c); // both with PGS pass
}

TEST(NscConfig, AFixedHullTooSmallForTheMarginIsNamedOnTheFirstStep) {
    polyhedra::NscConfig c;
    c.margin = 0.01; // m: a 5 cm cube has room for it, a 1 cm cube none
    c.fixed_hulls.push_back(cube_hull(0.05, "fixed_hulls[0]"));
    c.fixed_hulls.push_back(cube_hull(0.01, "fixed_hulls[1]"));
    Bodies b;
    const auto shape = b.add_hull_shape(shapes::make_polyhedron(ic::box_hull(Vec3::Constant(1.0))));
    add_polyhedron(b, 1, shape, 1000.0, Vec3(0, 0, 5), Vec3::Zero(), Vec3::Zero());
    integrate::Simulation sim(std::move(b), std::make_unique<gravity::NoGravity>(), 1e-3);
    sim.set_stepper(std::make_unique<polyhedra::NscStepper>(c));
    try {
        sim.step();
        ADD_FAILURE() << "expected a refusal of fixed_hulls[1]";
    } catch (const InputError& e) {
        EXPECT_NE(
            std::string(e.what()).find("fixed_hulls[1] is too small for the collision margin"),
            std::string::npos)
            << e.what();
    }
}

} // namespace
