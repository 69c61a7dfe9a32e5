// SPDX-License-Identifier: MIT
// Polyhedral bodies in the body storage: the shape catalogue (centred shapes, shared between
// copies, copied on write), the exact mass properties of add_polyhedron, removal and resizing
// with hulls, the invariants naming what breaks them, and gravity seeing each polyhedron as a
// mass point at its centre of mass.
#include <cmath>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "rubble/core/bodies.hpp"
#include "rubble/core/polyhedron_mass.hpp"
#include "rubble/core/random.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/ic/aggregates.hpp"
#include "rubble/integrate/simulation.hpp"
#include "tolerances.hpp"

using namespace rubble;

namespace {

constexpr double rho = 2500.0; // kg/m^3

// A free sphere (id 0), a box (id 1), a two-sphere aggregate (id 2), a random hull (id 3).
Bodies mixed_with_hulls() {
    Bodies b;
    b.add_sphere(0, 1.0e3, 0.5, Vec3(-5, 0, 0), Vec3::Zero(), Vec3::Zero());
    const auto box = b.add_hull_shape(shapes::make_polyhedron(ic::box_hull(Vec3(1.0, 2.0, 3.0))));
    add_polyhedron(b, 1, box, rho, Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 0, 0.1));
    add_rigid_body(b, 2, {{Vec3(-1, 0, 0), 0.5, 2.0e3}, {Vec3(1, 0, 0), 0.5, 2.0e3}}, Vec3(0, 6, 0),
                   Vec3::Zero(), Vec3::Zero());
    Rng rng(11);
    const auto hull =
        b.add_hull_shape(shapes::make_polyhedron(ic::random_ellipsoid_hull(Vec3(2, 1, 1), rng)));
    add_polyhedron(b, 3, hull, rho, Vec3(0, 0, 7), Vec3::Zero(), Vec3::Zero(),
                   Quat(Eigen::AngleAxisd(0.7, Vec3(1, 1, 0).normalized())));
    return b;
}

void expect_refused(const Bodies& b, const std::string& what) {
    try {
        b.check_consistent();
        ADD_FAILURE() << "expected a violation mentioning '" << what << "'";
    } catch (const std::logic_error& e) {
        EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
}

} // namespace

TEST(BodiesWithHulls, AddPolyhedronGivesTheExactMassPropertiesOfTheShape) {
    const Bodies b = mixed_with_hulls();
    EXPECT_NO_THROW(b.check_consistent());
    ASSERT_EQ(b.hulls.size(), 2U);
    EXPECT_EQ(b.hulls.body[0], 1);
    EXPECT_EQ(b.hulls.body[1], 3);
    // The box: m = rho abc, I = m/12 (b^2 + c^2, ...), ascending, bounding radius half the
    // diagonal, its vertices about the origin.
    const double m = rho * 6.0;
    EXPECT_NEAR(b.mass[1], m, test::summation_bound(12) * m);
    const Vec3 expected = m / 12.0 * Vec3(4.0 + 9.0, 1.0 + 9.0, 1.0 + 4.0);
    EXPECT_NEAR(b.inertia[1].x(), expected.z(), 1e-14 * m);
    EXPECT_NEAR(b.inertia[1].y(), expected.y(), 1e-14 * m);
    EXPECT_NEAR(b.inertia[1].z(), expected.x(), 1e-14 * m);
    EXPECT_NEAR(b.radius[1], 0.5 * std::sqrt(14.0), 4 * test::eps);
    // Every shape in the catalogue has its centroid at the origin (to round-off).
    for (const shapes::Polyhedron& p : b.hull_shapes())
        EXPECT_LT(shapes::polyhedron_centroid(p.hull).norm(), 64 * test::eps * 4.0);
    EXPECT_FALSE(b.gravity_at_centres()); // an aggregate is among them
    EXPECT_FALSE(b.all_free_spheres());
}

TEST(BodiesWithHulls, TheCatalogueIsSharedByCopiesAndCopiedOnWrite) {
    const Bodies a = mixed_with_hulls();
    Bodies c = a;
    EXPECT_EQ(&c.hull_shapes(), &a.hull_shapes());
    const auto added = c.add_hull_shape(shapes::make_polyhedron(ic::tetrahedron_hull(1.0)));
    EXPECT_EQ(added, 2);
    EXPECT_EQ(a.hull_shapes().size(), 2U);
    EXPECT_EQ(c.hull_shapes().size(), 3U);
    EXPECT_THROW(add_polyhedron(c, 9, 3, rho, Vec3::Zero(), Vec3::Zero(), Vec3::Zero()),
                 std::invalid_argument);
    EXPECT_THROW(add_polyhedron(c, 9, 2, 0.0, Vec3::Zero(), Vec3::Zero(), Vec3::Zero()),
                 std::invalid_argument);
}

