// SPDX-License-Identifier: MIT
// The settling stop criterion (run/settling.hpp): aggregates as components of the contact
// graph of analysis/rubble_analysis/contacts.py (spheres, rigid aggregates, polyhedra), their
// rigid spins, and the tracker's decisions.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

#include <Eigen/Eigenvalues>
#include <gtest/gtest.h>

#include "rubble/core/polyhedron.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/ic/aggregates.hpp"
#include "rubble/run/settling.hpp"
#include "tolerances.hpp"

using namespace rubble;
using run::aggregate_labels;
using run::aggregate_spins;
using run::AggregateSpin;
using run::SettleConfig;
using run::SettleTracker;
using test::eps;

namespace {

constexpr double tol = 0.01; // the analysis' default contact tolerance

// Gaps as multiples of the contact limit T min(R_i, R_j): well inside (0.5), beyond by enough
// to tell min from max radius when the radii differ by 2 (1.5), and the brief's 2. The gaps'
// round-off (a few eps of the centre distance, ~1e-16 m here) is 1e-13 of the limit.
struct GapCase {
    double factor;
    bool linked;
};
constexpr GapCase gap_cases[] = {
    {0.5, true}, {0.99, true}, {1.01, false}, {1.5, false}, {2, false}};

// One label per body id.
std::map<std::int64_t, std::int64_t> labels_by_id(const Bodies& b, double tolerance) {
    const std::vector<std::int64_t> labels = aggregate_labels(b, tolerance);
    std::map<std::int64_t, std::int64_t> out;
    for (std::size_t k = 0; k < b.size(); ++k)
        out[b.id[k]] = labels[k];
    return out;
}

std::int64_t cube_shape(Bodies& b, double side) {
    return b.add_hull_shape(shapes::make_polyhedron(ic::box_hull(Vec3(side, side, side))));
}

// A rotation about a generic axis, so that no test is aligned with the frame by luck.
Quat turn(double angle) {
    return Quat(Eigen::AngleAxisd(angle, Vec3(0.3, -0.8, 0.52).normalized()));
}

} // namespace

TEST(AggregateLabels, SpheresLinkWithinTheToleranceOfTheSmallerRadius) {
    const double r1 = 1.0, r2 = 0.5; // the limit is T r2; T r1 would link at 1.5 and 2
    for (const GapCase& c : gap_cases) {
        Bodies b;
        const Vec3 x2 = Vec3(0.6, -0.3, 0.74).normalized() * (r1 + r2 + c.factor * tol * r2);
        b.add_sphere(7, 1.0, r1, Vec3(1, 2, 3), Vec3::Zero(), Vec3::Zero());
        b.add_sphere(4, 0.1, r2, Vec3(1, 2, 3) + x2, Vec3::Zero(), Vec3::Zero());
        const auto labels = aggregate_labels(b, tol);
        EXPECT_EQ(labels[0], c.linked ? 4 : 7) << c.factor;
        EXPECT_EQ(labels[1], 4) << c.factor;
    }
}

TEST(AggregateLabels, RigidAggregatesLinkThroughTheirTurnedSpheresNeverWithin) {
    // Two dumbbells of touching unit spheres (their own contact is no edge). B is turned by 90
    // degrees about z, so its spheres lie along y: world (3 + g, 0, 0) and (3 + g, 2, 0), gap g
    // to A's sphere at (1, 0, 0). Unturned, B's spheres would overlap A's whatever g.
    const std::vector<SpherePart> dumbbell{{Vec3(-1, 0, 0), 1.0, 1.0}, {Vec3(1, 0, 0), 1.0, 1.0}};
    const Quat quarter(Eigen::AngleAxisd(pi / 2, Vec3::UnitZ()));
    for (const GapCase& c : gap_cases) {
        const double g = c.factor * tol * 1.0;
        for (const double a : {0.0, 0.9}) { // and the whole scene turned about the origin
            Bodies b;
            add_rigid_body(b, 12, dumbbell, Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), turn(a));
            add_rigid_body(b, 11, dumbbell, turn(a) * Vec3(3 + g, 1, 0), Vec3::Zero(), Vec3::Zero(),
                           turn(a) * quarter);
            const auto labels = aggregate_labels(b, tol);
            EXPECT_EQ(labels[0], c.linked ? 11 : 12) << c.factor << " " << a;
            EXPECT_EQ(labels[1], 11);
        }
    }
}

