// SPDX-License-Identifier: MIT
// The free rigid rotor over many rotations: the drift's splitting (integrate/free_rotor.hpp)
// against the adaptive Runge-Kutta 5(4) integration of Euler's equations the lectures use
// (tests/support/euler_rk5.hpp). Counters: relative drift of the energy and of |L| at the end,
// the largest energy error seen, integration steps per rotation and seconds per rotation.
// Run: build/release/bench/rubble_bench --benchmark_filter=Rotor (docs/aggregates.md).
#include <algorithm>
#include <cmath>

#include <benchmark/benchmark.h>

#include "euler_rk5.hpp"
#include "rubble/integrate/free_rotor.hpp"

using namespace rubble;

namespace {

// An asymmetric top (I = 1, 2, 3 kg m^2) tumbling about no principal axis; one rotation is
// 2 pi / |w| (6.0 s).
const Vec3 moments(1.0, 2.0, 3.0);
const Vec3 w0(0.6, 0.3, 0.8);

double energy(const Vec3& w_body) {
    return 0.5 * w_body.dot(moments.cwiseProduct(w_body));
}

struct Drifts {
    double energy_end = 0, energy_max = 0, l_end = 0;
};

void report(benchmark::State& state, const Drifts& d, double rotations, double steps) {
    state.counters["dE/E_end"] = d.energy_end;
    state.counters["max_dE/E"] = d.energy_max;
    state.counters["d|L|/|L|_end"] = d.l_end;
    state.counters["steps/rotation"] = steps / rotations;
    state.counters["s/rotation"] = benchmark::Counter(
        rotations, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// The drift's splitting, called range(1) times a rotation (the energy is sampled after each
// call), or with range(1) = 0 in calls of one splitting step each: h |L| / I_min =
// free_rotor_max_angle, so max_a |w_a| h stays below it. Longer calls are cut into sub-steps
// whose number turn_free_rotor takes from |L| / I_min, the same on every call
// (tests/validation/free_rotor_test.cpp, FreeRotor.EnergyDoesNotDriftWhenADriftTakesSeveral-
// SubSteps).
void BM_RotorSplitting(benchmark::State& state) {
    const auto rotations = static_cast<double>(state.range(0));
    const double rotation = 2.0 * pi / w0.norm();
    const double E0 = energy(w0), L0 = moments.cwiseProduct(w0).norm();
    const double single = integrate::free_rotor_max_angle / (L0 / moments.minCoeff());
    const double calls =
        state.range(1) > 0 ? static_cast<double>(state.range(1)) : std::ceil(rotation / single);
    const double h = rotation / calls;
    Drifts d;
    double steps = 0.0;
    for (auto _ : state) {
        Quat q = Quat::Identity();
        Vec3 w = w0;
        d.energy_max = 0.0;
        steps = 0.0;
        for (double k = 0; k < calls * rotations; ++k) {
            // The sub-step count turn_free_rotor takes.
            steps +=
                integrate::free_rotor_steps(moments.cwiseProduct(q.conjugate() * w), moments, h);
            integrate::turn_free_rotor(q, w, moments, h);
            d.energy_max = std::max(d.energy_max, std::abs(energy(q.conjugate() * w) / E0 - 1.0));
        }
        const Vec3 w_body = q.conjugate() * w;
        d.energy_end = std::abs(energy(w_body) / E0 - 1.0);
        d.l_end = std::abs(moments.cwiseProduct(w_body).norm() / L0 - 1.0);
        benchmark::DoNotOptimize(q);
    }
    report(state, d, rotations, steps);
}
BENCHMARK(BM_RotorSplitting)
    ->Args({10000, 4})
    ->Args({10000, 0})
    ->Args({1000000, 4})
    ->Args({1000000, 0})
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

// Dormand-Prince 5(4) at relative tolerance 10^-range(1) (absolute a hundredth of it).
void BM_RotorRk5(benchmark::State& state) {
    const auto rotations = static_cast<double>(state.range(0));
    const double rtol = std::pow(10.0, -static_cast<double>(state.range(1)));
    const double rotation = 2.0 * pi / w0.norm();
    const double E0 = energy(w0), L0 = moments.cwiseProduct(w0).norm();
    Drifts d;
    double steps = 0.0;
    for (auto _ : state) {
        test::EulerRk5 rk(moments, Quat::Identity(), w0, rtol, 1e-2 * rtol);
        d.energy_max = 0.0;
        for (double k = 0; k < 4.0 * rotations; ++k) {
            rk.advance(rotation / 4.0);
            d.energy_max = std::max(d.energy_max, std::abs(rk.energy() / E0 - 1.0));
        }
        d.energy_end = std::abs(rk.energy() / E0 - 1.0);
        d.l_end = std::abs(rk.l_body().norm() / L0 - 1.0);
        steps = static_cast<double>(rk.accepted() + rk.rejected());
        state.counters["|q|-1"] = std::abs(rk.orientation().norm() - 1.0);
    }
    report(state, d, rotations, steps);
}
BENCHMARK(BM_RotorRk5)
    ->Args({10000, 8})
    ->Args({10000, 10})
    ->Args({10000, 12})
    ->Args({1000000, 10})
    ->Args({1000000, 12})
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

} // namespace
