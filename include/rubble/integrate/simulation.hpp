// SPDX-License-Identifier: MIT
#pragma once
// Owner of the evolving state: bodies, the gravity backend, the stepper that moves the bodies
// between the kicks (integrate/stepper.hpp), and the accelerations and potentials at the
// current positions (valid between steps, so a step needs one force evaluation and diagnostics
// need none).
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "rubble/core/bodies.hpp"
#include "rubble/gravity/gravity_solver.hpp"
#include "rubble/integrate/stepper.hpp"

namespace rubble::integrate {

class Simulation {
public:
    /// Starts at time t_start + step * dt (s) with the plain drift (no contacts). Computes
    /// the forces at the initial positions. `centres_rule` decides, at every force
    /// evaluation, whether gravity acts at the bodies' centres (one mass point each) or at
    /// their spheres: over ranks the decision must be every rank's alike, the serial run's,
    /// whatever bodies each rank holds (run/run_ranks.hpp). Empty (the default):
    /// Bodies::gravity_at_centres of the bodies.
    Simulation(Bodies bodies, std::unique_ptr<gravity::GravitySolver> gravity, double dt,
               double t_start = 0.0, std::int64_t step = 0,
               std::function<bool(const Bodies&)> centres_rule = {});

    /// Called in every following step between the drift and the forces, with the bodies: a
    /// run over ranks moves them to the ranks of their domains there (run/run_ranks.hpp), when
    /// the accelerations are about to be recomputed and nothing else refers to rows. It may
    /// change the rows but not the bodies' state. Empty (the default): nothing. With one, an
    /// advance is never abandoned part-way (the ranks would each decide by their own clock).
    void set_redistribution(std::function<void(Bodies&)> redistribute) {
        redistribute_ = std::move(redistribute);
    }

    /// Moves the bodies between the kicks of every following step with `stepper`.
    void set_stepper(std::unique_ptr<Stepper> stepper);
    [[nodiscard]] Stepper& stepper() { return *stepper_; }
    [[nodiscard]] const Stepper& stepper() const { return *stepper_; }
    /// What the last step's stepper did.
    [[nodiscard]] const StepStats& last_stats() const { return last_stats_; }

    /// One kick-drift-kick step of length dt. A stop request during an advance that may be
    /// abandoned (the stepper resolves contacts and its previous advance took longer than
    /// abandon_drifts_longer_than) throws Interrupted and leaves the state exactly as it was
    /// before the step; a shorter advance finishes first.
    void step();
    /// Wall-clock seconds of an advance beyond which the next one can be abandoned.
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
    /// Acceleration of each body's centre of mass (m/s^2): the mass-weighted mean over its
    /// spheres; a polyhedron's is the field at its centre of mass.
    [[nodiscard]] const std::vector<Vec3>& accelerations() const { return acc_; }
    /// Torque on each body about its centre of mass (N m, inertial frame): sum over its spheres
    /// of m_i rho_i x (a_i - a_body) (Richardson et al. 2009), zero for a polyhedron (one mass
    /// point). Empty when every body is a free sphere or a polyhedron (no torques).
    [[nodiscard]] const std::vector<Vec3>& torques() const { return torque_; }
    /// Adds a uniform external field g (m/s^2) to the forces from now on (boundaries/
    /// uniform_field.hpp) and refreshes them; zero (the default) adds nothing.
    void set_uniform_field(const Vec3& g);
    /// Specific gravitational potential at each body (J/kg), as the diagnostics weigh it
    /// (m/2 each): self-gravity's (the mass-weighted mean over the body's spheres), plus twice
    /// a uniform field's (boundaries/uniform_field.hpp).
    [[nodiscard]] const std::vector<double>& potentials() const { return pot_; }
    [[nodiscard]] const gravity::GravitySolver& gravity() const { return *gravity_; }

private:
    Bodies bodies_;
    Bodies step_start_;                 ///< bodies at the start of a step that may be abandoned
    double last_advance_seconds_ = 0.0; ///< wall-clock time of the stepper's last advance
    void kick_advance();
    std::unique_ptr<gravity::GravitySolver> gravity_;
    double dt_;
    double t_start_;
    std::int64_t step_;
    std::vector<Vec3> acc_;
    std::vector<double> pot_;
    std::vector<Vec3> torque_;
    // Mass points (sphere centres, then polyhedra's centres of mass) and their fields, for
    // bodies other than free spheres.
    std::vector<Vec3> point_pos_, point_acc_;
    std::vector<double> point_mass_, point_pot_;
    Vec3 uniform_g_ = Vec3::Zero(); ///< m/s^2
    /// Accelerations, potentials and torques of bodies that are not all mass points at their
    /// centres.
    void gravity_on_spheres();
    std::unique_ptr<Stepper> stepper_;
    StepStats last_stats_;
    std::function<void(Bodies&)> redistribute_;
    std::function<bool(const Bodies&)> centres_rule_;
};

} // namespace rubble::integrate
