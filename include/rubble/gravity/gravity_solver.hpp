// SPDX-License-Identifier: MIT
#pragma once
// One interface, several backends (direct today; tree, gpu-tree, gpu-direct later).
// Gravity acts between mass points: free spheres today, the spheres of an aggregate and the
// centres of mass of polyhedra later. The caller sums point forces into body forces/torques.
#include <memory>
#include <span>
#include <string>

#include "rubble/core/types.hpp"

namespace rubble::gravity {

/// Backends selectable by gravity.backend. Cost noted per backend (REBOUND's convention).
enum class Backend {
    direct, ///< O(N^2) pairwise sum, exact to round-off, OpenMP over targets
};

struct GravityConfig {
    Backend backend = Backend::direct;
    double G = G_SI;        ///< m^3 kg^-1 s^-2
    double softening = 0.0; ///< m, Plummer softening length (0: Newtonian)
};

class GravitySolver {
public:
    virtual ~GravitySolver() = default;

    /// Accelerations (m/s^2) and specific potentials (J/kg) at every mass point from all the
    /// others. pos in m, mass in kg; acc and potential must have pos.size() elements.
    /// Deterministic: the same input (and thread count) gives bitwise the same output.
    virtual void compute(std::span<const Vec3> pos, std::span<const double> mass,
                         std::span<Vec3> acc, std::span<double> potential) = 0;

    /// Name of the backend as written in the parameter file (e.g. "direct").
    [[nodiscard]] virtual std::string name() const = 0;
};

/// The factory: the only place that switches on gravity.backend.
[[nodiscard]] std::unique_ptr<GravitySolver> make_gravity_solver(const GravityConfig& config);

} // namespace rubble::gravity
