// SPDX-License-Identifier: MIT
// Piles of spheres and aggregates come to rest (issue 35, item 2) under the non-smooth contact
// stepper (collisions.stepper = "nsc": polyhedra/nsc_stepper.hpp with sphere_contacts.hpp): a
// ball dropped on a floor bounces with Newton's e and then rests on it; a tetrahedral aggregate
// lands and rests on three of its spheres; a pile of spheres in a box under g is at rest with
// its weight carried by the walls; a self-gravitating cloud of spheres or aggregates collapses
// into a pile whose motion relative to its rigid rotation falls below 1e-3 of its escape speed.
//
// Tolerances follow from the method. A contact's velocity condition holds to the solver's
// tolerance times the contact speeds (g h per step at rest); the place of a bounce is off by at
// most one step's travel (the impact is taken at the start of the step in which it happens,
// Anitescu & Tasora 2010); momentum balance at rest, weight = wall impulses / h, is exact up to
// the solver's residual; Coulomb's cone bounds the walls' friction exactly (the solver projects
// every impulse on it, contact_solver.hpp).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "rubble/core/random.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/gravity/no_gravity.hpp"
#include "rubble/integrate/simulation.hpp"
#include "rubble/polyhedra/nsc_stepper.hpp"

using namespace rubble;

namespace {

constexpr double g_earth = 9.81;     // m/s^2
constexpr double grain_rho = 2000.0; // kg/m^3

// A tight solve, as the polyhedral canonical tests (nsc_box_test.cpp), so that the bounds
// below are the method's and not the iteration cap's.
polyhedra::NscConfig tight_config(double eps_n, double v_min, double friction) {
    polyhedra::NscConfig c;
    c.mu = friction;
    c.eps_n = eps_n;
    c.v_min = v_min;
    c.solver.tolerance = 1e-9;
    c.solver.max_iterations = 1000;
    c.solver.coulomb_max_iterations = 50;
    return c;
}

boundaries::Wall plane_wall(const char* name, const Vec3& point, const Vec3& normal) {
    boundaries::Wall w;
    w.name = name;
    w.point = point;
    w.normal = normal;
    return w;
}

const polyhedra::NscStepper& nsc_of(const integrate::Simulation& sim) {
    return dynamic_cast<const polyhedra::NscStepper&>(sim.stepper());
}

integrate::Simulation under_g(Bodies b, const polyhedra::NscConfig& c, double dt) {
    integrate::Simulation sim(std::move(b), std::make_unique<gravity::NoGravity>(), dt);
    sim.set_uniform_field(Vec3(0, 0, -g_earth));
    sim.set_stepper(std::make_unique<polyhedra::NscStepper>(c));
    return sim;
}

} // namespace

TEST(SphereNsc, ABallDroppedOnAFloorBouncesWithNewtonsEAndComesToRest) {
    constexpr double radius = 0.5, drop = 1.0, dt = 1e-3, eps = 0.5;
    polyhedra::NscConfig c = tight_config(eps, 0.05, 0.5);
    c.walls.push_back(plane_wall("floor", Vec3::Zero(), Vec3::UnitZ()));
    Bodies b;
    b.add_sphere(1, sphere_mass(grain_rho, radius), radius, Vec3(0, 0, radius + drop), Vec3::Zero(),
                 Vec3::Zero());
    integrate::Simulation sim = under_g(std::move(b), c, dt);
    const double impact_speed = std::sqrt(2.0 * g_earth * drop);
    const double first_impact = impact_speed / g_earth;
    const double second_impact = first_impact + 2.0 * eps * impact_speed / g_earth;
    double apex = 0.0;
    while (sim.time() < 3.0) {
        sim.step();
        const double z = sim.bodies().pos[0].z() - radius;
        if (sim.time() > first_impact + 0.05 && sim.time() < second_impact - 0.05)
            apex = std::max(apex, z);
        ASSERT_GT(z, -1e-9 * radius) << "the ball went into the floor at t = " << sim.time();
    }
    // The first rebound rises to eps^2 of the drop, to within the travel of one step at the
    // impact (where the bounce is taken) and the apex's sampling (g dt^2).
    EXPECT_NEAR(apex, eps * eps * drop, 2.0 * impact_speed * dt);
    // At rest on the floor: the drift velocity (the velocity after the step less its last half
    // kick) zero and the gap closed, to the solver's tolerance times g dt.
    const Bodies& end = sim.bodies();
    EXPECT_LT((end.vel[0] + Vec3(0, 0, 0.5 * g_earth * dt)).norm(), 1e-6 * g_earth * dt);
    EXPECT_NEAR(end.pos[0].z(), radius, 1e-6 * g_earth * dt * dt);
    // The floor gives the step's whole weight, m g dt, as its impulse.
    ASSERT_EQ(nsc_of(sim).contacts().size(), 1U);
    EXPECT_NEAR(nsc_of(sim).contacts()[0].impulse.z(), end.mass[0] * g_earth * dt,
                1e-6 * end.mass[0] * g_earth * dt);
}

