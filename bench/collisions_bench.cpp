// SPDX-License-Identifier: MIT
// Event-driven collision benchmarks (issue: collisions resolved per second, cost per
// collision against N): an elastic hard-sphere gas in a periodic box, one drift per
// iteration, the drift one or a few Enskog mean free times long (each body collides about
// that many times per drift).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>

#include "gas.hpp"
#include "rubble/collisions/event_drift.hpp"

using namespace rubble;

namespace {

// The same bodies in random array order. A lattice lists its bodies row by row, so array
// neighbours are mostly space neighbours; a cloud drawn at random (ic/, the collapse) has no
// such order, and a body's neighbours then sit anywhere in memory.
Bodies shuffled(const Bodies& b, std::uint64_t seed) {
    std::vector<std::size_t> order(b.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::shuffle(order.begin(), order.end(), std::mt19937_64(seed));
    Bodies out;
    out.reserve(b.size());
    for (const std::size_t k : order)
        out.add_sphere(b.id[k], b.mass[k], b.radius[k], b.pos[k], b.vel[k], b.spin[k]);
    return out;
}

// args: lattice side k (N = k^3), packing fraction x 100, drift length in mean free times,
// neighbourhood skin x 100 (collisions.skin; 0: adaptive), array order (0: lattice rows,
// 1: random).
void BM_GranularGasDrift(benchmark::State& state) {
    const auto k = static_cast<int>(state.range(0));
    const double phi = static_cast<double>(state.range(1)) / 100.0;
    test::Gas gas = test::lattice_gas(k * k * k, phi, 1.0, 1);
    if (state.range(4) != 0) gas.bodies = shuffled(gas.bodies, 7);
    collisions::CollisionConfig c;
    c.eps_n = 1.0;
    c.periodic_box = gas.box;
    c.skin = static_cast<double>(state.range(3)) / 100.0;
    collisions::EventDrivenDrift engine(c);
    // Enskog collision frequency (granular_gas_test.cpp): omega = 4 n d^2 g sqrt(pi T / m).
    const double d = 2.0 * gas.radius;
    const double omega = 4.0 * d * d * (1.0 - 0.5 * phi) / std::pow(1.0 - phi, 3) * std::sqrt(pi);
    const double h = static_cast<double>(state.range(2)) / omega;
    double t = 0.0;
    for (int m = 0; m < 5; ++m, t += h) // melt the lattice before timing
        (void)engine.drift(gas.bodies, h, t);
    std::int64_t collisions = 0, renewals = 0, stale = 0, pairs = 0, rebuilds = 0;
    double skin = c.skin;
    for (auto _ : state) {
        const auto s = engine.drift(gas.bodies, h, t);
        t += h;
        collisions += s.collisions;
        renewals += s.renewals;
        stale += s.stale_events;
        pairs += s.candidate_pairs;
        rebuilds += s.rebuilt ? 1 : 0;
        skin = s.skin;
    }
    const auto n = static_cast<double>(gas.bodies.size());
    state.counters["N"] = n;
    state.counters["collisions/s"] =
        benchmark::Counter(static_cast<double>(collisions), benchmark::Counter::kIsRate);
    state.counters["coll/body/step"] =
        static_cast<double>(collisions) / (n * static_cast<double>(state.iterations()));
    // Neighbour lists persist across drifts: 0 once the gas is set up.
    state.counters["rebuilds/drift"] =
        static_cast<double>(rebuilds) / static_cast<double>(state.iterations());
    state.counters["stale/coll"] =
        static_cast<double>(stale) / static_cast<double>(std::max<std::int64_t>(collisions, 1));
    state.counters["neighbours/body"] =
        2.0 * static_cast<double>(pairs) / (n * static_cast<double>(state.iterations()));
    state.counters["skin"] = skin; // the last drift's (adaptive: what it settled on)
    state.counters["renewals/coll"] =
        static_cast<double>(renewals) / static_cast<double>(std::max<std::int64_t>(collisions, 1));
}
BENCHMARK(BM_GranularGasDrift)
    ->Args({10, 30, 2, 50, 0})
    ->Args({22, 30, 1, 25, 0})
    ->Args({22, 30, 1, 50, 0})
    ->Args({22, 30, 1, 100, 0})
    ->Args({22, 30, 4, 50, 0})
    ->Args({22, 5, 1, 50, 0})
    ->Args({22, 5, 1, 100, 0})
    ->Args({22, 30, 4, 0, 0}) // skin 0: adaptive (adaptive_skin.hpp)
    ->Args({22, 5, 1, 0, 0})
    ->Args({46, 30, 1, 50, 0})
    ->Args({100, 30, 1, 50, 0})
    ->Args({22, 30, 4, 50, 1})
    ->Args({46, 30, 1, 50, 1})
    ->Args({100, 30, 1, 50, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(2.0);

} // namespace