TEST(AggregateLabels, CubesLinkFaceToFaceWithinTheToleranceOfTheSmallerCircumradius) {
    // Cubes of sides 2 and 1 (circumradii sqrt(3) and sqrt(3)/2), the small one's face inside
    // the big one's. Their bounding spheres overlap at every gap tested, so only the hulls'
    // distance (GJK) can tell the cases apart.
    for (const GapCase& c : gap_cases) {
        for (const double a : {0.0, 0.9}) {
            Bodies b;
            const auto big = cube_shape(b, 2.0), small = cube_shape(b, 1.0);
            add_polyhedron(b, 3, big, 1000.0, Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), turn(a));
            const double limit = tol * std::min(b.radius[0], std::sqrt(3.0) / 2);
            add_polyhedron(b, 8, small, 1000.0, turn(a) * Vec3(1.5 + c.factor * limit, 0.3, -0.2),
                           Vec3::Zero(), Vec3::Zero(), turn(a));
            ASSERT_NEAR(b.radius[1], std::sqrt(3.0) / 2, 4 * eps);
            EXPECT_EQ(aggregate_labels(b, tol)[1], c.linked ? 3 : 8) << c.factor << " " << a;
        }
    }
    // Overlapping hulls are in contact.
    Bodies b;
    const auto cube = cube_shape(b, 2.0);
    add_polyhedron(b, 3, cube, 1000.0, Vec3::Zero(), Vec3::Zero(), Vec3::Zero());
    add_polyhedron(b, 8, cube, 1000.0, Vec3(1.2, 0.4, 0.1), Vec3::Zero(), Vec3::Zero(), turn(1));
    EXPECT_EQ(aggregate_labels(b, tol)[1], 3);
}

TEST(AggregateLabels, SphereAndCubeLinkAtFaceAndCorner) {
    // A sphere of radius 0.25 (the smaller radius, against sqrt(3)) off a face and off a corner
    // of a cube of side 2: the hull's distance from its centre is 0.25 + gap in both.
    const double rs = 0.25;
    const Vec3 corner_dir = Vec3(1, 1, 1).normalized();
    for (const GapCase& c : gap_cases) {
        const double g = c.factor * tol * rs;
        const Vec3 places[] = {Vec3(1 + rs + g, 0.2, -0.1), Vec3(1, 1, 1) + (rs + g) * corner_dir};
        for (const Vec3& at : places) {
            Bodies b;
            const auto cube = cube_shape(b, 2.0);
            add_polyhedron(b, 5, cube, 1000.0, Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), turn(2));
            b.add_sphere(9, 1.0, rs, turn(2) * at, Vec3::Zero(), Vec3::Zero());
            b.add_sphere(2, 1.0, rs, Vec3(50, 0, 0), Vec3::Zero(), Vec3::Zero()); // far away
            const auto labels = aggregate_labels(b, tol);
            EXPECT_EQ(labels[1], c.linked ? 5 : 9) << c.factor << " " << at.transpose();
            EXPECT_EQ(labels[2], 2);
        }
    }
}

