// SPDX-License-Identifier: MIT
#include "rubble/collisions/predict.hpp"

#include <cmath>

namespace rubble::collisions {

std::optional<double> predict_contact(const Vec3& r, const Vec3& v, double sigma) {
    const double b = r.dot(v);
    if (!(b < 0.0)) return std::nullopt; // receding, at rest relative to each other, or NaN
    const double c = r.squaredNorm() - sigma * sigma;
    if (c <= 0.0) return 0.0; // touching or overlapping and approaching: now
    const double a = v.squaredNorm();
    // b^2 - a c written as a sigma^2 - |r x v|^2 (Lagrange's identity): for small spheres far
    // apart b^2 and a c are huge and nearly equal, and their difference would lose most digits.
    const double discriminant = a * sigma * sigma - r.cross(v).squaredNorm();
    if (discriminant < 0.0) return std::nullopt; // they pass each other
    // Smaller root (-b - sqrt(D)) / a written as c / (-b + sqrt(D)): both terms positive, no
    // cancellation.
    return c / (-b + std::sqrt(discriminant));
}

} // namespace rubble::collisions
