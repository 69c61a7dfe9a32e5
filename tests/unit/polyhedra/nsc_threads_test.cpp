// SPDX-License-Identifier: MIT
// The NSC stepper gives the same bits with any number of OpenMP threads (issue 21, item 4:
// deterministic for a given thread count; rubble's is stronger): the contact search shares the
// candidate pairs between threads and lists their manifolds in pair order, and the solver sums
// in fixed blocks. Checked on a small pile of random hulls poured into a box, with enough
// candidate pairs that the search does run in parallel.
#include <cstdint>
#include <memory>
#include <vector>

#include <gtest/gtest.h>
#include <omp.h>

#include "rubble/boundaries/wall.hpp"
#include "rubble/core/polyhedron.hpp"
#include "rubble/core/random.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/gravity/no_gravity.hpp"
#include "rubble/ic/aggregates.hpp"
#include "rubble/integrate/simulation.hpp"
#include "rubble/polyhedra/nsc_stepper.hpp"

using namespace rubble;

namespace {

constexpr double r_grain = 0.05; // m
constexpr int side = 6, layers = 4;
constexpr double spacing = 0.105; // m, between lattice points
constexpr double dt = 2e-3;       // s

// 144 random 16-point hulls on a lattice over a box's floor, falling under g for `steps` steps
// on `threads` threads; the bodies afterwards, and the most candidate pairs of a step seen.
std::pair<Bodies, std::int64_t> pour(int threads, int steps) {
    Bodies b;
    Rng rng(11);
    ic::GrainConfig grain;
    grain.kind = ic::GrainKind::hull;
    grain.aspect = Vec3(1.0, 0.7, 0.5);
    std::int64_t id = 0;
    for (int k = 0; k < layers; ++k)
        for (int j = 0; j < side; ++j)
            for (int i = 0; i < side; ++i) {
                const auto shape = b.add_hull_shape(
                    shapes::make_polyhedron(ic::make_grain_hull(grain, r_grain, rng)));
                const Vec3 x((i + 0.5) * spacing, (j + 0.5) * spacing, (k + 0.5) * spacing);
                const Quat q(Eigen::AngleAxisd(rng.uniform(0.0, 3.0), rng.unit_vector()));
                add_polyhedron(b, id++, shape, 2500.0, x, 0.2 * rng.unit_vector(),
                               3.0 * rng.unit_vector(), q);
            }
    polyhedra::NscConfig c;
    c.mu = 0.5;
    c.margin = 1e-3;
    c.solver.max_iterations = 30;
    c.solver.coulomb_max_iterations = 2;
    c.walls = boundaries::box_walls(Vec3::Zero(), Vec3(side * spacing, side * spacing, 1.0),
                                    Vec3::Zero(), "box");
    const int before = omp_get_max_threads();
    omp_set_num_threads(threads);
    integrate::Simulation sim(std::move(b), std::make_unique<gravity::NoGravity>(), dt);
    sim.set_uniform_field(Vec3(0, 0, -9.81));
    sim.set_stepper(std::make_unique<polyhedra::NscStepper>(c));
    std::int64_t most = 0;
    for (int s = 0; s < steps; ++s) {
        sim.step();
        most = std::max(most, sim.last_stats().contacts);
    }
    omp_set_num_threads(before);
    return {sim.bodies(), most};
}

TEST(NscThreads, APileIsTheSameBitsOnOneTwoAndThreeThreads) {
    constexpr int steps = 150;
    const auto [one, contacts] = pour(1, steps);
    // Enough contacts that the search ran in parallel (pairs >= 256 then, a few per contact).
    ASSERT_GT(contacts, 400);
    for (const int threads : {2, 3}) {
        const auto [many, c] = pour(threads, steps);
        EXPECT_EQ(c, contacts);
        for (std::size_t k = 0; k < one.size(); ++k) {
            ASSERT_EQ(many.pos[k], one.pos[k]) << threads << " threads, body " << k;
            ASSERT_EQ(many.vel[k], one.vel[k]) << threads << " threads, body " << k;
            ASSERT_EQ(many.spin[k], one.spin[k]) << threads << " threads, body " << k;
            ASSERT_EQ(many.orientation[k].coeffs(), one.orientation[k].coeffs())
                << threads << " threads, body " << k;
        }
    }
}

} // namespace
