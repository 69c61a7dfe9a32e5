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

// The tree over ranks, noting each body's measured cost after every evaluation (RunRanks::
// note_costs): the weights of the next decomposition.
class CostNotingTree final : public gravity::GravitySolver {
public:
    CostNotingTree(std::unique_ptr<gravity::TreeGravityOverRanks> tree, RunRanks& ranks)
        : tree_(std::move(tree)), ranks_(ranks) {}
    void compute(std::span<const Vec3> pos, std::span<const double> mass, std::span<Vec3> acc,
                 std::span<double> potential) override {
        tree_->compute(pos, mass, acc, potential);
        ranks_.note_costs(tree_->point_interactions());
    }
    [[nodiscard]] std::string name() const override { return tree_->name(); }

private:
    std::unique_ptr<gravity::TreeGravityOverRanks> tree_;
    RunRanks& ranks_;
};

} // namespace

void check_runs_over_ranks(const config::ParameterSet& p, const config::RunConfig& c,
                           const Bodies& bodies, int ranks) {
    if (ranks <= 1) return;
    const gravity::Backend b = resolve_backend(c.gravity, bodies.size(), false);
    if (b == gravity::Backend::gpu_direct || b == gravity::Backend::gpu_tree)
        throw p.error("gravity.backend",
                      std::string("the GPU backends (one GPU per rank)") + not_yet);
}

void RunRanks::scatter(Bodies& b, std::vector<std::int64_t> weights) {
    if (single()) {
        order_.resize(b.size());
        std::iota(order_.begin(), order_.end(), std::int64_t{0});
        return;
    }
    if (world_.max(weights.size() == b.size() && !weights.empty() ? 1 : 0) != 0) {
        weight_ = std::move(weights);
        weight_.resize(b.size(), 1); // (a rank without bodies)
        order_ = domain::scatter_from_root(b, world_, &weight_);
    } else {
        weight_.clear();
        order_ = domain::scatter_from_root(b, world_);
    }
    // Bodies and spheres only ever become fewer (merges; sticking joins spheres), so the
    // totals of the start bound the keys for the whole run.
    sphere_stride_ =
        std::max<std::int64_t>(1, world_.sum(static_cast<std::int64_t>(b.spheres.size())));
    hull_offset_ = world_.sum(static_cast<std::int64_t>(b.size())) * sphere_stride_;
}

bool RunRanks::gravity_at_centres(const Bodies& b, bool always) {
    // Bodies::gravity_at_centres of the whole state: every body a hull (and no spheres), or
    // every body a free sphere; each holds on all ranks when it holds on each (an empty rank
    // is neither against), but "one or the other on every rank" is not "one on all".
    std::vector<std::int64_t> against{b.spheres.size() == 0 && b.hulls.size() == b.size() ? 0 : 1,
                                      b.all_free_spheres() ? 0 : 1};
    world_.max_in_place(against);
    const bool centres = always || against[0] == 0 || against[1] == 0;
    point_order_.clear();
    point_row_.clear();
    rows_at_points_ = b.size();
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
        point_row_.push_back(b.spheres.body[k]);
    }
    for (std::size_t k = 0; k < b.hulls.size(); ++k) {
        point_order_.push_back(hull_offset_ + order_[static_cast<std::size_t>(b.hulls.body[k])]);
        point_row_.push_back(b.hulls.body[k]);
    }
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
        // Its forces depend on the decomposition: weighed by the measured cost, which then
        // goes with every snapshot (WholeState::weights) for a resumed run to continue bitwise.
        weighs_by_cost_ = true;
        return std::make_unique<CostNotingTree>(
            std::make_unique<gravity::TreeGravityOverRanks>(
                c.G, c.softening, c.theta, c.multipole_order, c.bucket_size, c.group_size, world_),
            *this);
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
    // Weighed by each body's cost in the last evaluation of the forces (note_costs) when the
    // forces depend on the decomposition and every rank has its bodies' costs; else by count.
    if (costs_known(b)) {
        domain::redistribute(b, order_, world_, &cost_);
        weight_ = std::move(cost_);
    } else {
        domain::redistribute(b, order_, world_);
        weight_.clear();
    }
    cost_.clear();
}

bool RunRanks::costs_known(const Bodies& b) {
    return world_.max(weighs_by_cost_ && cost_.size() == b.size() ? 0 : 1) == 0;
}

void RunRanks::note_costs(std::span<const std::int64_t> point_cost) {
    // Each body's cost: the sum over its mass points (one per body at the centres).
    cost_.assign(rows_at_points_, 0);
    if (point_row_.empty()) {
        if (point_cost.size() == cost_.size())
            std::copy(point_cost.begin(), point_cost.end(), cost_.begin());
        else
            cost_.clear();
        return;
    }
    if (point_cost.size() != point_row_.size()) {
        cost_.clear();
        return;
    }
    for (std::size_t k = 0; k < point_cost.size(); ++k)
        cost_[static_cast<std::size_t>(point_row_[k])] += point_cost[k];
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
    // The measured costs go with the bodies (for the redistribution after the drift), by id:
    // the drift on rank 0 may merge bodies.
    gathered_costs_.clear();
    if (!costs_known(b)) {
        cost_.clear();
        return domain::gather_to_root(b, order_, world_);
    }
    Bodies all = domain::gather_to_root(b, order_, world_, &cost_);
    for (std::size_t k = 0; k < all.size(); ++k)
        gathered_costs_.emplace_back(all.id[k], cost_[k]);
    std::sort(gathered_costs_.begin(), gathered_costs_.end());
    cost_.clear();
    return all;
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
    // Each body's cost found by its id (a body made by a merge keeps one of its parts' ids).
    if (world_.max(gathered_costs_.empty() ? 0 : 1) == 0) return;
    cost_.assign(b.size(), 1);
    for (std::size_t k = 0; k < b.size(); ++k) {
        const auto at = std::lower_bound(gathered_costs_.begin(), gathered_costs_.end(),
                                         std::pair<std::int64_t, std::int64_t>(b.id[k], 0));
        if (at != gathered_costs_.end() && at->first == b.id[k]) cost_[k] = at->second;
    }
    gathered_costs_.clear();
}

WholeState RunRanks::whole(const integrate::Simulation& sim) {
    if (single()) return {&sim.bodies(), &sim.potentials()};
    // With the bodies, the weights of the decomposition the forces were found in, if weighed.
    std::vector<std::int64_t> against{weight_.size() == sim.bodies().size() ? 0 : 1,
                                      weight_.empty() ? 0 : 1};
    world_.max_in_place(against);
    const bool weighed = against[0] == 0 && against[1] != 0;
    gathered_weights_ = weighed ? weight_ : std::vector<std::int64_t>{};
    gathered_ = domain::gather_to_root(sim.bodies(), order_, world_,
                                       weighed ? &gathered_weights_ : nullptr);
    gathered_potentials_ = domain::gather_values_to_root(sim.potentials(), 1, order_, world_);
    if (!first()) return {};
    return {&gathered_, &gathered_potentials_, weighed ? &gathered_weights_ : nullptr};
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
