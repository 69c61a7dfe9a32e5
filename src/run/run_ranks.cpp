// SPDX-License-Identifier: MIT
#include "rubble/run/run_ranks.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <span>
#include <string>
#include <utility>

#include "rubble/core/rank_errors.hpp"
#include "rubble/domain/root_transfer.hpp"
#include "rubble/gravity/distributed_direct.hpp"
#include "rubble/gravity/distributed_tree.hpp"
#include "rubble/gravity/no_gravity.hpp"
#include "rubble/run/drift_over_ranks.hpp"
#include "rubble/run/make_gravity_solver.hpp"

namespace rubble::run {
namespace {

const char* const not_yet = " over several MPI ranks is not available yet (docs/mpi.md: what runs "
                            "over ranks today); run it on one rank, or run a campaign over ranks";

} // namespace

void check_runs_over_ranks(const config::ParameterSet& p, const config::RunConfig& c,
                           const Bodies& bodies, int ranks) {
    if (ranks <= 1) return;
    const gravity::Backend b = resolve_backend(c.gravity, bodies.size(), false);
    if (b == gravity::Backend::gpu_direct || b == gravity::Backend::gpu_tree)
        throw p.error("gravity.backend",
                      std::string("the GPU backends (one GPU per rank)") + not_yet);
}

void RunRanks::scatter(Bodies& b) {
    if (single()) {
        order_.resize(b.size());
        std::iota(order_.begin(), order_.end(), std::int64_t{0});
        return;
    }
    order_ = domain::scatter_from_root(b, world_);
    // Bodies and spheres only ever become fewer (merges; sticking joins spheres), so the
    // totals of the start bound the keys for the whole run.
    sphere_stride_ =
        std::max<std::int64_t>(1, world_.sum(static_cast<std::int64_t>(b.spheres.size())));
    hull_offset_ = world_.sum(static_cast<std::int64_t>(b.size())) * sphere_stride_;
}

bool RunRanks::gravity_at_centres(const Bodies& b) {
    // Bodies::gravity_at_centres of the whole state: every body a hull (and no spheres), or
    // every body a free sphere; each holds on all ranks when it holds on each (an empty rank
    // is neither against), but "one or the other on every rank" is not "one on all".
    std::vector<std::int64_t> against{b.spheres.size() == 0 && b.hulls.size() == b.size() ? 0 : 1,
                                      b.all_free_spheres() ? 0 : 1};
    world_.max_in_place(against);
    const bool centres = against[0] == 0 || against[1] == 0;
    point_order_.clear();
    if (centres) {
        point_order_ = order_;
        return true;
    }
    // As integrate::Simulation lays the points out: spheres (grouped by body), then hulls.
    std::int64_t within = 0;
    for (std::size_t k = 0; k < b.spheres.size(); ++k) {
        within = k > 0 && b.spheres.body[k] == b.spheres.body[k - 1] ? within + 1 : 0;
        point_order_.push_back(
            order_[static_cast<std::size_t>(b.spheres.body[k])] * sphere_stride_ + within);
    }
    for (std::size_t k = 0; k < b.hulls.size(); ++k)
        point_order_.push_back(hull_offset_ + order_[static_cast<std::size_t>(b.hulls.body[k])]);
    return false;
}

std::unique_ptr<gravity::GravitySolver> RunRanks::make_gravity(const gravity::GravityConfig& c,
                                                               std::size_t n_bodies) {
    if (single()) return make_gravity_solver(c, n_bodies);
    // check_runs_over_ranks left direct, tree and none.
    switch (resolve_backend(c, n_bodies, false)) {
    case gravity::Backend::none:
        return std::make_unique<gravity::NoGravity>();
    case gravity::Backend::tree:
        return std::make_unique<gravity::TreeGravityOverRanks>(
            c.G, c.softening, c.theta, c.multipole_order, c.bucket_size, c.group_size, world_);
    default:
        return std::make_unique<gravity::DirectGravityOverRanks>(c.G, c.softening, world_,
                                                                 point_order_);
    }
}

void RunRanks::redistribute(Bodies& b) {
    // A position no longer finite stays where it is: the run driver's check after the step
    // then reports it as a serial run does (the step, the body, what the output keeps).
    bool finite = true;
    for (const Vec3& x : b.pos)
        finite = finite && x.allFinite();
    if (world_.max(finite ? 0 : 1) != 0) return;
    domain::redistribute(b, order_, world_);
}

std::unique_ptr<integrate::Stepper>
RunRanks::on_root(bool resolves_contacts,
                  const std::function<std::unique_ptr<integrate::Stepper>()>& make, bool spread,
                  const collisions::CollisionConfig* collisions) {
    if (single() || !resolves_contacts) return make();
    if (spread && collisions != nullptr)
        return std::make_unique<DriftOverRanks>(*collisions, *this, first() ? make() : nullptr);
    return std::make_unique<RootStepper>(first() ? make() : nullptr, *this);
}

Bodies RunRanks::gather_to_root(const Bodies& b) {
    return domain::gather_to_root(b, order_, world_);
}

void RunRanks::hold_on_root(Bodies& b, Bodies all) {
    if (first()) {
        b = std::move(all);
        order_.resize(b.size());
        std::iota(order_.begin(), order_.end(), std::int64_t{0});
    } else {
        b = b.select({});
        order_.clear();
    }
}

WholeState RunRanks::whole(const integrate::Simulation& sim) {
    if (single()) return {&sim.bodies(), &sim.potentials()};
    gathered_ = domain::gather_to_root(sim.bodies(), order_, world_);
    gathered_potentials_ = domain::gather_values_to_root(sim.potentials(), 1, order_, world_);
    if (!first()) return {};
    return {&gathered_, &gathered_potentials_};
}

std::vector<Vec3> RunRanks::whole_accelerations(const integrate::Simulation& sim) {
    const std::vector<Vec3>& acc = sim.accelerations();
    if (single()) return acc;
    std::vector<double> flat(3 * acc.size());
    for (std::size_t i = 0; i < acc.size(); ++i)
        for (int d = 0; d < 3; ++d)
            flat[3 * i + static_cast<std::size_t>(d)] = acc[i][d];
    const std::vector<double> all = domain::gather_values_to_root(flat, 3, order_, world_);
    std::vector<Vec3> out(all.size() / 3);
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = Vec3(all[3 * i], all[3 * i + 1], all[3 * i + 2]);
    return out;
}

RootStepper::RootStepper(std::unique_ptr<integrate::Stepper> inner, RunRanks& ranks)
    : inner_(std::move(inner)), ranks_(ranks) {}

std::string RootStepper::name() const {
    return inner_ ? inner_->name() : "contacts on rank 0";
}

std::string RootStepper::summary(const Bodies& b) const {
    return inner_ ? inner_->summary(b) : std::string();
}

integrate::StepStats RootStepper::advance(Bodies& b, double h, double t0, bool /*may_abandon*/) {
    Bodies all = ranks_.gather_to_root(b);
    integrate::StepStats stats;
    core::together(ranks_.world(), [&] {
        if (inner_) stats = inner_->advance(all, h, t0, false);
    });
    ranks_.hold_on_root(b, std::move(all));
    return stats;
}

void RootStepper::discard() {
    if (inner_) inner_->discard();
}

std::vector<integrate::ContactRecord> RootStepper::take_log() {
    return inner_ ? inner_->take_log() : std::vector<integrate::ContactRecord>{};
}

integrate::StepperState RootStepper::save_state() const {
    return inner_ ? inner_->save_state() : integrate::StepperState{};
}

void RootStepper::restore_state(const integrate::StepperState& s) {
    if (inner_) inner_->restore_state(s);
}

} // namespace rubble::run
