// SPDX-License-Identifier: MIT
// Google Benchmark programs for the foundation's speed targets:
//   direct gravity (interactions per second, N = 1e3, 1e4),
//   placement of N non-overlapping spheres (N up to 1e6),
//   writing a snapshot of N bodies to HDF5 (N up to 1e6),
//   writing the XDMF sidecar of a run of S snapshots (done after every snapshot).
#include <filesystem>
#include <memory>
#include <vector>

#include <benchmark/benchmark.h>

#include "rubble/gravity/direct_gravity.hpp"
#include "rubble/gravity/tree_gravity.hpp"
#include "rubble/ic/generators.hpp"
#include "rubble/runfile/run_file.hpp"
#include "rubble/runfile/xdmf_sidecar.hpp"

using namespace rubble;

namespace {

// A cloud at volume fraction 0.1: N spheres of radius 1 m in a sphere of radius
// (10 N)^(1/3) m.
ic::CloudConfig cloud(std::int64_t n) {
    ic::CloudConfig c;
    c.n = n;
    c.size = std::cbrt(10.0 * static_cast<double>(n));
    c.radii.radius = 1.0;
    return c;
}

void BM_DirectGravity(benchmark::State& state) {
    const auto n = state.range(0);
    Rng rng(1);
    const Bodies b = ic::make_cloud(cloud(n), rng);
    gravity::DirectGravity g(G_SI, 0.0);
    std::vector<Vec3> acc(b.size());
    std::vector<double> pot(b.size());
    for (auto _ : state) {
        g.compute(b.pos, b.mass, acc, pot);
        benchmark::DoNotOptimize(acc.data());
    }
    const double interactions = static_cast<double>(n) * static_cast<double>(n - 1);
    state.counters["interactions/s"] =
        benchmark::Counter(interactions, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_DirectGravity)
    ->Arg(500)
    ->Arg(1000)
    ->Arg(2000)
    ->Arg(4000)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Uniform sphere of N point masses (radius 1 m spheres at volume fraction 0.1), as in the
// accuracy table; args: N, theta x 100, multipole order, bucket size.
void BM_TreeGravity(benchmark::State& state) {
    const auto n = state.range(0);
    Rng rng(1);
    Bodies b;
    const double radius = std::cbrt(10.0 * static_cast<double>(n));
    for (std::int64_t i = 0; i < n; ++i)
        b.add_sphere(i, 1.0, 1.0, rng.in_ball(radius), Vec3::Zero(), Vec3::Zero());
    gravity::TreeGravity g(G_SI, 0.0, static_cast<double>(state.range(1)) / 100.0,
                           static_cast<int>(state.range(2)), static_cast<int>(state.range(3)),
                           static_cast<int>(state.range(4)));
    std::vector<Vec3> acc(b.size());
    std::vector<double> pot(b.size());
    for (auto _ : state) {
        g.compute(b.pos, b.mass, acc, pot);
        benchmark::DoNotOptimize(acc.data());
    }
    state.counters["bodies/s"] =
        benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["pp/body"] = g.particle_interactions() / static_cast<double>(n);
    state.counters["pc/body"] = g.node_interactions() / static_cast<double>(n);
    state.counters["bytes/body"] =
        static_cast<double>(sizeof(tree::Node) + sizeof(tree::Multipole)) *
            static_cast<double>(g.tree().nodes().size()) / static_cast<double>(n) +
        4.0 * 8 + 4 + 8; // sorted x, y, z, m; order; key
}
BENCHMARK(BM_TreeGravity)
    ->ArgNames({"N", "theta100", "order", "bucket", "group"})
    ->ArgsProduct(
        {{500, 1000, 2000, 4000, 10000, 100000, 1000000}, {30, 50, 70}, {2, 4}, {16}, {64}})
    // Walk per leaf (group = bucket) and larger groups, for the choice of the default.
    ->ArgsProduct({{10000, 100000, 1000000}, {50}, {2}, {16}, {16, 32, 128, 256}})
    // Issue 3's memory check: ten million bodies (about 40 s on two cores).
    ->Args({10000000, 50, 2, 16, 64})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_TreeBuild(benchmark::State& state) {
    const auto n = state.range(0);
    Rng rng(1);
    std::vector<Vec3> pos;
    std::vector<double> mass(static_cast<std::size_t>(n), 1.0);
    const double radius = std::cbrt(10.0 * static_cast<double>(n));
    for (std::int64_t i = 0; i < n; ++i)
        pos.push_back(rng.in_ball(radius));
    tree::Octree t;
    for (auto _ : state)
        t.build({pos, mass}, static_cast<int>(state.range(1)));
}
BENCHMARK(BM_TreeBuild)
    ->ArgsProduct({{100000, 1000000}, {16}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_CloudPlacement(benchmark::State& state) {
    for (auto _ : state) {
        Rng rng(2);
        benchmark::DoNotOptimize(ic::make_cloud(cloud(state.range(0)), rng));
    }
    state.counters["bodies/s"] = benchmark::Counter(static_cast<double>(state.range(0)),
                                                    benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_CloudPlacement)
    ->Arg(10000)
    ->Arg(100000)
    ->Arg(1000000)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();

void BM_SnapshotWrite(benchmark::State& state) {
    Rng rng(3);
    const Bodies b = ic::make_cloud(cloud(state.range(0)), rng);
    const std::string path =
        (std::filesystem::temp_directory_path() / "rubble_bench_snapshot.h5").string();
    for (auto _ : state) {
        runfile::RunFile f = runfile::RunFile::create(path, "", 0.0, true);
        f.write_snapshot(b, 0.0, 0);
    }
    state.counters["MB"] = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
    std::filesystem::remove(path);
    std::filesystem::remove(runfile::xdmf_sidecar_path(path)); // written with each snapshot
}
BENCHMARK(BM_SnapshotWrite)
    ->Arg(100000)
    ->Arg(1000000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The sidecar is written again after every snapshot by the RunFile, which reads the metadata of
// the new snapshot only (warm, third argument 0); a resume or `rubble xdmf` reads every
// snapshot's (cold, 1). Both write the whole text, which grows with the snapshots S.
void BM_XdmfSidecar(benchmark::State& state) {
    Rng rng(3);
    const Bodies b = ic::make_cloud(cloud(state.range(0)), rng);
    const std::string path =
        (std::filesystem::temp_directory_path() / "rubble_bench_sidecar.h5").string();
    {
        runfile::RunFile f = runfile::RunFile::create(path, "", 0.0, true);
        for (std::int64_t k = 0; k < state.range(1); ++k)
            f.write_snapshot(b, static_cast<double>(k), k);
    }
    runfile::XdmfSidecar warm(path);
    warm.write();
    for (auto _ : state) {
        if (state.range(2) == 0)
            benchmark::DoNotOptimize(warm.write());
        else
            benchmark::DoNotOptimize(runfile::write_xdmf_sidecar(path));
    }
    state.counters["kB"] =
        static_cast<double>(std::filesystem::file_size(runfile::xdmf_sidecar_path(path))) / 1e3;
    std::filesystem::remove(path);
    std::filesystem::remove(runfile::xdmf_sidecar_path(path));
}
BENCHMARK(BM_XdmfSidecar)
    ->Args({100000, 100, 0})
    ->Args({100000, 100, 1})
    ->Args({1000, 1000, 0})
    ->Args({1000, 1000, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace

BENCHMARK_MAIN();
