// SPDX-License-Identifier: MIT
#include "rubble/integrate/simulation.hpp"

#include <chrono>
#include <stdexcept>
#include <utility>

#include "rubble/boundaries/uniform_field.hpp"
#include "rubble/core/stop_request.hpp"
#include "rubble/integrate/leapfrog.hpp"

namespace rubble::integrate {

Simulation::Simulation(Bodies bodies, std::unique_ptr<gravity::GravitySolver> gravity, double dt,
                       double t_start, std::int64_t step)
    : bodies_(std::move(bodies)), gravity_(std::move(gravity)), dt_(dt), t_start_(t_start),
      step_(step), stepper_(std::make_unique<PlainDrift>()) {
    if (!gravity_) throw std::invalid_argument("Simulation: no gravity solver");
    if (!(dt_ > 0.0)) throw std::invalid_argument("Simulation: dt must be > 0");
    bodies_.check_consistent();
    refresh_forces();
}

void Simulation::refresh_forces() {
    acc_.resize(bodies_.size());
    pot_.resize(bodies_.size());
    gravity_->compute(bodies_.pos, bodies_.mass, acc_, pot_);
    if (uniform_g_ != Vec3::Zero())
        boundaries::add_uniform_field(uniform_g_, bodies_.pos, acc_, pot_);
}

void Simulation::set_uniform_field(const Vec3& g) {
    uniform_g_ = g;
    refresh_forces();
}

void Simulation::set_stepper(std::unique_ptr<Stepper> stepper) {
    if (!stepper) throw std::invalid_argument("Simulation: no stepper");
    stepper_ = std::move(stepper);
    last_advance_seconds_ = 0.0;
}

void Simulation::step() {
    // KDK: the force at the end of a step is the force at the start of the next one.
    kick_advance();
    refresh_forces();
    kick(bodies_, acc_, 0.5 * dt_);
    ++step_;
}

void Simulation::kick_advance() {
    // A long advance (an event-driven drift through a dense phase can take minutes) may be
    // abandoned part-way on a stop request: the step is then undone, so that the state is the
    // one a snapshot of the previous step would hold. That needs a copy of the bodies (into a
    // buffer kept between steps, so nothing is allocated), which is made only when the
    // previous advance took long enough that the copy costs little beside it; a shorter
    // advance just finishes. Advance lengths change slowly from step to step, and the choice
    // never changes the physics.
    const bool undoable =
        stepper_->resolves_contacts() && last_advance_seconds_ > abandon_drifts_longer_than;
    if (undoable) step_start_ = bodies_;
    const auto start = std::chrono::steady_clock::now();
    try {
        kick(bodies_, acc_, 0.5 * dt_);
        last_stats_ = stepper_->advance(bodies_, dt_, time(), undoable);
    } catch (const Interrupted&) {
        std::swap(bodies_, step_start_);
        stepper_->discard();
        throw;
    }
    last_advance_seconds_ =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace rubble::integrate
