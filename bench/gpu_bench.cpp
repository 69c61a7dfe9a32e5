// SPDX-License-Identifier: MIT
// GPU gravity benchmarks (docs/gpu.md): time per force evaluation for gpu-tree (uniform and
// Plummer spheres, theta = 0.5, quadrupole, double) from 1e3 to 1e8 bodies and gpu-direct up to
// 1e6, with the stage times from CUDA events as counters. A separate program from rubble_bench
// so that it needs nothing but the CUDA runtime (it runs on the lent GPU machines).
// Run: build/release/bench/rubble_gpu_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <cmath>
#include <map>
#include <vector>

#include "rubble/core/random.hpp"
#include "rubble/gpu/device_info.hpp"
#include "rubble/gpu/gpu_gravity.hpp"
#include "rubble/gpu/gpu_solvers.hpp"
#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/gravity/tree_gravity.hpp"

using namespace rubble;

namespace {

struct Cloud {
    std::vector<Vec3> pos;
    std::vector<double> mass;
};

// Positions only (no Bodies), so 1e8 bodies fit comfortably in host memory.
const Cloud& cloud(bool plummer, std::size_t n) {
    static std::map<std::pair<bool, std::size_t>, Cloud> cache;
    auto it = cache.find({plummer, n});
    if (it != cache.end()) return it->second;
    cache.clear(); // one cloud at a time: 1e8 bodies take 3.2 GB
    Cloud c;
    c.pos.resize(n);
    c.mass.assign(n, 1.0 / static_cast<double>(n));
    Rng rng(plummer ? 2 : 1);
    for (std::size_t i = 0; i < n; ++i) {
        if (plummer) {
            // Plummer (1911) radii from the inverted cumulative mass (tests/support/spheres.hpp).
            const double u = std::max(rng.uniform(), 1e-12);
            const double r = 1.0 / std::sqrt(std::pow(u, -2.0 / 3.0) - 1.0);
            c.pos[i] = r * rng.unit_vector();
        } else {
            c.pos[i] = rng.in_ball(1.0);
        }
    }
    return cache.emplace(std::make_pair(plummer, n), std::move(c)).first->second;
}

template <class Solver> void run(benchmark::State& state, Solver& solver, const Cloud& c) {
    const std::size_t n = c.pos.size();
    std::vector<Vec3> acc(n);
    std::vector<double> pot(n);
    solver.compute(c.pos, c.mass, acc, pot); // warm-up: allocations, first-launch costs
    for (auto _ : state) {
        solver.compute(c.pos, c.mass, acc, pot);
        benchmark::DoNotOptimize(acc.data());
    }
    state.counters["bodies_per_s"] =
        benchmark::Counter(static_cast<double>(n) * static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate);
}

void BM_GpuTree(benchmark::State& state) {
    if (!gpu::gpu_available()) {
        state.SkipWithError("no CUDA GPU");
        return;
    }
    const bool plummer = state.range(0) == 1;
    const auto n = static_cast<std::size_t>(state.range(1));
    const int order = static_cast<int>(state.range(2));
    const int bucket = static_cast<int>(state.range(3));
    const bool mixed = state.range(4) == 1;
    const Cloud& c = cloud(plummer, n);
    const std::size_t before = gpu::device_bytes_in_use();
    gpu::GpuTreeGravity g(1.0, 0.0, 0.5, order, bucket, mixed);
    run(state, g, c);
    state.counters["device_bytes_per_body"] =
        static_cast<double>(gpu::device_bytes_in_use() - before) / static_cast<double>(n);
    const gpu::StageTimes t = g.last_times();
    const gpu::TreeCounts k = g.last_counts();
    state.counters["s_host_copy"] = t.host_copy;
    state.counters["s_upload"] = t.upload;
    state.counters["s_build"] = t.build;
    state.counters["s_walk"] = t.walk;
    state.counters["s_download"] = t.download;
    state.counters["s_total"] = t.total();
    state.counters["pp_per_body"] = k.body_interactions / static_cast<double>(n);
    state.counters["pc_per_body"] = k.node_interactions / static_cast<double>(n);
    state.counters["depth"] = static_cast<double>(k.depth);
    state.counters["leaves"] = static_cast<double>(k.leaves);
    state.counters["batches_per_leaf"] = k.walk_batches / static_cast<double>(k.leaves);
}
// (distribution 0 uniform / 1 Plummer, N, multipole order, bucket size, 1 = mixed precision)
BENCHMARK(BM_GpuTree)
    ->ArgsProduct({{0, 1}, {1000, 3000, 10000, 30000, 100000, 1000000, 10000000}, {2}, {16}, {0}})
    ->ArgsProduct({{0}, {1000000}, {1, 2, 3, 4}, {8, 16, 32}, {0}})
    ->ArgsProduct({{0}, {1000000, 10000000}, {2, 4}, {16}, {1}})
    ->Args({0, 10000000, 4, 16, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_GpuTree)
    ->Args({0, 100000000, 2, 16, 0})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_GpuDirect(benchmark::State& state) {
    if (!gpu::gpu_available()) {
        state.SkipWithError("no CUDA GPU");
        return;
    }
    const auto n = static_cast<std::size_t>(state.range(0));
    gpu::GpuDirectGravity g(1.0, 0.0);
    run(state, g, cloud(false, n));
    // The conventional 20 flops per interaction (e.g. Nyland et al. 2007), over the kernel time.
    const gpu::StageTimes t = g.last_times();
    state.counters["s_kernel"] = t.walk;
    state.counters["gflops_20"] =
        20.0 * static_cast<double>(n) * static_cast<double>(n) / t.walk * 1e-9;
}
// N = 1e3 .. 1e6 for the solvers whose cost grows as N^2 or that the crossover compares.
void up_to_a_million(benchmark::internal::Benchmark* b) {
    for (const std::int64_t n : {1000, 3000, 10000, 30000, 100000, 1000000})
        b->Arg(n);
    b->Unit(benchmark::kMillisecond)->UseRealTime();
}
BENCHMARK(BM_GpuDirect)->Apply(up_to_a_million);

// The CPU backends on the same machine (all its cores), for the crossover where `auto` should
// prefer the GPU.
void BM_CpuTreeSameMachine(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    gravity::TreeGravity g(1.0, 0.0, 0.5, 2, 16, 64);
    run(state, g, cloud(false, n));
}
BENCHMARK(BM_CpuTreeSameMachine)->Apply(up_to_a_million);

void BM_CpuDirectSameMachine(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    gravity::DirectGravity g(1.0, 0.0);
    run(state, g, cloud(false, n));
}
BENCHMARK(BM_CpuDirectSameMachine)
    ->Arg(1000)
    ->Arg(3000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace

BENCHMARK_MAIN();
