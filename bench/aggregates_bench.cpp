// SPDX-License-Identifier: MIT
// Event-driven collisions of rigid aggregates (issue 20, item 8; docs/aggregates.md):
//   (a) a gas of 2 x 2 x 2 cubes against the gas of the same spheres free, in one program, so
//       that the cost per collision of the two can be compared (target: the aggregates' at
//       most 3x the spheres');
//   (b) a self-gravitating cloud of cubes collapsing under tree gravity through its dense
//       phase (steps and collisions per second).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>

#include <benchmark/benchmark.h>

#include "aggregate_collapse.hpp"
#include "gas.hpp"
#include "rubble/collisions/event_drift.hpp"
#include "rubble/gravity/tree_gravity.hpp"
#include "rubble/ic/generators.hpp"
#include "rubble/integrate/simulation.hpp"

using namespace rubble;

namespace {

// args: kind (0: free spheres, 1: cubes of 8 of the same spheres), side k of the spheres'
// lattice (k^3 spheres; k even: (k/2)^3 cubes), packing fraction of the spheres x 100, drift
// length in mean free times. Both gases have the same spheres in the same periodic box at the
// same temperature (tests/support/gas.hpp). A mean free time is what the gas itself shows
// while it melts from its lattice: the drift is m times the time in which the gas has as many
// collisions as bodies (so `coll/body/step` = collisions / bodies / drift is about m for either
// gas, as in BM_GranularGasDrift), and the per-drift work (neighbour lists, the first
// prediction of every pair) is spread over the same number of collisions per body.
void BM_AggregateGasDrift(benchmark::State& state) {
    const bool cubes = state.range(0) != 0;
    const auto k = static_cast<int>(state.range(1));
    const double phi = static_cast<double>(state.range(2)) / 100.0;
    const double m = static_cast<double>(state.range(3));
    test::Gas gas =
        cubes ? test::cube_gas(k / 2, phi, 1.0, 1) : test::lattice_gas(k * k * k, phi, 1.0, 1);
    collisions::CollisionConfig c;
    c.eps_n = 1.0;
    c.periodic_box = gas.box;
    collisions::EventDrivenDrift engine(c);
    const auto n = static_cast<double>(gas.bodies.size());
    // Melt the lattice: eight drifts of the spheres' Enskog mean free time (granular_gas_test),
    // the last four measuring the collision rate.
    const double d = 2.0 * gas.radius;
    const double omega = 4.0 * d * d * (1.0 - 0.5 * phi) / std::pow(1.0 - phi, 3) * std::sqrt(pi);
    double t = 0.0, melt_collisions = 0.0;
    for (int s = 0; s < 8; ++s, t += 1.0 / omega) {
        const auto st = engine.drift(gas.bodies, 1.0 / omega, t);
        if (s >= 4) melt_collisions += static_cast<double>(st.collisions);
    }
    const double rate = melt_collisions / (4.0 / omega); // collisions per second
    const double h = m * n / rate;
    std::int64_t collisions = 0, renewals = 0, stale = 0, pairs = 0, grazes = 0;
    for (auto _ : state) {
        const auto s = engine.drift(gas.bodies, h, t);
        t += h;
        collisions += s.collisions;
        renewals += s.renewals;
        stale += s.stale_events;
        pairs += s.candidate_pairs;
        grazes += s.grazes;
    }
    const auto iterations = static_cast<double>(state.iterations());
    const auto all = static_cast<double>(std::max<std::int64_t>(collisions, 1));
    state.counters["bodies"] = n;
    state.counters["spheres"] = static_cast<double>(gas.bodies.spheres.size());
    state.counters["collisions/s"] =
        benchmark::Counter(static_cast<double>(collisions), benchmark::Counter::kIsRate);
    // Seconds per collision (the inverse rate: wall time of the drifts over their collisions).
    state.counters["s/coll"] = benchmark::Counter(
        static_cast<double>(collisions), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    state.counters["coll/body/step"] = static_cast<double>(collisions) / (n * iterations);
    state.counters["neighbours/body"] = 2.0 * static_cast<double>(pairs) / (n * iterations);
    state.counters["renewals/coll"] = static_cast<double>(renewals) / all;
    state.counters["stale/coll"] = static_cast<double>(stale) / all;
    state.counters["grazes/coll"] = static_cast<double>(grazes) / all;
}
BENCHMARK(BM_AggregateGasDrift)
    ->ArgNames({"cubes", "k", "phi100", "mft"})
    ->Args({0, 44, 20, 1})
    ->Args({1, 44, 20, 1})
    ->Args({0, 44, 20, 4})
    ->Args({1, 44, 20, 4})
    ->Args({0, 22, 20, 1})
    ->Args({1, 22, 20, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(2.0);

// args: cubes N, start and end of the timed window in steps (hundredths of the free-fall
// time). The cold-collapse test's cloud (tests/support/aggregate_collapse.hpp) of N cubes of 8
// spheres collapses under tree gravity (theta 0.5, the run's defaults). The infall before the
// window runs untimed; the one iteration is the window, step by step.
void BM_AggregateCollapse(benchmark::State& state) {
    test::AggregateCollapse setup =
        test::aggregate_collapse(state.range(0), ic::GrainKind::cube, 8);
    integrate::Simulation sim(std::move(setup.bodies),
                              std::make_unique<gravity::TreeGravity>(setup.G, 0.0, 0.5, 4, 16, 64),
                              setup.dt);
    sim.set_stepper(std::make_unique<collisions::EventDrivenDrift>(setup.collisions));
    const auto from = state.range(1), to = state.range(2);
    for (std::int64_t s = 0; s < from; ++s)
        sim.step();
    std::int64_t contacts = 0, most = 0, overlaps = 0;
    for (auto _ : state) {
        for (std::int64_t s = from; s < to; ++s) {
            sim.step();
            const integrate::StepStats& st = sim.last_stats();
            contacts += st.contacts;
            most = std::max(most, st.contacts);
            overlaps += st.overlaps;
        }
    }
    const auto steps = static_cast<double>((to - from) * state.iterations());
    state.counters["steps/s"] = benchmark::Counter(steps, benchmark::Counter::kIsRate);
    state.counters["collisions/s"] =
        benchmark::Counter(static_cast<double>(contacts), benchmark::Counter::kIsRate);
    state.counters["coll/step"] = static_cast<double>(contacts) / steps;
    state.counters["most/step"] = static_cast<double>(most);
    state.counters["overlaps"] = static_cast<double>(overlaps);
}
BENCHMARK(BM_AggregateCollapse)
    ->ArgNames({"N", "from", "to"})
    ->Args({10000, 85, 90})
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();

} // namespace
