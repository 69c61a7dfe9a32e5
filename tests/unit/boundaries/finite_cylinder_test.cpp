// SPDX-License-Identifier: MIT
// Finite cylinders (boundaries/finite_cylinder.hpp): the gap and its normal on every piece
// (side, end discs, rim edges), and contact prediction against a brute-force predictor that
// samples an independent long-double gap finely along thousands of random lines and bisects
// the first sign change: inside a closed can, inside and outside an open tube, outside a post
// (rim hits aimed at on purpose). No contact may be missed and the times agree to round-off.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "rubble/boundaries/finite_cylinder.hpp"
#include "rubble/boundaries/rim_contact.hpp"
#include "rubble/boundaries/wall.hpp"
#include "rubble/boundaries/wall_predict.hpp"
#include "rubble/core/random.hpp"
#include "tolerances.hpp"

namespace rubble::boundaries {
namespace {

using test::eps;

enum class Kind { can, tube, post };

Wall finite(Kind kind, const Vec3& point, const Vec3& axis, double R, double L) {
    Wall w;
    w.shape = WallShape::cylinder;
    w.point = point;
    w.normal = axis.normalized();
    w.radius = R;
    w.length = L;
    w.inside = kind != Kind::post;
    w.caps = kind != Kind::tube;
    return w;
}

// The gap written out independently, in long double, from the meridional coordinates.
long double reference_gap(const Wall& w, const Vec3& x, double r) {
    using ld = long double;
    const ld dx = ld(x.x()) - w.point.x(), dy = ld(x.y()) - w.point.y(),
             dz = ld(x.z()) - w.point.z();
    const ld z = dx * w.normal.x() + dy * w.normal.y() + dz * w.normal.z();
    const ld px = dx - z * w.normal.x(), py = dy - z * w.normal.y(), pz = dz - z * w.normal.z();
    const ld rho = std::sqrt(px * px + py * py + pz * pz);
    const ld R = w.radius, L = w.length;
    const ld zc = std::clamp(z, ld(0), L);
    if (!w.caps) return std::hypot(rho - R, z - zc) - r;
    if (w.inside) return std::min({R - rho, z, L - z}) - r;
    if (rho <= R && z >= 0 && z <= L) return -std::min({R - rho, z, L - z}) - r;
    return std::hypot(rho - std::min(rho, R), z - zc) - r;
}

TEST(FiniteCylinder, GapAndNormalOnEveryPiece) {
    const double r = 0.1;
    const Wall post = finite(Kind::post, Vec3::Zero(), Vec3::UnitZ(), 1.0, 2.0);
    // Side, top disc, bottom rim (normal from the rim point (1, 0, 0) to the centre).
    const WallGap side = wall_gap(post, post.point, Vec3(1.5, 0, 1), r);
    EXPECT_NEAR(side.gap, 0.4, 4 * eps);
    EXPECT_NEAR((side.normal - Vec3::UnitX()).norm(), 0.0, 4 * eps);
    const WallGap top = wall_gap(post, post.point, Vec3(0.5, 0, 2.3), r);
    EXPECT_NEAR(top.gap, 0.2, 4 * eps);
    EXPECT_NEAR((top.normal - Vec3::UnitZ()).norm(), 0.0, 4 * eps);
    const WallGap rim = wall_gap(post, post.point, Vec3(1.3, 0, -0.4), r);
    EXPECT_NEAR(rim.gap, 0.4, 4 * eps);
    EXPECT_NEAR((rim.normal - Vec3(0.6, 0, -0.8)).norm(), 0.0, 4 * eps);
    // The can: nearest face, signed.
    const Wall can = finite(Kind::can, Vec3::Zero(), Vec3::UnitZ(), 1.0, 2.0);
    const WallGap bottom = wall_gap(can, can.point, Vec3(0.2, 0, 0.15), r);
    EXPECT_NEAR(bottom.gap, 0.05, 4 * eps);
    EXPECT_NEAR((bottom.normal - Vec3::UnitZ()).norm(), 0.0, 4 * eps);
    // The tube: both faces, and its rim from inside and beyond the end.
    const Wall tube = finite(Kind::tube, Vec3::Zero(), Vec3::UnitZ(), 1.0, 2.0);
    EXPECT_NEAR(wall_gap(tube, tube.point, Vec3(0.5, 0, 1), r).gap, 0.4, 4 * eps);
    EXPECT_NEAR(wall_gap(tube, tube.point, Vec3(1.5, 0, 1), r).gap, 0.4, 4 * eps);
    const WallGap end = wall_gap(tube, tube.point, Vec3(0.7, 0, 2.4), r);
    EXPECT_NEAR(end.gap, 0.4, 4 * eps);
    EXPECT_NEAR((end.normal - Vec3(-0.6, 0, 0.8)).norm(), 0.0, 4 * eps);
}

TEST(FiniteCylinder, RimHeadOnAndGrazing) {
    // Along the x axis at height z = 0.05 towards the circle of radius 1: touches when
    // (x - 1)^2 + 0.05^2 = 0.1^2, x = 1 + sqrt(0.0075), from x = 3 at unit speed.
    const auto t = predict_rim_contact(Vec3(3, 0, 0.05), Vec3(-1, 0, 0), Vec3::UnitZ(), 1.0, 0.1);
    ASSERT_TRUE(t);
    EXPECT_NEAR(*t, 2.0 - std::sqrt(0.0075), 16 * eps * 3);
    // Passing at height 0.1 + 1e-9 misses; at 0.1 - 1e-9 it touches (a graze of depth 1e-9).
    EXPECT_FALSE(
        predict_rim_contact(Vec3(3, 0, 0.1 + 1e-9), Vec3(-1, 0, 0), Vec3::UnitZ(), 1, 0.1));
    EXPECT_TRUE(predict_rim_contact(Vec3(3, 0, 0.1 - 1e-9), Vec3(-1, 0, 0), Vec3::UnitZ(), 1, 0.1));
}

struct Line {
    Vec3 x, v;
};

// A start clear of the wall (reference gap > 0) and a direction, of the kind asked for.
Line random_line(Kind kind, const Wall& w, double r, Rng& rng) {
    const Vec3& a = w.normal;
    const Vec3 e1 = a.unitOrthogonal(), e2 = a.cross(e1);
    const auto at = [&](double rho, double phi, double z) {
        return Vec3(w.point + z * a + rho * (std::cos(phi) * e1 + std::sin(phi) * e2));
    };
    for (;;) {
        Line l;
        const double phi = rng.uniform(0, 2 * pi);
        if (kind == Kind::can) {
            l.x = at(std::sqrt(rng.uniform()) * (w.radius - r), phi, rng.uniform(r, w.length - r));
            l.v = rng.unit_vector();
        } else {
            // Anywhere within 3 radii and 2 lengths, aimed at a rim half the time.
            l.x = w.point + 3 * w.radius * rng.in_ball(1.0) + rng.uniform(-1, 2) * w.length * a;
            const double end = rng.uniform() < 0.5 ? 0.0 : w.length;
            const Vec3 target = rng.uniform() < 0.5 ? at(w.radius, rng.uniform(0, 2 * pi), end) +
                                                          r * rng.in_ball(1.5)
                                                    : Vec3(w.point + rng.uniform(0, w.length) * a);
            l.v = (target - l.x).normalized();
            if (!(l.v.norm() > 0.5)) continue;
        }
        l.v *= rng.uniform(0.5, 2.0);
        if (reference_gap(w, l.x, r) > 1e-6) return l;
    }
}

struct Counts {
    int hits = 0, misses = 0, rims = 0; // rims: contacts whose centre is beyond an end
};

// Samples the reference gap at n points of [0, T] and bisects its first sign change: the
// brute-force contact time, or nothing. Then: the prediction has a gap of zero (to round-off)
// at its time, no sample before it overlaps beyond round-off (nothing missed), and where the
// brute force finds a contact the two times agree to the round-off of the gap divided by the
// approach speed.
void check_line(const Wall& w, const Line& l, double r, double T, Counts& counts) {
    const int n = 4000;
    const double scale = l.x.norm() + w.point.norm() + w.radius + w.length + l.v.norm() * T;
    const double gap_tol = 64 * eps * scale; // a few dozen roundings of coordinates of size scale
    const auto gap = [&](double t) { return reference_gap(w, l.x + t * l.v, r); };
    std::optional<double> brute;
    for (int k = 1; k <= n && !brute; ++k) {
        const double t = T * k / n;
        if (gap(t) > 0) continue;
        double lo = T * (k - 1) / n, hi = t;
        for (int it = 0; it < 200 && lo < 0.5 * (lo + hi) && 0.5 * (lo + hi) < hi; ++it)
            (gap(0.5 * (lo + hi)) > 0 ? lo : hi) = 0.5 * (lo + hi);
        brute = hi;
    }
    const auto predicted = predict_wall_contact(w, w.point, l.x, l.v, r);
    const std::string where = "x = [" + std::to_string(l.x.x()) + ", " + std::to_string(l.x.y()) +
                              ", " + std::to_string(l.x.z()) + "], v = [" +
                              std::to_string(l.v.x()) + ", " + std::to_string(l.v.y()) + ", " +
                              std::to_string(l.v.z()) + "]";
    if (brute) {
        ASSERT_TRUE(predicted) << "missed the contact at t = " << *brute << ", " << where;
        const double vn = -wall_gap(w, w.point, l.x + *brute * l.v, r).normal.dot(l.v);
        const double tol_t = gap_tol / std::max(vn, 1e-300) + 4 * eps * T;
        EXPECT_LE(*predicted, *brute + tol_t) << where;
        // Earlier than the brute force only through a graze between its samples (checked below).
        if (*predicted < *brute - tol_t)
            EXPECT_GT(gap(*predicted - std::min(*predicted, T / n)), -gap_tol) << where;
        else
            EXPECT_NEAR(*predicted, *brute, tol_t) << where;
    }
    if (predicted && *predicted <= T) {
        ++counts.hits;
        const Vec3 d = l.x + *predicted * l.v - w.point;
        const double z = d.dot(w.normal), rho = (d - z * w.normal).norm();
        if ((z < 0 || z > w.length) && (!w.caps || rho > w.radius)) ++counts.rims;
        EXPECT_NEAR(static_cast<double>(gap(*predicted)), 0.0, gap_tol) << where;
        for (int k = 0; k * T / n < *predicted; ++k)
            ASSERT_GT(gap(T * k / n), -gap_tol) << "an earlier overlap at t = " << T * k / n
                                                << " before " << *predicted << ", " << where;
    } else {
        ++counts.misses;
    }
}

void check_kind(Kind kind, std::uint64_t seed, Counts& counts) {
    Rng rng(seed);
    for (int k = 0; k < 2000; ++k) {
        const Vec3 point = rng.in_ball(2.0), axis = rng.unit_vector();
        const double R = rng.uniform(0.5, 2.0), L = rng.uniform(0.5, 4.0);
        const double r = rng.uniform(0.05, 0.4) * std::min(R, L / 2);
        const Wall w = finite(kind, point, axis, R, L);
        const Line l = random_line(kind, w, r, rng);
        check_line(w, l, r, 8.0 * (R + L) / l.v.norm(), counts);
        if (::testing::Test::HasFatalFailure()) return;
    }
}

TEST(FiniteCylinder, CanMatchesBruteForce) {
    Counts c;
    check_kind(Kind::can, 1, c);
    EXPECT_EQ(c.misses, 0) << "a sphere inside a closed can always hits it";
}

TEST(FiniteCylinder, OpenTubeMatchesBruteForce) {
    Counts c;
    check_kind(Kind::tube, 2, c);
    EXPECT_GT(c.hits, 600);
    EXPECT_GT(c.rims, 200);
    EXPECT_GT(c.misses, 50) << "some lines leave through an open end or pass by";
}

TEST(FiniteCylinder, PostMatchesBruteForce) {
    Counts c;
    check_kind(Kind::post, 3, c);
    EXPECT_GT(c.hits, 600);
    EXPECT_GT(c.rims, 200);
    EXPECT_GT(c.misses, 20);
}

// A sphere that has just bounced off a face (touching, moving away) is not caught by the
// same face again, and a sphere in contact moving in collides now.
TEST(FiniteCylinder, TouchingAndLeavingOrApproaching) {
    const double r = 0.1;
    const Wall post = finite(Kind::post, Vec3::Zero(), Vec3::UnitZ(), 1.0, 2.0);
    const Vec3 on_rim = Vec3(1, 0, 2) + r * Vec3(0.6, 0, 0.8);
    EXPECT_FALSE(predict_wall_contact(post, post.point, on_rim, Vec3(0.6, 0, 0.8), r));
    // Touching to round-off (the centre was placed with a rounding): now, or within an ulp.
    EXPECT_NEAR(*predict_wall_contact(post, post.point, on_rim, Vec3(-0.6, 0, -0.8), r), 0.0,
                4 * eps);
    const Wall tube = finite(Kind::tube, Vec3::Zero(), Vec3::UnitZ(), 1.0, 2.0);
    // Touching the inner face, moving inwards: next contact on the far side, at 2 (1 - r) / 1.
    const auto t = predict_wall_contact(tube, tube.point, Vec3(1 - r, 0, 1), Vec3(-1, 0, 0), r);
    ASSERT_TRUE(t);
    EXPECT_NEAR(*t, 2 * (1 - r), 8 * eps);
}

} // namespace
} // namespace rubble::boundaries