TEST(SphereNsc, ATetrahedralAggregateLandsAndRestsOnThreeSpheres) {
    constexpr double r = 0.2, dt = 1e-3;
    polyhedra::NscConfig c = tight_config(0.3, 0.05, 0.6);
    c.walls.push_back(plane_wall("floor", Vec3::Zero(), Vec3::UnitZ()));
    // Four touching spheres at the corners of a regular tetrahedron of edge 2r.
    std::vector<SpherePart> parts;
    const double m = sphere_mass(grain_rho, r);
    for (const Vec3& corner : {Vec3(1, 1, 1), Vec3(1, -1, -1), Vec3(-1, 1, -1), Vec3(-1, -1, 1)})
        parts.push_back(SpherePart{corner * (r / std::sqrt(2.0)), r, m});
    Bodies b;
    const Quat tilted(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
    add_rigid_body(b, 1, parts, Vec3(0, 0, 1.0), Vec3(0.3, 0, 0), Vec3(2.0, -1.0, 0.5), tilted);
    integrate::Simulation sim = under_g(std::move(b), c, dt);
    while (sim.time() < 4.0)
        sim.step();
    const Bodies& end = sim.bodies();
    EXPECT_LT((end.vel[0] + Vec3(0, 0, 0.5 * g_earth * dt)).norm(), 1e-6 * g_earth * dt);
    // The gravity kick has no torque about the centre of mass: the spin is the solve's alone,
    // of the order of its tolerance (1e-9 of the contact speeds per solve, over up to 50
    // Coulomb passes) times g dt at the rim.
    EXPECT_LT(end.spin[0].norm() * end.radius[0], 1e-5 * g_earth * dt);
    std::vector<double> heights;
    for (std::size_t s = 0; s < end.spheres.size(); ++s)
        heights.push_back(sphere_centre(end, s).z() - r);
    std::sort(heights.begin(), heights.end());
    for (int k = 0; k < 3; ++k)
        EXPECT_NEAR(heights[static_cast<std::size_t>(k)], 0.0, 1e-6 * g_earth * dt * dt)
            << "sphere " << k << " does not rest on the floor";
    EXPECT_GT(heights[3], r) << "the fourth sphere is above the other three";
}

// A pile in a box 0.6 m wide under g: a bottom layer of 6 x 6 spheres of 5 cm that fills the
// floor (so that none can roll: hard spheres lose nothing while rolling, and one with room
// would roll on), and two layers of 25 spheres of 4 to 6 cm dropped on it from a loose
// lattice at 0.2 m/s in random directions. After 2 s every sphere is at rest, nothing
// overlaps, and the walls carry the weight: the floor's share is the weight less what the
// side walls hold by friction, which Coulomb's cone bounds by mu times their normal load. (The
// split is not unique: a packing of rigid spheres wedged between rigid walls is hyperstatic,
// and any self-equilibrated set of contact forces within the cones can be added to one
// solution; momentum balance and the cones are what the physics fixes.)
TEST(SphereNsc, APileInABoxIsAtRestAndTheWallsCarryItsWeight) {
    constexpr double dt = 2e-3, width = 0.6, mu = 0.5;
    // The run's default solve (collisions.solver_iterations, solver_passes, solver_tolerance).
    polyhedra::NscConfig c;
    c.mu = mu;
    c.eps_n = 0.3;
    c.v_min = 0.05;
    c.walls.push_back(plane_wall("floor", Vec3::Zero(), Vec3::UnitZ()));
    c.walls.push_back(plane_wall("x-", Vec3(-0.5 * width, 0, 0), Vec3::UnitX()));
    c.walls.push_back(plane_wall("x+", Vec3(0.5 * width, 0, 0), -Vec3::UnitX()));
    c.walls.push_back(plane_wall("y-", Vec3(0, -0.5 * width, 0), Vec3::UnitY()));
    c.walls.push_back(plane_wall("y+", Vec3(0, 0.5 * width, 0), -Vec3::UnitY()));
    Bodies b;
    Rng rng(7);
    std::int64_t id = 0;
    double weight = 0.0;
    const auto add = [&](double r, const Vec3& x, const Vec3& v) {
        b.add_sphere(++id, sphere_mass(grain_rho, r), r, x, v, Vec3::Zero());
        weight += sphere_mass(grain_rho, r) * g_earth;
    };
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j)
            add(0.05, Vec3(-0.25 + 0.1 * i, -0.25 + 0.1 * j, 0.05), Vec3::Zero());
    for (int k = 0; k < 2; ++k)
        for (int i = 0; i < 5; ++i)
            for (int j = 0; j < 5; ++j)
                add(rng.uniform(0.04, 0.06),
                    Vec3(-0.24 + 0.12 * i, -0.24 + 0.12 * j, 0.2 + 0.13 * k),
                    0.2 * rng.unit_vector());
    integrate::Simulation sim = under_g(std::move(b), c, dt);
    while (sim.time() < 2.0)
        sim.step();
    const Bodies& end = sim.bodies();
    // At rest: drift velocities (after the step, less its last half kick) and rim speeds
    // below 1e-4 of g dt, the speed one step of gravity gives a contact. The solve leaves
    // errors of its residual (solver_tolerance, 1e-6, or a few times that where the run's
    // iteration cap stops it: 2e-6 measured) times g dt at each contact, which the pile's
    // layers of contacts pass on to one another (1e-5 g dt measured).
    const double at_rest = 1e-4 * g_earth * dt;
    for (std::size_t k = 0; k < end.size(); ++k) {
        EXPECT_LT((end.vel[k] + Vec3(0, 0, 0.5 * g_earth * dt)).norm(), at_rest)
            << "sphere " << end.id[k] << " still moves";
        EXPECT_LT(end.spin[k].norm() * end.radius[k], at_rest)
            << "sphere " << end.id[k] << " still turns";
    }
    Vec3 walls = Vec3::Zero(); // N s, the impulses of the step on the bodies, by the walls
    double floor = 0.0, sides_vertical = 0.0, sides_normal = 0.0;
    for (const polyhedra::NscContact& k : nsc_of(sim).contacts()) {
        if (k.b >= 0) {
            const auto a = static_cast<std::size_t>(k.a), o = static_cast<std::size_t>(k.b);
            EXPECT_GT((end.pos[a] - end.pos[o]).norm() - end.radius[a] - end.radius[o],
                      -c.overlap_tolerance * (end.radius[a] + end.radius[o]))
                << "spheres " << end.id[a] << " and " << end.id[o] << " overlap";
            continue;
        }
        walls += k.impulse;
        if (k.wall == 0) {
            floor += k.impulse.z();
        } else {
            sides_vertical += k.impulse.z();
            sides_normal += k.impulse.dot(k.normal);
        }
    }
    const double step_weight = weight * dt;
    // Momentum balance at rest: the walls' impulses of a step are the step's weight, to the
    // bodies' remaining speeds times their mass.
    const double balance = at_rest * weight / g_earth;
    EXPECT_NEAR(walls.z(), step_weight, balance);
    EXPECT_LT(std::abs(walls.x()) + std::abs(walls.y()), balance);
    EXPECT_NEAR(floor + sides_vertical, step_weight, balance);
    EXPECT_LE(std::abs(sides_vertical), mu * sides_normal * (1.0 + 1e-9));
    RecordProperty("floor_share_of_weight", std::to_string(floor / step_weight));
}

