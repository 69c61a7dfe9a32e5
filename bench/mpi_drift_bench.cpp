// SPDX-License-Identifier: MIT
// What the event-driven drift spread over MPI ranks costs against the serial engine (issue 34,
// item 4; run/drift_over_ranks.hpp; docs/benchmarks.md, "The drift over ranks"). A granular
// gas of n^3 spheres of 0.4 m on a jittered 1 m lattice at about 1 m/s, dissipative and
// frictional, in an open box: the serial engine drifts all of it on rank 0 (one thread per
// rank, as launched), then the same bodies are dealt out and drifted with every drift spread
// (DriftOverRanks::Placement::spread), redistributed after each as a run does. Prints the wall
// time of each and whether the final bodies are the serial ones bit for bit, and the rounds
// and ghosts of each spread drift.
//
//   mpirun -np 4 build/release/bench/rubble_mpi_drift_bench [n] [drifts] [h]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>

#include "rubble/collisions/event_drift.hpp"
#include "rubble/mpi/mpi_session.hpp"
#include "rubble/run/drift_over_ranks.hpp"
#include "rubble/run/run_ranks.hpp"

namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

rubble::Bodies gas(int n) {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    rubble::Bodies b;
    std::int64_t id = 0;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            for (int k = 0; k < n; ++k) {
                const rubble::Vec3 x(i + 0.05 * u(rng), j + 0.05 * u(rng), k + 0.05 * u(rng));
                const rubble::Vec3 v(u(rng), u(rng), u(rng));
                const rubble::Vec3 w(u(rng), u(rng), u(rng));
                b.add_sphere(id++, 1.0, 0.4, x, v, w);
            }
    return b;
}

} // namespace

int main(int argc, char** argv) {
    rubble::mpi::MpiSession session(argc, argv);
    auto& world = session.world();
    const int n = argc > 1 ? std::atoi(argv[1]) : 32;
    const int drifts = argc > 2 ? std::atoi(argv[2]) : 8;
    const double h = argc > 3 ? std::atof(argv[3]) : 0.25;
    rubble::collisions::CollisionConfig c;
    c.eps_n = 0.8;
    c.eps_t = 0.5;
    c.f_crit = 0.3;
    const rubble::Bodies all = gas(n);

    rubble::Bodies serial;
    double serial_seconds = 0.0;
    std::int64_t collisions = 0;
    if (world.rank() == 0) {
        serial = all;
        rubble::collisions::EventDrivenDrift engine(c);
        const auto t = std::chrono::steady_clock::now();
        for (int k = 0; k < drifts; ++k)
            collisions += engine.drift(serial, h, k * h).collisions;
        serial_seconds = seconds_since(t);
    }

    rubble::run::RunRanks ranks(world);
    rubble::Bodies mine = world.rank() == 0 ? all : all.select({});
    ranks.scatter(mine);
    rubble::run::DriftOverRanks spread(
        c, ranks,
        world.rank() == 0 ? std::make_unique<rubble::collisions::EventDrivenDrift>(c) : nullptr,
        rubble::run::DriftOverRanks::Placement::spread);
    world.barrier();
    const auto t = std::chrono::steady_clock::now();
    for (int k = 0; k < drifts; ++k) {
        const auto drift_start = std::chrono::steady_clock::now();
        const std::int64_t failed_before = spread.failed_rounds();
        const auto stats = spread.advance(mine, h, k * h, false);
        ranks.redistribute(mine);
        if (world.rank() == 0)
            std::printf("drift %d: %lld collisions, %g rounds (%lld failed on some rank), %g "
                        "ghosts, %.3f s\n",
                        k, static_cast<long long>(stats.contacts),
                        rubble::integrate::work_counter(stats, "rounds"),
                        static_cast<long long>(spread.failed_rounds() - failed_before),
                        rubble::integrate::work_counter(stats, "ghosts"),
                        seconds_since(drift_start));
    }
    world.barrier();
    const double spread_seconds = seconds_since(t);
    const rubble::Bodies whole = ranks.gather_to_root(mine);
    if (world.rank() != 0) return 0;
    const bool same = whole.pos == serial.pos && whole.vel == serial.vel &&
                      whole.spin == serial.spin && whole.free_path == serial.free_path;
    std::printf("%d spheres, %d drifts of %g s, %lld collisions: serial engine %.3f s, spread over "
                "%d ranks %.3f s (%lld handed to rank 0): %s\n",
                n * n * n, drifts, h, static_cast<long long>(collisions), serial_seconds,
                world.size(), spread_seconds, static_cast<long long>(spread.drifts_on_root()),
                same ? "bit for bit the serial bodies" : "NOT the serial bodies");
    return same ? 0 : 1;
}
