// SPDX-License-Identifier: MIT
#pragma once
// The body-body gravity kernel shared by direct summation, the tree's near field and (later)
// the CUDA kernels.
#include <cmath>

#include "rubble/core/hostdevice.hpp"

namespace rubble::gravity {

/// Adds the field (without G) of a point mass m at offset (dx, dy, dz) = x_source - x_target:
/// Plummer-softened, a = m d / (d^2 + eps^2)^(3/2), phi = -m / sqrt(d^2 + eps^2) (Aarseth 2003,
/// Gravitational N-body Simulations, sec. 2.2). The d^2 > 0 mask drops the self term and keeps
/// coincident points finite instead of NaN. Branch-free, so loops over sources vectorise.
/// Softened = false drops the eps^2 addition (bitwise the same result for eps = 0, one
/// double-precision operation fewer per interaction in the GPU direct sum).
template <bool Softened = true>
RUBBLE_HD RUBBLE_INLINE void add_body_field(double dx, double dy, double dz, double m, double eps2,
                                            double& ax, double& ay, double& az, double& phi) {
    const double d2 = dx * dx + dy * dy + dz * dz;
    const double r2 = Softened ? d2 + eps2 : d2;
    // The self term (d2 = 0) is masked on the inputs: zero mass, and 1 added under the root so
    // that it stays finite without softening. Selecting the result instead (or feeding the
    // root a constant the compiler can fold) turns the inverse square root into a branch,
    // which stops the vectorisation (GCC does not speculate floating-point work).
    const bool self = !(d2 > 0.0);
    const double inv = inverse_sqrt(r2 + (self ? 1.0 : 0.0));
    const double m_inv = (self ? 0.0 : m) * inv;
    const double m_inv3 = m_inv * inv * inv;
    ax += m_inv3 * dx;
    ay += m_inv3 * dy;
    az += m_inv3 * dz;
    phi -= m_inv;
}

} // namespace rubble::gravity