namespace {

// The motion of `b` relative to a rigid body's, from the displacements of one step (positions
// move with the drift velocity, so the half kicks of the leapfrog do not enter): the largest
// |u_i - V - Omega x (x_i - X)| over the bodies, with V the centre-of-mass velocity and
// Omega = I^-1 L of the bodies as one rigid pile (spins included in L and I).
struct PileMotion {
    double relative_speed = 0.0; // m/s
    double escape_speed = 0.0;   // m/s, sqrt(2 G M / R) with R the pile's outer radius
    double spin = 0.0;           // rad/s, |Omega|
};

// The pile: the bodies within three times the median distance from the centre of mass of all
// (a grain thrown out by the collapse is not part of it).
std::vector<std::size_t> pile_of(const Bodies& b) {
    const Vec3 x = centre_of_mass(b);
    std::vector<double> d;
    for (std::size_t k = 0; k < b.size(); ++k)
        d.push_back((b.pos[k] - x).norm());
    std::vector<double> sorted = d;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(d.size() / 2),
                     sorted.end());
    const double limit = 3.0 * sorted[d.size() / 2];
    std::vector<std::size_t> rows;
    for (std::size_t k = 0; k < b.size(); ++k)
        if (d[k] <= limit) rows.push_back(k);
    return rows;
}

