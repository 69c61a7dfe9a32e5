// SPDX-License-Identifier: MIT
#include "rubble/polyhedra/sphere_contacts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "rubble/core/rigid_body.hpp"
#include "rubble/core/sphere_ranges.hpp"

namespace rubble::polyhedra {
namespace {

// Candidate pairs from this many on are shared between OpenMP threads (as nsc_stages.cpp).
constexpr std::size_t parallel_pairs = 256;

// The warm-start key of two spheres, by their indices within their bodies (an aggregate has
// far fewer than 2^32).
std::uint64_t sphere_pair_key(std::size_t local_a, std::size_t local_b) {
    return (static_cast<std::uint64_t>(local_a) << 32) | static_cast<std::uint64_t>(local_b);
}

} // namespace

SpherePlacement place_spheres(const Bodies& b, const StepScales& s) {
    const std::size_t n = b.size();
    SpherePlacement out;
    out.centre.resize(b.spheres.size());
    for (std::size_t k = 0; k < b.spheres.size(); ++k)
        out.centre[k] = sphere_centre(b, k);
    out.first = sphere_starts(b);
    out.reach.resize(n);
    out.rim_speed.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
        out.rim_speed[k] = b.spin[k].norm() * b.radius[k];
        out.reach[k] = b.radius[k] + s.h * (b.vel[k].norm() + out.rim_speed[k]) + 0.5 * s.envelope;
    }
    return out;
}

double smallest_sphere_radius(const Bodies& b) {
    double r = std::numeric_limits<double>::infinity();
    for (const double x : b.spheres.radius)
        r = std::min(r, x);
    return r;
}

// Each pair on its own, into its own slot; the slots are joined in pair order afterwards, so
// the contacts and their order do not depend on the threads.
std::vector<FoundContact> sphere_pair_contacts(const Bodies& b, const SpherePlacement& placed,
                                               std::span<const BodyPair> pairs,
                                               const StepScales& s) {
    std::vector<std::vector<FoundContact>> slots(pairs.size());
#pragma omp parallel for schedule(dynamic, 64) if (pairs.size() >= parallel_pairs)
    for (std::size_t q = 0; q < pairs.size(); ++q) {
        const auto i = static_cast<std::size_t>(pairs[q].first);
        const auto j = static_cast<std::size_t>(pairs[q].second);
        // Contacts the pair can reach in the step: the envelope plus its approach.
        const double max_gap = s.envelope + s.h * ((b.vel[i] - b.vel[j]).norm() +
                                                   placed.rim_speed[i] + placed.rim_speed[j]);
        for (std::size_t p = placed.first[i]; p < placed.first[i + 1]; ++p) {
            const Vec3& cp = placed.centre[p];
            const double rp = b.spheres.radius[p];
            // (A sphere of i out of reach of j's bounding sphere meets none of j's spheres.)
            if ((cp - b.pos[j]).norm() - rp - b.radius[j] > max_gap) continue;
            for (std::size_t r = placed.first[j]; r < placed.first[j + 1]; ++r) {
                const Vec3 d = cp - placed.centre[r];
                const double distance = d.norm();
                const double rr = b.spheres.radius[r];
                const double gap = distance - rp - rr;
                if (gap > max_gap) continue;
                // Concentric spheres (only ever by bad input) part along the centres of mass.
                Vec3 normal =
                    distance > 0.0 ? Vec3(d / distance) : Vec3((b.pos[i] - b.pos[j]).normalized());
                if (!normal.allFinite()) normal = Vec3::UnitZ();
                const Vec3 on_a = cp - rp * normal;
                const Vec3 on_b = placed.centre[r] + rr * normal;
                slots[q].push_back(
                    FoundContact{static_cast<std::int64_t>(i), static_cast<std::int64_t>(j), -1,
                                 0.5 * (on_a + on_b), normal, gap,
                                 sphere_pair_key(p - placed.first[i], r - placed.first[j]),
                                 rp * rr / (rp + rr)});
            }
        }
    }
    std::vector<FoundContact> found;
    for (const std::vector<FoundContact>& slot : slots)
        found.insert(found.end(), slot.begin(), slot.end());
    return found;
}

// A plane against a sphere: one point, the sphere's lowest towards the plane.
void append_sphere_wall_contacts(const Bodies& b, const SpherePlacement& placed,
                                 std::span<const boundaries::Wall> walls,
                                 std::span<const Vec3> wall_at, const StepScales& s,
                                 std::vector<FoundContact>& found) {
    const std::size_t n = b.size();
    for (std::size_t w = 0; w < walls.size(); ++w) {
        const boundaries::Wall& wall = walls[w];
        for (std::size_t k = 0; k < n; ++k) {
            const double max_gap =
                s.envelope + s.h * (std::max(0.0, -wall.normal.dot(b.vel[k] - wall.velocity)) +
                                    placed.rim_speed[k]);
            if (wall.normal.dot(b.pos[k] - wall_at[w]) - b.radius[k] > max_gap) continue;
            for (std::size_t p = placed.first[k]; p < placed.first[k + 1]; ++p) {
                const double r = b.spheres.radius[p];
                const double gap = wall.normal.dot(placed.centre[p] - wall_at[w]) - r;
                if (gap > max_gap) continue;
                found.push_back(FoundContact{static_cast<std::int64_t>(k), -1,
                                             static_cast<std::int32_t>(w),
                                             placed.centre[p] - r * wall.normal, wall.normal, gap,
                                             static_cast<std::uint64_t>(p - placed.first[k]), r});
            }
        }
    }
}

} // namespace rubble::polyhedra