TEST(AggregateLabels, LabelsDoNotDependOnRowOrder) {
    // A mixed scene: a chain of free spheres (ids 40, 17, 33) touching a dumbbell (21) that
    // touches a cube (6); a cube pair (50, 51) touching face to face; a lone sphere (2).
    // Components are {6, 17, 21, 33, 40}, {50, 51}, {2}; each labelled by its smallest id.
    struct Item {
        int kind; // 0 sphere, 1 dumbbell, 2 cube
        std::int64_t id;
        Vec3 x;
    };
    const double g = 0.5 * tol * 0.5; // half the limit for the smallest radius, 0.5
    const std::vector<Item> items{{0, 40, Vec3(-3.0 - 2 * g, 0, 0)}, {0, 17, Vec3(-2.0 - g, 0, 0)},
                                  {0, 33, Vec3(-1.0, 0, 0)},         {1, 21, Vec3(0.5 + g, 0, 0)},
                                  {2, 6, Vec3(2.5 + 2 * g, 0, 0)},   {2, 50, Vec3(0, 10, 0)},
                                  {2, 51, Vec3(2.0 + g, 10.1, 0)},   {0, 2, Vec3(0, -10, 0)}};
    const std::vector<SpherePart> dumbbell{{Vec3(-0.5, 0, 0), 0.5, 1.0},
                                           {Vec3(0.5, 0, 0), 0.5, 1.0}};
    const auto build = [&](const std::vector<std::size_t>& order) {
        Bodies b;
        const auto cube = cube_shape(b, 2.0);
        for (const std::size_t k : order) {
            const Item& it = items[k];
            if (it.kind == 0) b.add_sphere(it.id, 1.0, 0.5, it.x, Vec3::Zero(), Vec3::Zero());
            if (it.kind == 1) add_rigid_body(b, it.id, dumbbell, it.x, Vec3::Zero(), Vec3::Zero());
            if (it.kind == 2) add_polyhedron(b, it.id, cube, 1.0, it.x, Vec3::Zero(), Vec3::Zero());
        }
        return labels_by_id(b, tol);
    };
    std::vector<std::size_t> order(items.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    const auto reference = build(order);
    const std::map<std::int64_t, std::int64_t> expected{{40, 6}, {17, 6},  {33, 6},  {21, 6},
                                                        {6, 6},  {50, 50}, {51, 50}, {2, 2}};
    EXPECT_EQ(reference, expected);
    std::mt19937 rng(22);
    for (int trial = 0; trial < 10; ++trial) {
        std::shuffle(order.begin(), order.end(), rng);
        EXPECT_EQ(build(order), expected) << trial;
    }
}

TEST(AggregateLabels, LatticeOfTwentyThousandTouchingSpheresIsOneAggregate) {
    // 20 x 25 x 40 unit spheres: at spacing 2 every neighbour touches (gap 0, exact), at spacing
    // 2 (1 + 2 T) none does. Ids are a permutation, so the label is not row 0's id by chance.
    // A grid broad phase makes this O(N); all pairs would be 2e8 tests.
    const int nx = 20, ny = 25, nz = 40, n = nx * ny * nz;
    for (const double spacing : {2.0, 2.0 * (1 + 2 * tol)}) {
        Bodies b;
        b.reserve(n);
        for (int k = 0; k < n; ++k) {
            const Vec3 x(k % nx, (k / nx) % ny, k / (nx * ny));
            b.add_sphere(100 + (static_cast<std::int64_t>(k) * 7919 + 1234) % n, 1.0, 1.0,
                         spacing * x, Vec3::Zero(), Vec3::Zero());
        }
        const auto labels = aggregate_labels(b, tol);
        if (spacing == 2.0) {
            EXPECT_TRUE(
                std::all_of(labels.begin(), labels.end(), [](std::int64_t l) { return l == 100; }));
        } else {
            EXPECT_EQ(labels, b.id);
        }
    }
}

namespace {

// A rigidly turning pile: its bodies as built at t = 0 (centre of mass com0, velocity V),
// carried through time t by the rotation exp(w t) about the moving centre of mass, every body
// moving with V + w x r and spinning at w.
struct RigidScene {
    Bodies start;
    Vec3 com0 = Vec3::Zero(), V = Vec3::Zero(), w = Vec3::Zero();

    [[nodiscard]] Bodies at(double t, const Vec3& spin) const {
        Bodies b = start;
        const Quat q = spin.norm() > 0 ? Quat(Eigen::AngleAxisd(spin.norm() * t, spin.normalized()))
                                       : Quat::Identity();
        for (std::size_t k = 0; k < b.size(); ++k) {
            const Vec3 r = q * (start.pos[k] - com0);
            b.pos[k] = com0 + V * t + r;
            b.vel[k] = V + spin.cross(r);
            b.spin[k] = spin;
            b.orientation[k] = q * start.orientation[k];
        }
        return b;
    }
};

// Two dumbbells (ids 3 and 1), turned differently, touching at g = T/2, plus a free sphere (id
// 9) of radius 0.7 touching them, and an escaper (id 4) far away that the scene leaves alone.
RigidScene pile(double length, double mass) {
    RigidScene s;
    const double L = length, m = mass;
    const std::vector<SpherePart> dumbbell{{Vec3(-L, 0, 0), L, m}, {Vec3(L, 0, 0), 0.5 * L, m}};
    const double g = 0.5 * tol * 0.5 * L;
    const Quat quarter(Eigen::AngleAxisd(pi / 2, Vec3::UnitZ()));
    add_rigid_body(s.start, 3, dumbbell, Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), turn(0.4));
    // B's first sphere (radius L) 2.5 L + g from A's second sphere (radius L/2), along y.
    const Vec3 a2 = sphere_centre(s.start, 1);
    const Vec3 b_centre = a2 + Vec3(0, 1.5 * L + g, 0);
    const Quat qb = quarter * Quat(Eigen::AngleAxisd(0.3, Vec3::UnitX()));
    add_rigid_body(s.start, 1, dumbbell, b_centre - qb * Vec3(-L, 0, 0), Vec3::Zero(), Vec3::Zero(),
                   qb);
    s.start.add_sphere(9, 0.4 * m, 0.7 * L, a2 + Vec3(0, -(1.2 * L + g), 0), Vec3::Zero(),
                       Vec3::Zero());
    Vec3 mx = Vec3::Zero();
    double mt = 0;
    for (std::size_t k = 0; k < s.start.size(); ++k) {
        mx += s.start.mass[k] * s.start.pos[k];
        mt += s.start.mass[k];
    }
    s.com0 = mx / mt;
    return s;
}

// The pile's inertia tensor about its centre of mass, column k the angular momentum of the
// rigid turn about axis k (L = I e_k).
Mat3 pile_inertia(const RigidScene& s, double G) {
    const auto labels = aggregate_labels(s.at(0, Vec3::UnitX()), tol);
    Mat3 inertia;
    for (int k = 0; k < 3; ++k)
        inertia.col(k) = aggregate_spins(s.at(0, Vec3::Unit(k)), labels, G)[0].angular_momentum;
    return inertia;
}

// A spin of this rate about the pile's axis of largest moment: the one steady rigid turn (a
// turn about any other axis makes L = I w move with the pile, which takes a torque).
Vec3 principal_spin(const RigidScene& s, double rate, double G) {
    const Eigen::SelfAdjointEigenSolver<Mat3> eig(pile_inertia(s, G));
    return rate * eig.eigenvectors().col(2);
}

} // namespace