PileMotion pile_motion(const Bodies& before, const Bodies& after, double h,
                       const std::vector<std::size_t>& pile) {
    double m = 0.0;
    Vec3 x = Vec3::Zero(), v = Vec3::Zero();
    std::vector<Vec3> u(after.size());
    for (const std::size_t k : pile) {
        u[k] = (after.pos[k] - before.pos[k]) / h;
        m += after.mass[k];
        x += after.mass[k] * after.pos[k];
        v += after.mass[k] * u[k];
    }
    x /= m;
    v /= m;
    Vec3 l = Vec3::Zero();
    Mat3 inertia = Mat3::Zero();
    double outer = 0.0;
    for (const std::size_t k : pile) {
        const Vec3 r = after.pos[k] - x;
        const Mat3 own = inertia_tensor(after, k);
        l += after.mass[k] * r.cross(u[k] - v) + own * after.spin[k];
        inertia += own + after.mass[k] * (r.squaredNorm() * Mat3::Identity() - r * r.transpose());
        outer = std::max(outer, r.norm() + after.radius[k]);
    }
    const Vec3 rate = inertia.inverse() * l;
    PileMotion out;
    for (const std::size_t k : pile)
        out.relative_speed =
            std::max(out.relative_speed, (u[k] - v - rate.cross(after.pos[k] - x)).norm());
    out.escape_speed = std::sqrt(2.0 * G_SI * m / outer);
    out.spin = rate.norm();
    return out;
}

// A cold cloud of `count` grains (spheres of radius 40 to 60 m, or tetrahedral aggregates of
// four spheres of that radius) at 3000 kg/m^3 in a cube of 1.4 km, turning slowly about z
// (so that the pile spins), collapses under direct gravity with dt = 10 s, the step of
// Ferrari et al. 2017: eps_n = 0.5 above v_min, mu = 0.6, the run's default solve.
void collapse_and_settle(int count, bool aggregates) {
    constexpr double dt = 10.0, side = 1400.0, density = 3000.0;
    constexpr double omega0 = 2e-5; // rad/s
    Bodies b;
    Rng rng(11);
    std::vector<Vec3> placed;
    std::vector<double> reach;
    for (std::int64_t id = 1; id <= count; ++id) {
        const double r = rng.uniform(40.0, 60.0);
        const double bound = aggregates ? r * (1.0 + std::sqrt(1.5)) : r;
        Vec3 x;
        bool clear = false;
        while (!clear) {
            x = side * Vec3(rng.uniform() - 0.5, rng.uniform() - 0.5, rng.uniform() - 0.5);
            clear = true;
            for (std::size_t k = 0; k < placed.size() && clear; ++k)
                clear = (x - placed[k]).norm() > bound + reach[k];
        }
        placed.push_back(x);
        reach.push_back(bound);
        const Vec3 v = omega0 * Vec3::UnitZ().cross(x);
        if (aggregates) {
            std::vector<SpherePart> parts;
            for (const Vec3& corner :
                 {Vec3(1, 1, 1), Vec3(1, -1, -1), Vec3(-1, 1, -1), Vec3(-1, -1, 1)})
                parts.push_back(
                    SpherePart{corner * (r / std::sqrt(2.0)), r, sphere_mass(density, r)});
            const Quat q(Eigen::AngleAxisd(rng.uniform(0.0, 2.0 * pi), rng.unit_vector()));
            add_rigid_body(b, id, parts, x, v, Vec3::Zero(), q);
        } else {
            b.add_sphere(id, sphere_mass(density, r), r, x, v, Vec3::Zero());
        }
    }
    polyhedra::NscConfig c;
    c.mu = 0.6;
    c.eps_n = 0.5;
    // A resting contact gains g dt per step (g ~ 1e-4 m/s^2 at the pile's surface): impacts
    // below a few times that do not bounce.
    c.v_min = 2e-3;
    integrate::Simulation sim(std::move(b), std::make_unique<gravity::DirectGravity>(G_SI, 0.0),
                              dt);
    sim.set_stepper(std::make_unique<polyhedra::NscStepper>(c));
    // The cloud's free-fall time is about 7000 s: it has collapsed by 2e4 s and rests by 3e4 s
    // (measured: 2.8e-4 of the escape speed for the spheres, 1.3e-4 for the aggregates).
    while (sim.time() < 3.5e4)
        sim.step();
    const Bodies before = sim.bodies();
    sim.step();
    const std::vector<std::size_t> pile = pile_of(sim.bodies());
    const PileMotion p = pile_motion(before, sim.bodies(), dt, pile);
    EXPECT_GE(pile.size(), static_cast<std::size_t>(0.8 * count)) << "most grains in the pile";
    EXPECT_LT(p.relative_speed, 1e-3 * p.escape_speed)
        << "escape speed " << p.escape_speed << " m/s, spin " << p.spin << " rad/s";
    EXPECT_GT(p.spin, omega0) << "the pile keeps the cloud's angular momentum, spun up";
    ::testing::Test::RecordProperty("relative_speed_over_escape",
                                    std::to_string(p.relative_speed / p.escape_speed));
}

} // namespace

TEST(SphereNsc, ASelfGravitatingCloudOfSpheresSettlesIntoAPileAtRest) {
    collapse_and_settle(100, false);
}

TEST(SphereNsc, ASelfGravitatingCloudOfAggregatesSettlesIntoAPileAtRest) {
    collapse_and_settle(40, true);
}
