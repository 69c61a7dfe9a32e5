// SPDX-License-Identifier: MIT
#pragma once
// The root search shared by the contact predictions of rotating rigid bodies: sphere pairs
// (rigid_predict.cpp) and spheres against walls (rigid_wall_predict.cpp). Internal to
// src/collisions.
//
// From a time t where the gap g > 0, with its exact rate g'(t), a bound `speed` on |g'| over
// the whole drift and a bound G2 on |g''| where the paths are smooth, no contact can come
// before the larger of
//   t + g / speed                                   (first order; holds across path kinks),
//   min(t + smallest positive root of g + g' s - G2 s^2 / 2, the end of the smooth span),
// so stepping there never steps over a root (conservative advancement, Mirtich 1996, PhD
// thesis, UC Berkeley, ch. 4, with a second-order bound). Near a contact the second-order step
// is a Newton step shortened just enough never to overshoot: the search converges
// quadratically to the root, from below, to the clock's round-off.
//
// A search may also know, from the state at t, a span of times outside which no contact can
// come (Gap::lo and hi): it steps to the later of the bounds' step and lo, and stops at hi.
//
// A Search provides
//   double speed;                                  bound on |g'|, m/s
//   Gap gap_at(double t) const;                    g and g' at t (and its span, if known)
//   double second_order_step(const Gap&) const;    the parabola's root s > 0 (0: no bound)
//   double smooth_until(double t) const;           end of the span from t where G2 holds (> t)
//   bool approaching(double t) const;              g' < 0 at the bodies' physical spins
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "rubble/core/types.hpp"

namespace rubble::collisions::detail {

// Steps before a search gives up and reports a contact where it stands (never later than
// the true one): quadratic convergence needs a handful near a transversal contact; only a
// contact grazed at vanishing normal speed, where the gap's curvature is all there is, takes
// more.
inline constexpr int max_search_steps = 500;

// The gap and its rate at one time, and the span of times [lo, hi] outside which the search
// knows (from a bound of its own, such as reach_window's) that no contact can come.
struct Gap {
    double g, rate; // m, m/s
    double lo = -std::numeric_limits<double>::infinity();
    double hi = std::numeric_limits<double>::infinity(); // s
};

// The smallest s > 0 at which g + rate s - g2 s^2 / 2 can reach zero (infinite: never), for
// g > 0; written without cancellation (the root of the parabola taken as
// 2 g / (-rate + sqrt(rate^2 + 2 g2 g)), both terms of the denominator non-negative when
// approaching).
[[nodiscard]] inline double parabola_step(const Gap& gap, double g2) {
    if (g2 > 0.0)
        return 2.0 * gap.g / (-gap.rate + std::sqrt(gap.rate * gap.rate + 2.0 * g2 * gap.g));
    return gap.rate < 0.0 ? gap.g / -gap.rate : std::numeric_limits<double>::infinity();
}

// The latest time after t, where the gap is `gap` > 0, before which the gap provably stays
// positive (see the header comment), with s.smooth_until(t) given (callers that search many
// pairs from one t compute it once).
template <class Search>
[[nodiscard]] double safe_until(const Search& s, double t, const Gap& gap, double smooth_end) {
    const double first = t + gap.g / s.speed;
    const double second = std::min(t + s.second_order_step(gap), smooth_end);
    return std::max(first, second);
}

template <class Search> [[nodiscard]] double safe_until(const Search& s, double t, const Gap& gap) {
    return safe_until(s, t, gap, s.smooth_until(t));
}

// The earliest contact in [t, until] from t, where the gap is `gap`: spheres touching or
// overlapping at t touch now if approaching at the physical spins, and are otherwise left
// alone (they part).
template <class Search>
[[nodiscard]] std::optional<double> search_from(const Search& s, double t, Gap gap, double until) {
    if (!(gap.g > 0.0)) {
        if (s.approaching(t)) return t;
        return std::nullopt;
    }
    // The clock's resolution near the end of the search: steps below it are round-off.
    const double resolution =
        4.0 * std::numeric_limits<double>::epsilon() * std::max(std::abs(t), std::abs(until));
    for (int k = 0; k < max_search_steps; ++k) {
        const double next = std::max(safe_until(s, t, gap), gap.lo);
        until = std::min(until, gap.hi);
        if (!(next <= until)) return std::nullopt; // (infinite or NaN included)
        if (next - t <= resolution) return next;
        t = next;
        gap = s.gap_at(t);
        if (!(gap.g > 0.0)) return t; // reached at round-off (no root before: the bounds)
    }
    return t;
}

} // namespace rubble::collisions::detail
