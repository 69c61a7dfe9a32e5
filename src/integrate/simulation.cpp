// SPDX-License-Identifier: MIT
#include "rubble/integrate/simulation.hpp"

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
        // An event-driven drift can be abandoned part-way (a stop request): the step is then
        // undone, so that the state is the one a snapshot of the previous step would hold.
        // The copy is O(N), small beside the drift and the force evaluation, into a buffer
        // kept between steps so that it allocates nothing.
        step_start_ = bodies_;
        try {
            kick(bodies_, acc_, 0.5 * dt_);
            last_drift_ = collisions_->drift(bodies_, dt_, time());
        } catch (const Interrupted&) {
            std::swap(bodies_, step_start_);
            collisions_.emplace(collisions_->config()); // lists and queue of a drift half done
            throw;
        }
    } else {
        kick(bodies_, acc_, 0.5 * dt_);
        drift(bodies_, dt_);
    }
    refresh_forces();
    kick(bodies_, acc_, 0.5 * dt_);
    ++step_;
}

} // namespace rubble::integrate
