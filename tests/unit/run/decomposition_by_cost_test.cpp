// SPDX-License-Identifier: MIT
// The decomposition over ranks weighed by each body's measured cost (issue 34, item 2;
// run/run_ranks.hpp, RunRanks::redistribute): in a cloud concentrated towards its centre, equal
// numbers of bodies give the ranks of the core more of the tree's interactions; weighed by
// each body's interactions in the last evaluation, the ranks' work in the next evaluation of
// the same bodies is shared within the 10 % that docs/plans/mpi-distributed-runs.md takes as
// balanced (it moves a little: the ranks' essential trees change with their domains).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <numeric>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "rubble/core/bodies.hpp"
#include "rubble/gravity/gravity_solver.hpp"
#include "rubble/run/run_ranks.hpp"
#include "thread_ranks.hpp"

namespace {

using rubble::Bodies;
using rubble::Vec3;

// A cloud concentrated towards its centre (radius R u^3 for uniform u: density ~ r^-2), where
// the tree's interaction lists are longest in the core.
Bodies concentrated_cloud(std::size_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::normal_distribution<double> g(0.0, 1.0);
    Bodies b;
    for (std::size_t k = 0; k < n; ++k) {
        Vec3 dir(g(rng), g(rng), g(rng));
        dir.normalize();
        const double r = 1000.0 * std::pow(u(rng), 3.0);
        b.add_sphere(static_cast<std::int64_t>(k), 1e9, 1.0, r * dir, Vec3::Zero(), Vec3::Zero());
    }
    return b;
}

// Each rank's measured work (its bodies' summed costs), evaluated twice: in the decomposition
// by count, then after a redistribution weighed by those costs.
struct Work {
    std::vector<std::int64_t> by_count, by_cost;
};

double imbalance(const std::vector<std::int64_t>& w) {
    const double mean = static_cast<double>(std::accumulate(w.begin(), w.end(), std::int64_t{0})) /
                        static_cast<double>(w.size());
    return static_cast<double>(*std::max_element(w.begin(), w.end())) / mean;
}

Work measure(int ranks, std::size_t n) {
    Work work;
    work.by_count.assign(static_cast<std::size_t>(ranks), 0);
    work.by_cost.assign(static_cast<std::size_t>(ranks), 0);
    std::mutex m;
    rubble::test::ThreadRanks(ranks).run([&](rubble::core::Communicator& world) {
        rubble::run::RunRanks r(world);
        Bodies b = world.rank() == 0 ? concentrated_cloud(n, 7) : Bodies{};
        r.scatter(b);
        rubble::gravity::GravityConfig c;
        c.backend = rubble::gravity::Backend::tree;
        c.theta = 0.5;
        c.multipole_order = 2;
        auto g = r.make_gravity(c, n);
        const auto evaluate = [&](std::vector<std::int64_t>& out) {
            std::vector<Vec3> acc(b.size());
            std::vector<double> pot(b.size());
            ASSERT_TRUE(r.gravity_at_centres(b));
            g->compute(b.pos, b.mass, acc, pot);
            const auto& cost = r.costs();
            ASSERT_EQ(cost.size(), b.size());
            std::lock_guard lock(m);
            out[static_cast<std::size_t>(world.rank())] =
                std::accumulate(cost.begin(), cost.end(), std::int64_t{0});
        };
        evaluate(work.by_count);
        r.redistribute(b);
        evaluate(work.by_cost);
    });
    return work;
}

TEST(DecompositionByCost, MeasuredWorkIsSharedMoreEvenlyThanByCount) {
    for (const int ranks : {2, 3, 4}) {
        const Work w = measure(ranks, 4000);
        std::printf("[measured] %d ranks: work max/mean by count %.3f, by cost %.3f\n", ranks,
                    imbalance(w.by_count), imbalance(w.by_cost));
        EXPECT_LT(imbalance(w.by_cost), imbalance(w.by_count)) << ranks << " ranks";
        EXPECT_LT(imbalance(w.by_cost), 1.10) << ranks << " ranks";
    }
}

} // namespace