TEST(BodiesWithHulls, RemovalAndResizeKeepHullsLinkedToTheirBodies) {
    Bodies b = mixed_with_hulls();
    remove_flagged(b, {1, 0, 0, 0}); // the free sphere before the box
    ASSERT_EQ(b.hulls.size(), 2U);
    EXPECT_EQ(b.hulls.body[0], 0);
    EXPECT_EQ(b.hulls.body[1], 2);
    EXPECT_EQ(b.id[static_cast<std::size_t>(b.hulls.body[1])], 3);
    EXPECT_NO_THROW(b.check_consistent());
    remove_flagged(b, {1, 0, 0}); // the box itself
    ASSERT_EQ(b.hulls.size(), 1U);
    EXPECT_EQ(b.hulls.body[0], 1);
    EXPECT_NO_THROW(b.check_consistent());
    b.resize(1); // drops the hull body
    EXPECT_EQ(b.hulls.size(), 0U);
    EXPECT_NO_THROW(b.check_consistent());
}

TEST(BodiesWithHulls, InvariantViolationsAreNamed) {
    Bodies b = mixed_with_hulls();
    b.hulls.mass[0] *= 2.0;
    expect_refused(b, "its hull");
    b = mixed_with_hulls();
    b.hulls.shape[1] = 5;
    expect_refused(b, "names shape 5 of 2");
    b = mixed_with_hulls();
    b.radius[3] *= 1.5;
    expect_refused(b, "circumradius");
    b = mixed_with_hulls();
    b.hulls.body[0] = 0; // the free sphere now has a hull too, and the box nothing
    expect_refused(b, "has spheres and a hull");
    b = mixed_with_hulls();
    b.hulls.body[1] = 1; // the box has two hulls
    expect_refused(b, "hull");
    b = mixed_with_hulls();
    b.hulls.shape.pop_back();
    expect_refused(b, "hull arrays of different lengths");
}

TEST(BodiesWithHulls, GravitySeesEachPolyhedronAsAMassPointAtItsCentre) {
    // Polyhedra among aggregates (the general path) against the same bodies' mass points summed
    // pair by pair, and polyhedra alone (the fast path) against free spheres of equal masses at
    // the same places, which must be bit for bit the same.
    const Bodies b = mixed_with_hulls();
    integrate::Simulation sim(b, std::make_unique<gravity::DirectGravity>(1.0, 0.0), 1.0);
    std::vector<Vec3> points{b.pos[0], b.pos[1], sphere_centre(b, 1), sphere_centre(b, 2),
                             b.pos[3]};
    std::vector<double> masses{b.mass[0], b.mass[1], b.spheres.mass[1], b.spheres.mass[2],
                               b.mass[3]};
    const auto field_at = [&](std::size_t i) {
        Vec3 a = Vec3::Zero();
        for (std::size_t j = 0; j < points.size(); ++j) {
            if (j == i) continue;
            const Vec3 d = points[j] - points[i];
            a += masses[j] * d / std::pow(d.norm(), 3);
        }
        return a;
    };
    for (std::size_t i : {std::size_t{1}, std::size_t{4}}) {
        const std::size_t body = i == 1 ? 1 : 3;
        const Vec3 want = field_at(i);
        EXPECT_LT((sim.accelerations()[body] - want).norm(), 1e-14 * want.norm())
            << "body " << body;
    }
    Bodies hulls_only = b;
    remove_flagged(hulls_only, {1, 0, 1, 0});
    EXPECT_TRUE(hulls_only.gravity_at_centres());
    Bodies spheres;
    for (std::size_t k = 0; k < hulls_only.size(); ++k)
        spheres.add_sphere(hulls_only.id[k], hulls_only.mass[k], hulls_only.radius[k],
                           hulls_only.pos[k], Vec3::Zero(), Vec3::Zero());
    integrate::Simulation a(hulls_only, std::make_unique<gravity::DirectGravity>(1.0, 0.0), 1.0);
    integrate::Simulation s(spheres, std::make_unique<gravity::DirectGravity>(1.0, 0.0), 1.0);
    EXPECT_EQ(a.accelerations(), s.accelerations());
    EXPECT_TRUE(a.torques().empty());
}
