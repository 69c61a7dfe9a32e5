// SPDX-License-Identifier: MIT
// rubble's GJK (polyhedra/gjk.hpp) against openGJK (Montanari, Petrinic & Barbieri 2017,
// github.com/MattiaMontanari/openGJK, scalar/openGJK.c) on the same pairs, in one program:
// random hulls of n points on an ellipsoid (every point a vertex), n = 8, 32, 128, placed apart
// along a random direction at relative gaps 1e-3 to 1. Both get the world vertices (openGJK
// takes no rotation), and both scan the vertices linearly for supports. rubble runs twice: with
// PolytopeSupport (body-frame vertices, rotated per support; the identity here, but paid for)
// and with WorldPolytopeSupport (world vertices, as openGJK gets them). Prints ns per query
// for each and the largest difference of the distances. Built by bench/peers/gjk_vs_opengjk.sh
// against a checkout of openGJK (not part of the CMake build: a peer is fetched by hand).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "rubble/polyhedra/gjk.hpp"
#include "rubble/polyhedra/support.hpp"

extern "C" {
#include "openGJK/openGJK.h"
}

using rubble::polyhedra::Point3;

namespace {

struct Shape {
    std::vector<Point3> v;
    std::vector<double*> rows; // openGJK's view of the same coordinates
    std::vector<double> flat;
};

Shape hull_points(int n, double r, const Point3& at, std::mt19937_64& rng) {
    std::normal_distribution<double> g;
    Shape s;
    for (int k = 0; k < n; ++k) {
        Point3 u{g(rng), g(rng), g(rng)};
        const double len = std::sqrt(rubble::polyhedra::norm2(u));
        s.v.push_back(
            Point3{at.x + r * u.x / len, at.y + 0.8 * r * u.y / len, at.z + 0.6 * r * u.z / len});
    }
    s.flat.resize(3 * static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) {
        s.flat[3 * k] = s.v[k].x;
        s.flat[3 * k + 1] = s.v[k].y;
        s.flat[3 * k + 2] = s.v[k].z;
    }
    for (int k = 0; k < n; ++k)
        s.rows.push_back(&s.flat[3 * static_cast<std::size_t>(k)]);
    return s;
}

double extent(const Shape& s, const Point3& u) {
    double e = -1e300;
    for (const Point3& p : s.v)
        e = std::max(e, rubble::polyhedra::dot(p, u));
    return e;
}

} // namespace

int main() {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> uni(0.0, 1.0);
    std::normal_distribution<double> g;
    std::printf("vertices  rubble_ns  world_ns  openGJK_ns  ratio  ratio_world  "
                "max|d_rubble - d_openGJK|/d\n");
    for (const int n : {8, 32, 128}) {
        constexpr int pairs = 2000;
        std::vector<Shape> a, b;
        for (int k = 0; k < pairs; ++k) {
            a.push_back(hull_points(n, 1.0, Point3{}, rng));
            Point3 u{g(rng), g(rng), g(rng)};
            u = (1.0 / std::sqrt(rubble::polyhedra::norm2(u))) * u;
            Shape far = hull_points(n, 1.0, Point3{}, rng);
            const double reach = extent(a.back(), u) + extent(far, -u);
            const double gap = std::pow(10.0, -3.0 * uni(rng));
            const Point3 at = (reach * (1.0 + gap)) * u;
            for (std::size_t i = 0; i < far.v.size(); ++i) {
                far.v[i] = far.v[i] + at;
                far.flat[3 * i] = far.v[i].x;
                far.flat[3 * i + 1] = far.v[i].y;
                far.flat[3 * i + 2] = far.v[i].z;
            }
            b.push_back(std::move(far));
        }
        std::vector<double> mine(pairs), mine_world(pairs), theirs(pairs);
        const int repeats = std::max(1, 200000 / (pairs * n / 8));
        // One timed pass over all pairs, in ns per query.
        const auto pass = [&](auto&& query, std::vector<double>& out) {
            const auto t0 = std::chrono::steady_clock::now();
            for (int r = 0; r < repeats; ++r)
                for (int k = 0; k < pairs; ++k)
                    out[static_cast<std::size_t>(k)] = query(k);
            const auto t1 = std::chrono::steady_clock::now();
            return std::chrono::duration<double, std::nano>(t1 - t0).count() /
                   (static_cast<double>(repeats) * pairs);
        };
        const auto rubble_query = [&](auto support, int k) {
            decltype(support) sa, sb;
            sa.vertices = a[static_cast<std::size_t>(k)].v.data();
            sa.count = n;
            sb.vertices = b[static_cast<std::size_t>(k)].v.data();
            sb.count = n;
            const Point3 towards =
                b[static_cast<std::size_t>(k)].v[0] - a[static_cast<std::size_t>(k)].v[0];
            return rubble::polyhedra::gjk_distance(sa, sb, towards).distance;
        };
        const auto opengjk_query = [&](int k) {
            gkPolytope pa, pb;
            pa.numpoints = n;
            pa.coord = a[static_cast<std::size_t>(k)].rows.data();
            pb.numpoints = n;
            pb.coord = b[static_cast<std::size_t>(k)].rows.data();
            gkSimplex s;
            s.nvrtx = 0;
            return compute_minimum_distance(pa, pb, &s);
        };
        // Best of seven, the three codes taking turns in each trial, so that a load on the
        // machine that comes and goes hits all three alike.
        double ns_mine = 1e300, ns_world = 1e300, ns_theirs = 1e300;
        for (int trial = 0; trial < 7; ++trial) {
            ns_mine = std::min(
                ns_mine,
                pass([&](int k) { return rubble_query(rubble::polyhedra::PolytopeSupport{}, k); },
                     mine));
            ns_world = std::min(ns_world, pass(
                                              [&](int k) {
                                                  return rubble_query(
                                                      rubble::polyhedra::WorldPolytopeSupport{}, k);
                                              },
                                              mine_world));
            ns_theirs = std::min(ns_theirs, pass(opengjk_query, theirs));
        }
        double worst = 0.0;
        for (int k = 0; k < pairs; ++k) {
            const auto i = static_cast<std::size_t>(k);
            worst = std::max(worst, std::abs(mine[i] - theirs[i]) / theirs[i]);
            worst = std::max(worst, std::abs(mine_world[i] - theirs[i]) / theirs[i]);
        }
        std::printf("%8d  %9.0f  %9.0f  %10.0f  %5.2f  %5.2f  %.2e\n", n, ns_mine, ns_world,
                    ns_theirs, ns_mine / ns_theirs, ns_world / ns_theirs, worst);
    }
}
