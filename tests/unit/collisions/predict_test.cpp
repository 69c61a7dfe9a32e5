// SPDX-License-Identifier: MIT
// Contact prediction: exact roots, and the cases where round-off used to break event-driven
// codes (Bannerman et al. 2014): touching pairs, grazing pairs, tiny sums of radii.
#include <cmath>

#include <gtest/gtest.h>

#include "rubble/core/contact_time.hpp"
#include "rubble/core/random.hpp"
#include "tolerances.hpp"

using namespace rubble;
using rubble::test::eps;

TEST(PredictContact, HeadOnApproachHasTheObviousRoot) {
    // Centres 10 m apart closing at 2 m/s, radii summing to 4 m: contact after 3 s.
    const auto t = predict_contact(Vec3(10, 0, 0), Vec3(-2, 0, 0), 4.0);
    ASSERT_TRUE(t.has_value());
    EXPECT_NEAR(*t, 3.0, 4 * eps * 3.0);
}

TEST(PredictContact, RecedingRestingAndMissingPairsNeverCollide) {
    EXPECT_FALSE(predict_contact(Vec3(10, 0, 0), Vec3(2, 0, 0), 4.0));  // receding
    EXPECT_FALSE(predict_contact(Vec3(10, 0, 0), Vec3(0, 0, 0), 4.0));  // v = 0
    EXPECT_FALSE(predict_contact(Vec3(10, 0, 0), Vec3(0, 3, 0), 4.0));  // moving sideways
    EXPECT_FALSE(predict_contact(Vec3(10, 5, 0), Vec3(-1, 0, 0), 4.0)); // passes 5 m off
}

TEST(PredictContact, TouchingOrOverlappingAndApproachingCollidesNow) {
    // Exactly touching, and overlapping by round-off: an approaching pair must be caught now.
    EXPECT_EQ(predict_contact(Vec3(4, 0, 0), Vec3(-1, 0, 0), 4.0), 0.0);
    EXPECT_EQ(predict_contact(Vec3(4.0 - 1e-15, 0, 0), Vec3(-1e-9, 0, 0), 4.0), 0.0);
    // Touching but separating: no event (they part).
    EXPECT_FALSE(predict_contact(Vec3(4.0 - 1e-15, 0, 0), Vec3(1e-9, 0, 0), 4.0));
}

TEST(PredictContact, GrazingPairsTouchAtClosestApproach) {
    // Offset exactly sigma: the discriminant is zero, contact at closest approach t = 10 s.
    const auto t = predict_contact(Vec3(10, 4, 0), Vec3(-1, 0, 0), 4.0);
    ASSERT_TRUE(t.has_value());
    EXPECT_NEAR(*t, 10.0, 1e-6); // a double root is only determined to sqrt(eps)
    EXPECT_FALSE(predict_contact(Vec3(10, 4.0 + 1e-6, 0), Vec3(-1, 0, 0), 4.0));
}

TEST(PredictContact, StableForTinySpheresFarApartAgainstLongDouble) {
    // c / (-b + sqrt(D)) keeps full relative precision where (-b - sqrt(D)) / a cancels.
    Rng rng(3);
    for (int trial = 0; trial < 1000; ++trial) {
        const Vec3 r = rng.uniform(1.0, 1e3) * rng.unit_vector();
        const double sigma = rng.uniform(1e-8, 1e-3);
        // Aim at the other sphere, missing its centre by at most sigma / 2 so it is hit and the
        // root is well conditioned.
        const Vec3 v =
            -rng.uniform(0.1, 10.0) * (r.normalized() + 0.5 * sigma / r.norm() * rng.unit_vector());
        const auto t = predict_contact(r, v, sigma);
        ASSERT_TRUE(t.has_value()) << trial;
        // Reference in long double from the components (Lagrange form of the discriminant).
        const long double rx = r.x(), ry = r.y(), rz = r.z(), vx = v.x(), vy = v.y(), vz = v.z();
        const long double s = sigma;
        const long double b = rx * vx + ry * vy + rz * vz;
        const long double c = rx * rx + ry * ry + rz * rz - s * s;
        const long double cx = ry * vz - rz * vy, cy = rz * vx - rx * vz, cz = rx * vy - ry * vx;
        const long double d = (vx * vx + vy * vy + vz * vz) * s * s - (cx * cx + cy * cy + cz * cz);
        const long double ref = c / (-b + std::sqrt(d));
        EXPECT_NEAR(*t, static_cast<double>(ref), 64 * eps * static_cast<double>(ref)) << trial;
        // The spheres touch then: |r + v t| = sigma to the precision of the positions.
        EXPECT_NEAR((r + *t * v).norm(), sigma, 64 * eps * r.norm()) << trial;
    }
}

TEST(ReachWindow, HoldsEveryTimeTheWanderingPointsCanMeet) {
    // reach_window(r, v, sigma, k) bounds where |r + v s| - k s - sigma <= 0 (s >= 0). On random
    // pairs in all its regimes (|v| above, below and equal to k, lines that pass by, pairs that
    // recede), sampled finely: that function is positive at every sample outside the window,
    // and the window's ends are its roots grown by the margin (f = margin there to round-off).
    Rng rng(33);
    int windows = 0, empty = 0, unbounded = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        const double sigma = rng.uniform(0.01, 2.0);
        const Vec3 r = rng.unit_vector() * (sigma + rng.uniform(1e-3, 10.0));
        const double speed = rng.uniform(0.0, 3.0);
        const Vec3 v = trial % 3 == 0 ? Vec3(-r.normalized() * speed + rng.unit_vector() * 0.2)
                                      : Vec3(rng.unit_vector() * speed);
        const double k = trial % 7 == 0 ? v.norm() : rng.uniform(0.0, 2.0);
        const double margin = 1e-9 * (r.norm() + sigma);
        const TimeWindow w = reach_window(r, v, sigma, k, margin);
        const auto f = [&](double s) { return (r + v * s).norm() - k * s - sigma; };
        if (w.empty())
            ++empty;
        else if (std::isinf(w.hi))
            ++unbounded;
        else
            ++windows;
        const double span = 50.0;
        for (int i = 0; i <= 5000; ++i) {
            const double s = span * i / 5000.0;
            if (!w.empty() && s >= w.lo && s <= w.hi) continue;
            ASSERT_GT(f(s), 0.0) << "trial " << trial << " s " << s;
        }
        if (w.empty()) continue;
        const double scale = r.norm() + sigma + (v.norm() + k) * w.lo;
        EXPECT_NEAR(f(w.lo), margin, 64 * eps * scale) << "trial " << trial;
        if (!std::isinf(w.hi)) {
            const double far = r.norm() + sigma + (v.norm() + k) * w.hi;
            EXPECT_NEAR(f(w.hi), margin, 64 * eps * far) << "trial " << trial;
        }
    }
    EXPECT_GT(windows, 200);
    EXPECT_GT(empty, 200);
    EXPECT_GT(unbounded, 200);
    // Within reach now: from now on, for ever.
    const TimeWindow now = reach_window(Vec3(1, 0, 0), Vec3(5, 0, 0), 1.5, 0.0, 0.0);
    EXPECT_EQ(now.lo, 0.0);
    EXPECT_TRUE(std::isinf(now.hi));
}
