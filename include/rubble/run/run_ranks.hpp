// SPDX-License-Identifier: MIT
#pragma once
// One run over the ranks of a job (issue 34; docs/plans/mpi-distributed-runs.md, sections 1,
// 2 and 4): what the run driver (run_driver.hpp) needs to know of ranks, and nothing it needs
// on one rank. Rank 0 prepares the run (parameters, initial conditions, or the snapshot of an
// interrupted run), deals the bodies out to the domains, and alone writes the run file; each
// rank steps its own bodies; a copy of the whole state is gathered to rank 0, rows in the
// serial order, for every diagnostics row and snapshot, so the file is the serial run's.
// On one rank (P = 1, serial or `mpirun -np 1`) every call here is the identity and copies
// nothing: the serial run is this code with P = 1.
//
// What runs over several ranks so far: every grain model (free spheres, aggregates,
// polyhedra); gravity by direct summation (bit for bit the serial forces,
// gravity/distributed_direct.hpp), the tree (locally essential trees,
// gravity/distributed_tree.hpp) or none; the drift of free spheres that bounce, spread over
// the ranks (drift_over_ranks.hpp: the serial run's collisions, bit for bit); every other
// contact with the serial stepper (event-driven or NSC) on rank 0 over the whole state
// gathered there (on_root: the serial run's contacts, bit for bit, not spread over the ranks).
// check_runs_over_ranks refuses the GPU backends.
//
// The domains follow the bodies: after every drift, before the forces, the bodies are
// decomposed afresh (equal shares of weight along the Morton curve of where they are now) and
// move to their domain's rank (redistribute), so that each rank's bodies stay compact as a
// cloud collapses, its essential trees small and its share of the work even. With the tree a
// body weighs its interactions in the last evaluation of the forces; otherwise each counts as
// one. The decomposition is a function of the state (positions and those counts, which every
// snapshot stores), never of timings, so a run resumed over the same number of ranks continues
// bit for bit (with the tree; with direct summation the forces do not depend on it at all).
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "rubble/collisions/collision_config.hpp"
#include "rubble/config/parameters.hpp"
#include "rubble/config/run_config.hpp"
#include "rubble/core/bodies.hpp"
#include "rubble/core/communicator.hpp"
#include "rubble/gravity/gravity_solver.hpp"
#include "rubble/integrate/simulation.hpp"

namespace rubble::run {

/// Refuses, naming the key and its source, what cannot yet run over `ranks` > 1 ranks: the
/// GPU backends. `bodies` are all the run's bodies.
void check_runs_over_ranks(const config::ParameterSet& p, const config::RunConfig& c,
                           const Bodies& bodies, int ranks);

/// The whole state on rank 0, rows in serial order: the bodies and their potentials (J/kg).
struct WholeState {
    const Bodies* bodies = nullptr;
    const std::vector<double>* potentials = nullptr;
    /// The weights by which the bodies were decomposed for the forces, when those depend on
    /// the decomposition (the tree over ranks) and it was weighed; else null. Stored with each
    /// snapshot (runfile::RunFile::write_snapshot) and given back to scatter on resume.
    const std::vector<std::int64_t>* weights = nullptr;
};

class RunRanks {
public:
    explicit RunRanks(core::Communicator& world) : world_(world) {}
    // Steppers, solvers and the simulation's rules hold references into it.
    RunRanks(const RunRanks&) = delete;
    RunRanks& operator=(const RunRanks&) = delete;
    [[nodiscard]] core::Communicator& world() { return world_; }
    [[nodiscard]] bool single() const { return world_.size() == 1; }
    /// Rank 0: prepares, reports, writes.
    [[nodiscard]] bool first() const { return world_.rank() == 0; }

    /// True on every rank when `local` is true on any. Collective (none on one rank).
    [[nodiscard]] bool any(bool local) { return single() ? local : world_.max(local ? 1 : 0) != 0; }

    /// Deals rank 0's bodies (all of the run's, in serial order) out to the domains and keeps
    /// each local body's place in the serial order. Collective. On one rank: nothing moves.
    /// `weights` (rank 0's, one per body; a resumed snapshot's WholeState::weights) weigh
    /// the decomposition; without, each body counts as one.
    void scatter(Bodies& b, std::vector<std::int64_t> weights = {});
    /// Decomposes the bodies of all ranks afresh by where they are and moves each to its
    /// domain's rank with its place in the serial order (rows stay in serial order).
    /// Collective; a Simulation calls it between the drift and the forces. With the tree,
    /// each body weighs its measured cost in the last evaluation of the forces (its
    /// interactions: note_costs), so that the ranks share the work as a cloud collapses
    /// (issue 34, item 2); else each body counts as one (direct summation costs the same for
    /// every body). The weights are a function of the state, never of timings, and go with
    /// the snapshots, so that a run resumed over the same ranks continues bit for bit.
    void redistribute(Bodies& b);
    /// The tree's measured cost of each of this rank's mass points in the last evaluation of
    /// the forces (the points gravity_at_centres laid out).
    void note_costs(std::span<const std::int64_t> point_cost);
    /// Each of this rank's bodies' cost in the last evaluation of the forces, rows as the
    /// bodies' (empty when none was measured since the last redistribution, or the forces do
    /// not depend on the decomposition).
    [[nodiscard]] const std::vector<std::int64_t>& costs() const { return cost_; }
    /// Each local body's place in the serial order (valid after scatter).
    [[nodiscard]] const std::vector<std::int64_t>& order() const { return order_; }

