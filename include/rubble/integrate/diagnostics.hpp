// SPDX-License-Identifier: MIT
#pragma once
// Conserved quantities of the whole system, for the diagnostics time series.
#include <cstdint>
#include <span>

#include "rubble/core/bodies.hpp"

namespace rubble::integrate {

struct Diagnostics {
    double time = 0.0;                ///< s
    std::int64_t step = 0;            ///< step number
    double kinetic_translational = 0; ///< J, sum m v^2 / 2
    double kinetic_rotational = 0;    ///< J, sum w.I.w / 2
    double potential = 0; ///< J, sum m phi / 2 over mass points (with the constant binding energy
                          ///< of each rigid body of several spheres)
    double total_energy = 0;                  ///< J
    Vec3 momentum = Vec3::Zero();             ///< kg m/s
    Vec3 angular_momentum = Vec3::Zero();     ///< kg m^2/s about the origin, orbital + spin
    Vec3 angular_momentum_com = Vec3::Zero(); ///< kg m^2/s about the centre of mass
    Vec3 com_position = Vec3::Zero();         ///< m
    Vec3 com_velocity = Vec3::Zero();         ///< m/s
    /// kg m^2/s: sum of m |r - R| |v - V| + |L_spin| over bodies, the size angular momentum
    /// errors are measured against when the total is (near) zero, as in a cold collapse.
    double angular_momentum_scale = 0;
    // Collision counters (stored as float64 in the file, exact below 2^53).
    double collisions = 0;       ///< collisions resolved since the previous row
    double collisions_total = 0; ///< since the start of the run
    double overlaps = 0;         ///< overlapping pairs found since the previous row
    double overlaps_total = 0;   ///< since the start of the run
    double merges_total = 0;     ///< merging collisions and overlaps since the start
    double max_overlap = 0;      ///< largest overlap depth / (R1 + R2) since the previous row
};

/// Diagnostics of bodies whose specific potentials (J/kg) are given (from the force evaluation
/// at the same positions). Spin angular momentum uses the inertia tensor rotated to the
/// inertial frame, R diag(I) R^T w, so it holds for aggregates and polyhedra too.
[[nodiscard]] Diagnostics compute_diagnostics(const Bodies& b, std::span<const double> potential,
                                              double time, std::int64_t step);

/// |E - E0| / |E0| (0 if E0 = 0).
[[nodiscard]] double relative_energy_error(const Diagnostics& now, const Diagnostics& start);

/// |L - L0| / max(|L0|, scale0, scale) for the angular momentum about the centre of mass:
/// relative to the total, or to the bodies' own angular momenta where the total vanishes.
[[nodiscard]] double angular_momentum_error(const Diagnostics& now, const Diagnostics& start);

} // namespace rubble::integrate
