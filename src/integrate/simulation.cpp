// SPDX-License-Identifier: MIT
#include "rubble/integrate/simulation.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <utility>

#include "rubble/boundaries/uniform_field.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/core/stop_request.hpp"
#include "rubble/integrate/leapfrog.hpp"

namespace rubble::integrate {

Simulation::Simulation(Bodies bodies, std::unique_ptr<gravity::GravitySolver> gravity, double dt,
                       double t_start, std::int64_t step,
                       std::function<bool(const Bodies&)> centres_rule)
    : bodies_(std::move(bodies)), gravity_(std::move(gravity)), dt_(dt), t_start_(t_start),
      step_(step), stepper_(std::make_unique<PlainDrift>()),
      centres_rule_(std::move(centres_rule)) {
    if (!gravity_) throw std::invalid_argument("Simulation: no gravity solver");
    if (!(dt_ > 0.0)) throw std::invalid_argument("Simulation: dt must be > 0");
    bodies_.check_consistent();
    refresh_forces();
}

void Simulation::refresh_forces() {
    const std::size_t n = bodies_.size();
    acc_.resize(n);
    pot_.resize(n);
    if (centres_rule_ ? centres_rule_(bodies_) : bodies_.gravity_at_centres()) {
        // Each body is its own mass point: no torques, and no copy of the positions.
        torque_.clear();
        gravity_->compute(bodies_.pos, bodies_.mass, acc_, pot_);
    } else {
        gravity_on_spheres();
    }
    if (uniform_g_ != Vec3::Zero())
        boundaries::add_uniform_field(uniform_g_, bodies_.pos, acc_, pot_);
}

void Simulation::gravity_on_spheres() {
    // Gravity acts on every sphere; each body gets the sum over its spheres (Richardson et al.
    // 2009, P&SS 57, 183): F = sum m_i a_i, N = sum m_i rho_i x (a_i - F/M), and the
    // mass-weighted mean potential. A polyhedron beside aggregates is one more mass point, at
    // its centre of mass (docs/polyhedra.md, "Gravity"), after the spheres.
    const std::size_t n = bodies_.size();
    const Spheres& s = bodies_.spheres;
    const Hulls& h = bodies_.hulls;
    const std::size_t m = s.size();
    point_pos_.resize(m + h.size());
    point_mass_.resize(m + h.size());
    point_acc_.resize(m + h.size());
    point_pot_.resize(m + h.size());
    for (std::size_t k = 0; k < m; ++k) {
        point_pos_[k] = sphere_centre(bodies_, k);
        point_mass_[k] = s.mass[k];
    }
    for (std::size_t k = 0; k < h.size(); ++k) {
        point_pos_[m + k] = bodies_.pos[static_cast<std::size_t>(h.body[k])];
        point_mass_[m + k] = h.mass[k];
    }
    gravity_->compute(point_pos_, point_mass_, point_acc_, point_pot_);
    std::fill(acc_.begin(), acc_.end(), Vec3::Zero());
    std::fill(pot_.begin(), pot_.end(), 0.0);
    torque_.assign(n, Vec3::Zero());
    for (std::size_t k = 0; k < m; ++k) {
        const auto i = static_cast<std::size_t>(s.body[k]);
        acc_[i] += s.mass[k] * point_acc_[k];
        pot_[i] += s.mass[k] * point_pot_[k];
    }
    for (std::size_t k = 0; k < h.size(); ++k) {
        const auto i = static_cast<std::size_t>(h.body[k]);
        acc_[i] += h.mass[k] * point_acc_[m + k];
        pot_[i] += h.mass[k] * point_pot_[m + k];
    }
    for (std::size_t i = 0; i < n; ++i) {
        acc_[i] /= bodies_.mass[i];
        pot_[i] /= bodies_.mass[i];
    }
    for (std::size_t k = 0; k < m; ++k) {
        const auto i = static_cast<std::size_t>(s.body[k]);
        torque_[i] += s.mass[k] * (point_pos_[k] - bodies_.pos[i]).cross(point_acc_[k] - acc_[i]);
    }
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
    if (redistribute_) redistribute_(bodies_);
    refresh_forces();
    kick(bodies_, acc_, torque_, 0.5 * dt_);
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
    // (Over ranks, with a redistribution, never: the ranks would decide on their own clocks.)
    const bool undoable = !redistribute_ && stepper_->resolves_contacts() &&
                          last_advance_seconds_ > abandon_drifts_longer_than;
    if (undoable) step_start_ = bodies_;
    const auto start = std::chrono::steady_clock::now();
    try {
        kick(bodies_, acc_, torque_, 0.5 * dt_);
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
