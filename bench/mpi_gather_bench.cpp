// SPDX-License-Identifier: MIT
// What gathering a snapshot to one rank costs (issue 34, item 5; docs/plans/
// mpi-distributed-runs.md, section 4: gather on rank 0 "if measured fast enough at 1e6
// bodies"). N free spheres dealt out over the ranks by the domain decomposition, then, each
// repetition: every body to rank 0 in serial order (domain::migrate, what the output would
// do), and back to its domain. Prints the median and range of each over the repetitions.
//
//   mpirun -np 4 build/release/bench/rubble_mpi_gather_bench [N] [repetitions]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "rubble/core/bodies.hpp"
#include "rubble/core/random.hpp"
#include "rubble/domain/decomposition.hpp"
#include "rubble/domain/migration.hpp"
#include "rubble/mpi/mpi_session.hpp"

namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

void report(const char* what, std::vector<double> t, rubble::core::Communicator& world) {
    if (world.rank() != 0) return;
    std::sort(t.begin(), t.end());
    std::printf("%-34s median %8.3f s   range %8.3f to %8.3f s\n", what, t[t.size() / 2], t.front(),
                t.back());
}

} // namespace

int main(int argc, char** argv) {
    rubble::mpi::MpiSession session(argc, argv);
    auto& world = session.world();
    const long n = argc > 1 ? std::atol(argv[1]) : 1000000;
    const int repetitions = argc > 2 ? std::atoi(argv[2]) : 5;
    const auto p = static_cast<long>(world.size());

    // This rank's share of a uniform cloud (rows k = rank mod P), then its domain.
    rubble::Rng rng(7 + static_cast<std::uint64_t>(world.rank()));
    rubble::Bodies b;
    std::vector<std::int64_t> order;
    for (long k = world.rank(); k < n; k += p) {
        const rubble::Vec3 x(rng.uniform(-1e3, 1e3), rng.uniform(-1e3, 1e3),
                             rng.uniform(-1e3, 1e3));
        b.add_sphere(k, 1e9, 10.0, x, rubble::Vec3(rng.uniform(), 0.0, 0.0), rubble::Vec3::Zero());
        order.push_back(k);
    }
    std::vector<std::int64_t> weight(b.size(), 1);
    const auto d = rubble::domain::decompose(b.pos, weight, world);
    std::vector<int> to(b.size());
    for (std::size_t k = 0; k < b.size(); ++k)
        to[k] = d.owner(b.pos[k]);
    rubble::domain::migrate(b, order, to, world);

    std::vector<double> gather, scatter;
    for (int r = 0; r < repetitions; ++r) {
        rubble::Bodies all = b;
        std::vector<std::int64_t> all_order = order;
        world.barrier();
        auto start = std::chrono::steady_clock::now();
        std::vector<int> to_root(all.size(), 0);
        rubble::domain::migrate(all, all_order, to_root, world);
        gather.push_back(
            static_cast<double>(world.max(static_cast<std::int64_t>(seconds_since(start) * 1e6))) *
            1e-6);
        if (world.rank() == 0 && static_cast<long>(all.size()) != n) {
            std::fprintf(stderr, "rank 0 gathered %zu of %ld bodies\n", all.size(), n);
            return 1;
        }
        start = std::chrono::steady_clock::now();
        std::vector<int> home(all.size());
        for (std::size_t k = 0; k < all.size(); ++k)
            home[k] = d.owner(all.pos[k]);
        rubble::domain::migrate(all, all_order, home, world);
        scatter.push_back(
            static_cast<double>(world.max(static_cast<std::int64_t>(seconds_since(start) * 1e6))) *
            1e-6);
    }
    if (world.rank() == 0)
        std::printf("%ld free spheres over %ld ranks (%s), %d repetitions\n", n, p,
                    world.library().c_str(), repetitions);
    report("gather to rank 0 in serial order", gather, world);
    report("scatter back to the domains", scatter, world);
    return 0;
}
