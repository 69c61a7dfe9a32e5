// SPDX-License-Identifier: MIT
// Cost of one pair prediction: two free spheres (the exact quadratic, predict.hpp) against two
// spinning aggregates of 8 spheres each (the root search of rigid_predict.hpp), on pairs drawn
// a little apart and moving towards each other, so that about half touch within the drift.
// The aggregates issue asks for a cost per collision at most 3x the spheres'; a collision costs
// some ten pair predictions, so this is where most of that ratio comes from.
#include <vector>

#include <benchmark/benchmark.h>

#include "rubble/collisions/rigid_predict.hpp"
#include "rubble/core/contact_time.hpp"
#include "rubble/core/random.hpp"
#include "rubble/core/rigid_body.hpp"

using namespace rubble;

namespace {

struct Pair {
    integrate::RotorPath rotor_a, rotor_b;
    Vec3 pos_b, vel_b;
};

// A cube of 2 x 2 x 2 touching spheres of radius 0.5 m (bounding radius ~1.37 m).
std::vector<collisions::PartSphere> cube_parts(MassProperties& mp) {
    std::vector<SpherePart> spheres;
    for (int x = 0; x < 2; ++x)
        for (int y = 0; y < 2; ++y)
            for (int z = 0; z < 2; ++z)
                spheres.push_back(SpherePart{Vec3(x - 0.5, y - 0.5, z - 0.5), 0.5, 1.0});
    mp = mass_properties(spheres);
    std::vector<collisions::PartSphere> parts;
    for (const SpherePart& s : spheres)
        parts.push_back({mp.axes.conjugate() * (s.centre - mp.centre), s.radius});
    return parts;
}

// args: spin per drift x 1000 (rad), number of pairs.
void BM_AggregatePairPrediction(benchmark::State& state) {
    const double spin = static_cast<double>(state.range(0)) * 1e-3, h = 1.0;
    MassProperties mp;
    const std::vector<collisions::PartSphere> parts = cube_parts(mp);
    const double reach = collisions::reach_of(parts);
    // A cube's moments are equal: stretch them a little so the bodies turn as asymmetric tops.
    const Vec3 moments = mp.moments.cwiseProduct(Vec3(1.0, 1.1, 1.3));
    Rng rng(5);
    std::vector<Pair> pairs;
    for (int k = 0; k < state.range(1); ++k) {
        const Vec3 dir = rng.unit_vector();
        const auto orientation = [&rng] {
            return Quat(Eigen::AngleAxisd(rng.uniform(0, 2 * pi), rng.unit_vector()));
        };
        const Vec3 pos_b = dir * rng.uniform(2.8, 3.6), vel_b = -dir * rng.uniform(0.0, 1.0);
        pairs.push_back(
            Pair{integrate::RotorPath(orientation(), rng.unit_vector() * spin, moments, h),
                 integrate::RotorPath(orientation(), rng.unit_vector() * spin, moments, h), pos_b,
                 vel_b});
    }
    std::int64_t contacts = 0;
    for (auto _ : state) {
        for (const Pair& p : pairs) {
            const collisions::RigidMotion a{Vec3::Zero(), Vec3::Zero(), 0.0, &p.rotor_a, reach};
            const collisions::RigidMotion b{p.pos_b, p.vel_b, 0.0, &p.rotor_b, reach};
            const auto c =
                collisions::predict_rigid_contact(a, parts, b, parts, Vec3::Zero(), 0.0, h);
            contacts += c ? 1 : 0;
            benchmark::DoNotOptimize(c);
        }
    }
    state.SetItemsProcessed(state.iterations() * state.range(1));
    state.counters["touching"] =
        static_cast<double>(contacts) / static_cast<double>(state.iterations() * state.range(1));
}
BENCHMARK(BM_AggregatePairPrediction)->Args({10, 1000})->Args({100, 1000})->Args({1000, 1000});

// The same question for two spheres of the aggregates' bounding radius.
void BM_SpherePairPrediction(benchmark::State& state) {
    Rng rng(5);
    struct SpherePair {
        Vec3 r, v;
    };
    std::vector<SpherePair> pairs;
    for (int k = 0; k < state.range(0); ++k) {
        const Vec3 dir = rng.unit_vector();
        pairs.push_back({dir * rng.uniform(2.8, 3.6), -dir * rng.uniform(0.0, 1.0)});
    }
    std::int64_t contacts = 0;
    for (auto _ : state) {
        for (const SpherePair& p : pairs) {
            const auto t =
                predict_contact_at(Vec3::Zero(), Vec3::Zero(), 0.0, p.r, p.v, 0.0, 2.74, 0.0);
            contacts += t && *t <= 1.0 ? 1 : 0;
            benchmark::DoNotOptimize(t);
        }
    }
    state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_SpherePairPrediction)->Arg(1000);

} // namespace
