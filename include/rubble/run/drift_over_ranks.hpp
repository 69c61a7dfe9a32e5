// SPDX-License-Identifier: MIT
#pragma once
// The event-driven drift of free spheres spread over the ranks of a run (issue 34, item 4;
// docs/plans/mpi-distributed-runs.md, section 3; docs/mpi.md): each rank drifts its own
// bodies with the serial engine (collisions/event_drift.hpp), beside ghosts, copies of the
// other ranks' bodies that may meet its own, and the collisions come out as the serial run's,
// bit for bit.
//
// Hard spheres have no lookahead: in a dense pile a collision is passed on across a sphere's
// diameter in no time, so no bound on speeds tells a rank how long its bodies are safe from
// another rank's. The drift is therefore found as a fixed point (a waveform relaxation of the
// event-driven drift): each rank drifts its bodies with its ghosts moving as their owners said
// in the previous round (GhostedDrift: a ghost changes only by its owner's word, applied at
// the time of the change after every collision at that time), then sends each rank the
// changes of the bodies it holds as ghosts there, and the bodies whose paths came within reach
// of that rank's bodies' paths (the boxes swept by them); the ranks repeat until no rank
// receives anything it did not have in the previous round. Round k's drift is exact up to the
// first time at which what it was told is wrong, and a rank's own bodies are then exact up to
// that time inclusive, so each round moves the earliest error later: the rounds end, and
// their fixed point is the serial drift (by induction on the event times; every pair's
// prediction is made from the same two states as in the serial run, in the serial order of
// the pair, since every rank keeps its rows in the serial order). A gas needs a few rounds; a
// dense pile cut by domain boundaries needs about as many as chains of collisions cross them,
// so a drift that took many rounds makes the next one be cut into windows (max_windows), whose
// fixed points are found one after the other: a round then re-drifts a window, and the chains
// within one window are shorter.
// Walls are the same on every rank: a body's wall contacts are its owner's alone, and reach
// the ranks that hold it as a ghost as its changes. In a periodic box a body is another rank's
// ghost when an image of its path comes within reach of that rank's paths.
//
// What the spread drift does not handle, it hands to the serial engine on rank 0 over the
// gathered state (the stepping stone that was: RunRanks::on_root), for that drift only:
// bodies that overlap each other or a wall at its start (the overlap strategies act on the
// whole state), and
// drifts whose window takes more than max_rounds rounds. A rank's drift that throws (told
// wrong changes, its ghosts can do what no body did) says what its bodies did before the
// failure and the rounds go on; one that keeps throwing ends at max_rounds, and the serial
// engine on rank 0 then throws what the serial run throws, if anything. Either way the result
// is the serial run's.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rubble/collisions/collision_config.hpp"
#include "rubble/core/bodies.hpp"
#include "rubble/integrate/stepper.hpp"
#include "rubble/run/run_ranks.hpp"

namespace rubble::run {

/// True when the drift with `config` of bodies that are `all_free_spheres` can be spread over
/// ranks: spheres that bounce (no merging, no sticking) in the event-driven drift (not
/// collisions.stepper = "nsc", which runs on the first rank), with walls or none, in an open or
/// a periodic box.
[[nodiscard]] bool drift_spreads_over_ranks(const collisions::CollisionConfig& config,
                                            bool all_free_spheres);

class DriftOverRanks final : public integrate::Stepper {
public:
    /// Rounds of one drift before it is handed to rank 0 (each round drifts every rank's
    /// bodies once).
    static constexpr int max_rounds = 32;
    /// The most windows a drift is cut into. The ranks find the fixed point over one window
    /// at a time (a round drifts to the window's end, from the last copy of the engine made
    /// at or before the first change it was told differently), so that a round re-drifts a
    /// window, not the drift, and the chains of collisions across domains that set the number
    /// of rounds are cut short; but each window takes a round more at least, and a copy of the
    /// engine. The number of windows follows the rounds: doubled after a drift that took more
    /// than 5 rounds per window (or was handed to rank 0 for its rounds), halved after one of
    /// fewer than 3. The result does not depend on it, only the speed.
    static constexpr int max_windows = 8;

    /// Which drifts are spread: those that are faster spread than on rank 0 (`adaptive`: the
    /// slowest rank's wall time of each kind of drift, a running mean, each tried again every
    /// probe_every drifts), or all (`spread`). Both give the serial drift bit for bit, so the
    /// choice changes the run's speed, never its results.
    enum class Placement { adaptive, spread };
    static constexpr std::int64_t probe_every = 16;

    /// `on_root`: rank 0's serial engine for the drifts handed to it (null on other ranks).
    DriftOverRanks(const collisions::CollisionConfig& config, RunRanks& ranks,
                   std::unique_ptr<integrate::Stepper> on_root,
                   Placement placement = Placement::adaptive);

    [[nodiscard]] std::string name() const override { return "event-driven"; }
    [[nodiscard]] bool resolves_contacts() const override { return true; }
    [[nodiscard]] std::string summary(const Bodies& b) const override;
    /// Collective. On rank 0 the statistics are the run's (the ranks' collisions added); the
    /// work counters say how many rounds the drift took ("rounds", 0 when rank 0 did it) and
    /// how many ghosts all ranks held in its last round ("ghosts").
    integrate::StepStats advance(Bodies& b, double h, double t0, bool may_abandon) override;
    void discard() override;
    /// The collision log of the drifts since the last call, on rank 0 (empty elsewhere), in
    /// the serial run's order.
    [[nodiscard]] std::vector<integrate::ContactRecord> take_log() override;
    [[nodiscard]] integrate::StepperState save_state() const override;
    void restore_state(const integrate::StepperState& s) override;

    /// Drifts so far spread over the ranks, and handed to rank 0.
    [[nodiscard]] std::int64_t spread_drifts() const { return spread_; }
    [[nodiscard]] std::int64_t drifts_on_root() const { return on_root_drifts_; }
    /// Rounds in which a rank's drift threw (each rank's counted), so far.
    [[nodiscard]] std::int64_t failed_rounds() const { return failed_rounds_; }
    /// Windows the next spread drift is cut into.
    [[nodiscard]] int windows() const { return windows_; }

private:
    /// The drift spread over the ranks; false (on every rank) when it must go to rank 0,
    /// `b` then untouched.
    bool drift_spread(Bodies& b, double h, double t0, integrate::StepStats& stats);
    integrate::StepStats drift_on_root(Bodies& b, double h, double t0);
    /// Whether this drift is spread (Placement); the same on every rank.
    bool choose_spread();
    /// Folds the slowest rank's seconds since `start` into `estimate`. Collective.
    void note_seconds(double& estimate, std::chrono::steady_clock::time_point start);

    collisions::CollisionConfig config_;
    RunRanks& ranks_;
    RootStepper root_; ///< the drifts handed to rank 0
    std::vector<integrate::ContactRecord> log_;
    Placement placement_;
    std::int64_t spread_ = 0, on_root_drifts_ = 0, drifts_ = 0, failed_rounds_ = 0;
    double spread_seconds_ = -1.0, root_seconds_ = -1.0; // s per drift (< 0: not yet measured)
    int windows_ = 1;
};

} // namespace rubble::run
