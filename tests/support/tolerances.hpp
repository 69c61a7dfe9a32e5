// SPDX-License-Identifier: MIT
#pragma once
// Named tolerances for the test suites, each with where it comes from. Change one only with a
// reason that fits its comment.
#include <limits>

namespace rubble::test {

/// Unit round-off of double precision.
inline constexpr double eps = std::numeric_limits<double>::epsilon();

/// A sum of n terms in floating point has relative error <= n eps (Higham 2002, eq. 4.4); the
/// factor 4 covers the few extra operations around each term (subtraction, sqrt, division).
inline constexpr double summation_bound(double n) {
    return 4.0 * n * eps;
}

/// Leapfrog is second order: halving dt divides secular and periodic errors by 4. A measured
/// ratio within [3, 5] confirms O(dt^2) when the error is well above round-off.
inline constexpr double order2_ratio_min = 3.0;
inline constexpr double order2_ratio_max = 5.0;

/// Homologous collapse of a uniform sphere sampled by N = 1000 points: the sampled density
/// scatters by ~1/sqrt(N) = 3 %, so collapse times scatter by ~1.5 %; 3 % is two sigma.
inline constexpr double cold_collapse_time_rel = 0.03;

/// Tree gravity at theta = 0.5 with quadrupoles (order 2) against direct summation: the median
/// relative acceleration error the tree accuracy test holds the tree to on a uniform sphere
/// (tests/validation/tree_accuracy_test.cpp, docs/tree.md; the public REBOUND quadrupole tree's
/// accuracy). Order 4 is held to a tenth of it.
inline constexpr double tree_theta05_order2_median = 6e-4;
inline constexpr double tree_order4_gain = 10.0;

} // namespace rubble::test