TEST(AggregateSpins, RigidlyTurningPileHasItsSpin) {
    // L = sum m r x (w x r) + I_k w = I w exactly for a rigid motion, so I^-1 L is w to the
    // round-off of the tensor sums and the 3 x 3 solve (a few tens of eps at condition ~10).
    RigidScene s = pile(1.0, 1.0);
    s.V = Vec3(0.1, -0.05, 0.02);
    const Vec3 w(0.3, -0.2, 0.5);
    for (const double t : {0.0, 3.7}) {
        const Bodies b = s.at(t, w);
        const auto labels = aggregate_labels(b, tol);
        ASSERT_EQ(labels, std::vector<std::int64_t>({1, 1, 1}));
        const auto spins = aggregate_spins(b, labels, 1.0);
        ASSERT_EQ(spins.size(), 1u);
        EXPECT_EQ(spins[0].label, 1);
        EXPECT_EQ(spins[0].members, 3u);
        EXPECT_LT((spins[0].spin - w).norm(), 64 * eps * w.norm()) << spins[0].spin.transpose();
        // The rate scale from its definition.
        Vec3 mx = Vec3::Zero();
        double M = 0;
        for (std::size_t k = 0; k < b.size(); ++k) {
            mx += b.mass[k] * b.pos[k];
            M += b.mass[k];
        }
        double R = 0;
        for (std::size_t k = 0; k < b.size(); ++k)
            R = std::max(R, (b.pos[k] - mx / M).norm() + b.radius[k]);
        EXPECT_NEAR(spins[0].rate_scale, std::sqrt(M / (R * R * R)),
                    16 * eps * spins[0].rate_scale);
    }
}