    /// The run's gravity solver (gravity.backend resolved for `n_bodies` bodies in all): on one
    /// rank run::make_gravity_solver's, over several the solver over ranks, which reads the
    /// mass points' places in the serial order that gravity_at_centres sets.
    [[nodiscard]] std::unique_ptr<gravity::GravitySolver>
    make_gravity(const gravity::GravityConfig& config, std::size_t n_bodies);

    /// The run's stepper over the ranks, `make()`'s: on one rank, or without contacts, itself
    /// (every rank makes one); with contacts over several ranks, a stepper that gathers the
    /// bodies to rank 0 in serial order, advances them there with the stepper `make()` made
    /// on rank 0 (rank 0 alone calls it: it holds every body then), and leaves them on rank 0,
    /// for the redistribution that follows every drift to deal out again. Rank 0's stepper
    /// thus sees the serial run's bodies in the serial run's rows at every step. Its
    /// advances are never abandoned part-way: a stop request takes effect after the step.
    /// With `spread` (free spheres whose drift spreads over ranks, drift_over_ranks.hpp: the
    /// same on every rank), the drift runs over the ranks instead, with `make()`'s stepper on
    /// rank 0 for the drifts it cannot spread (collisions config `collisions`).
    [[nodiscard]] std::unique_ptr<integrate::Stepper>
    on_root(bool resolves_contacts,
            const std::function<std::unique_ptr<integrate::Stepper>()>& make, bool spread = false,
            const collisions::CollisionConfig* collisions = nullptr);

    /// integrate::Simulation's rule over ranks: whether gravity acts at the centres of the
    /// bodies of all ranks (always when `always`, gravity.aggregates = "centres"; else
    /// Bodies::gravity_at_centres of the whole state, the serial run's choice), and the places
    /// of this rank's mass points in the serial run's order of mass points for the direct sum:
    /// bodies in order at their centres; else every sphere, in body order, then every hull.
    /// Collective.
    [[nodiscard]] bool gravity_at_centres(const Bodies& b, bool always = false);

    /// The whole state on rank 0 (on one rank: sim's own, no copy). Collective. The pointers
    /// stay valid until the next call; on ranks other than 0 they are null.
    [[nodiscard]] WholeState whole(const integrate::Simulation& sim);
    /// A copy of every body on rank 0 in serial order (empty elsewhere). Collective.
    [[nodiscard]] Bodies gather_to_root(const Bodies& b);
    /// Leaves `all` (rank 0's whole state, rows in serial order) as this rank's bodies on rank
    /// 0 and none elsewhere, the serial order with it: what redistribute deals out.
    void hold_on_root(Bodies& b, Bodies all);

    /// Accelerations of every body on rank 0, in serial order (on one rank: sim's own).
    /// Collective; empty on the other ranks.
    [[nodiscard]] std::vector<Vec3> whole_accelerations(const integrate::Simulation& sim);

private:
    /// Whether the forces depend on the decomposition and every rank holds each of its
    /// bodies' measured cost (rows as b's). Collective.
    [[nodiscard]] bool costs_known(const Bodies& b);

    core::Communicator& world_;
    std::vector<std::int64_t> order_;
    // Keys of the mass points in the serial order: a body's sphere k is order * sphere_stride
    // + k (no body has more spheres than the run had in all), a hull hull_offset + order.
    std::vector<std::int64_t> point_order_;
    std::int64_t sphere_stride_ = 1, hull_offset_ = 0;
    std::vector<std::int64_t> point_row_; // each mass point's body row (empty: at the centres)
    std::size_t rows_at_points_ = 0;      // bodies when the points were laid out
    bool weighs_by_cost_ = false;         // the tree: forces depend on the decomposition
    std::vector<std::int64_t> cost_;      // per row: measured in the last force evaluation
    std::vector<std::int64_t> weight_;    // per row: what the current decomposition weighed
    std::vector<std::pair<std::int64_t, std::int64_t>> gathered_costs_; // (id, cost), rank 0
    Bodies gathered_;
    std::vector<double> gathered_potentials_;
    std::vector<std::int64_t> gathered_weights_;
};

/// RunRanks::on_root's stepper (see there): every body gathered to rank 0 in serial order,
/// advanced there by the serial stepper `inner` (rank 0's alone: the other ranks hold no
/// bodies when it is made, and some steppers refuse what they would not get, hull walls with no
/// polyhedra), and left there for the redistribution that follows every drift. Its advances
/// are never abandoned part-way. Every call forwards to `inner` on rank 0.
class RootStepper final : public integrate::Stepper {
public:
    RootStepper(std::unique_ptr<integrate::Stepper> inner, RunRanks& ranks);
    [[nodiscard]] std::string name() const override;
    [[nodiscard]] bool resolves_contacts() const override { return true; }
    [[nodiscard]] std::string summary(const Bodies& b) const override;
    /// Collective.
    integrate::StepStats advance(Bodies& b, double h, double t0, bool may_abandon) override;
    void discard() override;
    /// Rank 0's log (empty elsewhere).
    [[nodiscard]] std::vector<integrate::ContactRecord> take_log() override;
    [[nodiscard]] integrate::StepperState save_state() const override;
    void restore_state(const integrate::StepperState& s) override;

private:
    std::unique_ptr<integrate::Stepper> inner_; ///< rank 0's; null on the others
    RunRanks& ranks_;
};

} // namespace rubble::run
