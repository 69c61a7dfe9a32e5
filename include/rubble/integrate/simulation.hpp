// SPDX-License-Identifier: MIT
#pragma once
// Owner of the evolving state: bodies, the gravity backend, and the accelerations and
// potentials at the current positions (valid between steps, so a step needs one force
// evaluation and diagnostics need none).
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "rubble/collisions/event_drift.hpp"
#include "rubble/core/bodies.hpp"
#include "rubble/gravity/gravity_solver.hpp"

namespace rubble::integrate {

class Simulation {
public:
    /// Starts at time t_start + step * dt (s). Computes the forces at the initial positions.
    Simulation(Bodies bodies, std::unique_ptr<gravity::GravitySolver> gravity, double dt,
               double t_start = 0.0, std::int64_t step = 0);

    /// Makes every following drift event-driven with hard-sphere collisions.
    void enable_collisions(const collisions::CollisionConfig& config);
    [[nodiscard]] bool collisions_enabled() const { return collisions_.has_value(); }
    /// What the last drift did (zeros without collisions).
    [[nodiscard]] const collisions::DriftStats& last_drift() const { return last_drift_; }
    /// The collision engine (for its log); requires collisions_enabled().
    [[nodiscard]] collisions::EventDrivenDrift& collision_engine() { return *collisions_; }

    /// One kick-drift-kick step of length dt. With collisions, a stop request during a drift
    /// that may be abandoned (the previous one took longer than abandon_drifts_longer_than)
    /// throws Interrupted and leaves the state exactly as it was before the step; a shorter
    /// drift finishes first.
    void step();
    /// Wall-clock seconds of a drift beyond which the next drift can be abandoned.
    static constexpr double abandon_drifts_longer_than = 0.5;

    /// Simulated time (s). Computed as t_start + step * dt, never accumulated, so a resumed
    /// run has bitwise the same times as an uninterrupted one.
    [[nodiscard]] double time() const { return t_start_ + static_cast<double>(step_) * dt_; }
    [[nodiscard]] std::int64_t step_count() const { return step_; }
    [[nodiscard]] double dt() const { return dt_; }
    [[nodiscard]] const Bodies& bodies() const { return bodies_; }
    /// Mutable access for tests and set-up; call refresh_forces() after moving bodies.
    [[nodiscard]] Bodies& bodies() { return bodies_; }
    void refresh_forces();
    [[nodiscard]] const std::vector<Vec3>& accelerations() const { return acc_; }
    /// Specific gravitational potential at each body (J/kg).
    [[nodiscard]] const std::vector<double>& potentials() const { return pot_; }
    [[nodiscard]] const gravity::GravitySolver& gravity() const { return *gravity_; }

private:
    Bodies bodies_;
    Bodies step_start_; ///< bodies at the start of the step in progress (collisions only)
    double last_drift_seconds_ = 0.0; ///< wall-clock time of the last event-driven drift
    void collisional_kick_drift();
    std::unique_ptr<gravity::GravitySolver> gravity_;
    double dt_;
    double t_start_;
    std::int64_t step_;
    std::vector<Vec3> acc_;
    std::vector<double> pot_;
    std::optional<collisions::EventDrivenDrift> collisions_;
    collisions::DriftStats last_drift_;
};

} // namespace rubble::integrate