namespace {

// What a tracker decided at each observation: its answer and its reference time.
struct Decisions {
    std::vector<bool> settled;
    std::vector<double> reference;
};

// A history of the pile of pile(): turning rigidly at w (with G chosen so that the rate scale
// is about 1 / time_unit), with at given steps the spin changed by a multiple of the
// tolerance, the free sphere leaving and coming back, the escaper wandering. Scaled by
// length, mass and the matching time unit.
Decisions history(double length, double mass, double G) {
    const double time = std::sqrt(length * length * length / (G * mass)); // 1 / rate
    RigidScene s = pile(length, mass);
    s.V = Vec3(0.1, -0.05, 0.02) * length / time;
    s.start.add_sphere(4, mass, 0.5 * length, Vec3(100, 0, 0) * length, Vec3::Zero(), Vec3::Zero());
    // A steady turn at 0.3 w_d: a spin change that moves L by k tolerances moves w.L by 0.6 k.
    const double w_d =
        aggregate_spins(s.at(0, Vec3::Zero()), aggregate_labels(s.at(0, Vec3::Zero()), tol), G)[0]
            .rate_scale;
    const Vec3 w = principal_spin(s, 0.3 * w_d, G);
    SettleConfig config;
    config.window = 9.5 * time; // off the observation times: no ties to round-off
    config.contact_tolerance = tol;
    config.spin_tolerance = 0.01;
    config.G = G;
    const auto labels = aggregate_labels(s.at(0, w), tol);
    const AggregateSpin a = aggregate_spins(s.at(0, w), labels, G)[0];
    // A faster steady turn about the same axis, its angular momentum I_max |dw| longer by one
    // tolerance, tol I_m w_d (its w.L by 2 I_max w.dw: 0.6 tolerances).
    const double i_max = w.normalized().dot(pile_inertia(s, G) * w.normalized());
    const Vec3 dw = config.spin_tolerance * a.moment * a.rate_scale / i_max * w.normalized();
    SettleTracker tracker(config);
    Decisions d;
    for (int step = 0; step <= 40; ++step) {
        const double t = step * time;
        Vec3 spin = w;
        if (step == 12) spin = w + 0.5 * dw; // within tolerance: no change
        if (step >= 14) spin = w + 2.0 * dw; // a new spin from here on
        Bodies b = s.at(t, spin);
        b.pos[3] += Vec3(0, step, 0) * length; // the escaper wanders: no change
        // The free sphere leaves at step 30 (membership changes) and is back at 31.
        if (step == 30) b.pos[2] += Vec3(0, -5, 0) * length;
        d.settled.push_back(tracker.observe(b, t));
        d.reference.push_back(tracker.reference_time() / time);
    }
    return d;
}

} // namespace

TEST(SettleTracker, SettlesAfterTheWindowAndResetsOnChanges) {
    const Decisions d = history(1.0, 1.0, 1.0);
    for (int step = 0; step <= 40; ++step) {
        // Reference at 0; the spin change of 2 tolerances at 14 resets it, the half tolerance
        // at 12 does not; the sphere leaving at 30 and coming back at 31 resets it twice.
        const double ref = step < 14 ? 0 : step < 30 ? 14 : step < 31 ? 30 : 31;
        EXPECT_EQ(d.reference[static_cast<std::size_t>(step)], ref) << step;
        EXPECT_EQ(d.settled[static_cast<std::size_t>(step)], step - ref >= 9.5) << step;
    }
}

