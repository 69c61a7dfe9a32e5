// SPDX-License-Identifier: MIT
#pragma once
// When does a sphere moving on a straight line touch a circle (the rim edge of a finite
// cylinder, boundaries/finite_cylinder.hpp)? The centre's distance to the circle equals the
// sphere's radius r on a torus, so the contact times are roots of a quartic. It is solved
// exactly, not by stepping: the quartic's critical points (the roots of its cubic derivative,
// found the same way from the quadratic second derivative) split the search window into pieces
// on which it is monotone, so each piece holds at most one root and a sign change brackets it;
// no root that changes sign is missed, however grazing the line, and the cost is bounded (a
// Lipschitz-bounded stepping on the gap, |d gap/dt| <= |v|, would also never miss, but its step
// count grows without bound as a line grazes the torus). Each bracket is then bisected on the
// un-squared gap, hypot(rho - R, z) - r, which is free of the squaring's cancellation
// (Press et al., Numerical Recipes, 3rd ed., sec. 9.1 and 9.5 on bracketing and polynomial roots).
#include <optional>

#include "rubble/core/types.hpp"

namespace rubble::boundaries {

/// The first time t >= 0 (s) at which a sphere of radius r (m) whose centre is at x (m, from the
/// circle's centre) and moves with v (m/s, relative to the circle) comes into contact with the
/// circle of radius R (m) about the unit axis a (its distance to the circle falls through r),
/// or nothing. A centre already within r of the circle at t = 0 counts only once it has left
/// and comes back.
[[nodiscard]] std::optional<double> predict_rim_contact(const Vec3& x, const Vec3& v, const Vec3& a,
                                                        double R, double r);

/// Distance (m) from the point x (m, from the circle's centre) to that circle.
[[nodiscard]] double distance_to_circle(const Vec3& x, const Vec3& a, double R);

} // namespace rubble::boundaries
