// SPDX-License-Identifier: MIT
#include "rubble/integrate/simulation.hpp"

#include <chrono>
#include <stdexcept>
#include <utility>

#include "rubble/core/stop_request.hpp"
#include "rubble/integrate/leapfrog.hpp"

namespace rubble::integrate {

Simulation::Simulation(Bodies bodies, std::unique_ptr<gravity::GravitySolver> gravity, double dt,
                       double t_start, std::int64_t step)
    : bodies_(std::move(bodies)), gravity_(std::move(gravity)), dt_(dt), t_start_(t_start),
      step_(step) {
    if (!gravity_) throw std::invalid_argument("Simulation: no gravity solver");
    if (!(dt_ > 0.0)) throw std::invalid_argument("Simulation: dt must be > 0");
    bodies_.check_consistent();
    refresh_forces();
}

void Simulation::refresh_forces() {
    acc_.resize(bodies_.size());
    pot_.resize(bodies_.size());
    gravity_->compute(bodies_.pos, bodies_.mass, acc_, pot_);
}

void Simulation::enable_collisions(const collisions::CollisionConfig& config) {
    collisions_.emplace(config);
}

void Simulation::step() {
    // KDK: the force at the end of a step is the force at the start of the next one.
    if (collisions_) {
        collisional_kick_drift();
    } else {
        kick(bodies_, acc_, 0.5 * dt_);
        drift(bodies_, dt_);
    }
    refresh_forces();
    kick(bodies_, acc_, 0.5 * dt_);
    ++step_;
}

void Simulation::collisional_kick_drift() {
    // A long event-driven drift (a dense phase can take minutes) may be abandoned part-way on
    // a stop request: the step is then undone, so that the state is the one a snapshot of the
    // previous step would hold. That needs a copy of the bodies (into a buffer kept between
    // steps, so nothing is allocated), which is made only when the previous drift took long
    // enough that the copy costs little beside it; a shorter drift just finishes. Drift
    // lengths change slowly from step to step, and the choice never changes the physics.
    const bool undoable = last_drift_seconds_ > abandon_drifts_longer_than;
    if (undoable) step_start_ = bodies_;
    const auto start = std::chrono::steady_clock::now();
    try {
        kick(bodies_, acc_, 0.5 * dt_);
        last_drift_ = collisions_->drift(bodies_, dt_, time(), undoable);
    } catch (const Interrupted&) {
        std::swap(bodies_, step_start_);
        collisions_.emplace(collisions_->config()); // lists and queue of a drift half done
        throw;
    }
    last_drift_seconds_ =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace rubble::integrate