TEST(SettleTracker, ARigidTumblerIsSettledThoughItsSpinVectorMoves) {
    // A rigid pile turning about a non-principal axis: w precesses about the fixed L. The states
    // it passes through are its configuration turned about L, with w turned alike: the same L
    // and w.L, a different w (Landau & Lifshitz, Mechanics, sec. 37).
    const RigidScene s = pile(1.0, 1.0);
    const Vec3 w(0.3, -0.2, 0.5);
    const Bodies b0 = s.at(0.0, w);
    const auto labels = aggregate_labels(b0, tol);
    const AggregateSpin a0 = aggregate_spins(b0, labels, 1.0)[0];
    const Quat turn_about_L(Eigen::AngleAxisd(1.0, a0.angular_momentum.normalized()));
    Bodies b1 = b0;
    for (std::size_t k = 0; k < b1.size(); ++k) {
        b1.pos[k] = s.com0 + turn_about_L * (b0.pos[k] - s.com0);
        b1.vel[k] = turn_about_L * b0.vel[k];
        b1.spin[k] = turn_about_L * b0.spin[k];
        b1.orientation[k] = turn_about_L * b0.orientation[k];
    }
    const AggregateSpin a1 = aggregate_spins(b1, aggregate_labels(b1, tol), 1.0)[0];
    // w moved by far more than the tolerance of the rate; L and w.L did not.
    ASSERT_GT((a1.spin - a0.spin).norm(), 10 * 0.01 * a0.rate_scale);
    EXPECT_LT((a1.angular_momentum - a0.angular_momentum).norm(),
              64 * eps * a0.angular_momentum.norm());
    SettleConfig config;
    config.window = 1.5;
    config.G = 1.0;
    SettleTracker tracker(config);
    EXPECT_FALSE(tracker.observe(b0, 0.0));
    EXPECT_FALSE(tracker.observe(b1, 1.0));
    EXPECT_TRUE(tracker.observe(b0, 2.0));
    EXPECT_EQ(tracker.resets(), 1);
}

TEST(SettleTracker, DecisionsDoNotDependOnUnits) {
    // Lengths x 1e3, masses x 1e6 in SI with G_SI: time x sqrt(1e9 / 1e6) / sqrt(G_SI). The
    // decisions must be the same, reference times the same in units of the time scale.
    const Decisions a = history(1.0, 1.0, 1.0);
    const Decisions b = history(1e3, 1e6, G_SI);
    EXPECT_EQ(a.settled, b.settled);
    ASSERT_EQ(a.reference.size(), b.reference.size());
    for (std::size_t k = 0; k < a.reference.size(); ++k)
        EXPECT_NEAR(a.reference[k], b.reference[k], 1e-12 * (1 + a.reference[k])) << k;
}

TEST(SettleTracker, BodyJoiningOrMergingResetsTheReference) {
    const RigidScene s = pile(1.0, 1.0);
    const Vec3 w = principal_spin(s, 0.2, 1.0);
    SettleConfig config;
    config.window = 5.0;
    config.G = 1.0;
    SettleTracker tracker(config);
    Bodies apart = s.at(0, w);
    apart.pos[2] += Vec3(0, -3, 0); // the free sphere not yet joined
    EXPECT_FALSE(tracker.observe(apart, 0.0));
    apart.pos[2] += Vec3(0, -1, 0); // still apart, elsewhere: no change
    EXPECT_FALSE(tracker.observe(apart, 2.0));
    EXPECT_EQ(tracker.reference_time(), 0.0);
    EXPECT_FALSE(tracker.observe(s.at(3.0, w), 3.0)); // it joins
    EXPECT_EQ(tracker.reference_time(), 3.0);
    EXPECT_TRUE(tracker.observe(s.at(8.0, w), 8.0));
    // The sphere merges into a dumbbell: it is gone, and with it the partition.
    Bodies merged = s.at(9.0, w);
    std::vector<std::uint8_t> remove(merged.size(), 0);
    remove[2] = 1;
    remove_flagged(merged, remove);
    EXPECT_FALSE(tracker.observe(merged, 9.0));
    EXPECT_EQ(tracker.reference_time(), 9.0);
    EXPECT_EQ(tracker.resets(), 3);
}

TEST(SettleTracker, RefusesConfigurationsOutOfRange) {
    const auto make = [](double window, double tolerance, double spin, double G) {
        SettleConfig c;
        c.window = window;
        c.contact_tolerance = tolerance;
        c.spin_tolerance = spin;
        c.G = G;
        return SettleTracker(c);
    };
    EXPECT_THROW(make(0.0, tol, 0.01, 1.0), std::invalid_argument);
    EXPECT_THROW(make(std::numeric_limits<double>::quiet_NaN(), tol, 0.01, 1.0),
                 std::invalid_argument);
    EXPECT_THROW(make(1.0, -1.0, 0.01, 1.0), std::invalid_argument);
    EXPECT_THROW(make(1.0, tol, 0.0, 1.0), std::invalid_argument);
    EXPECT_THROW(make(1.0, tol, 0.01, 0.0), std::invalid_argument);
    EXPECT_NO_THROW(make(1.0, tol, 0.01, 1.0));
}
