// SPDX-License-Identifier: MIT
#pragma once
// One run held open between its pieces: what run_simulation (run_driver.hpp) does from
// parameters to the end of a run, split where a caller that steers the run needs it (the
// Python module: run to a time, one step, look at the state, change it, go on). The
// constructor prepares the run and writes its first output (a new run's file, or the resumed
// file's continuation), advance*() run the loop of steps with its output cadence and stop
// conditions, and finish() ends the file and makes the closing report. Run in pieces or at
// once, the file is the same bit for bit: a piece ends between two steps and writes nothing
// that one uninterrupted loop would not.
//
// A session dropped before finish() leaves its file as a killed run does: incomplete and
// resumable from its last snapshot (the journal keeps every write whole).
//
// Over several ranks every method is collective (called by every rank alike), as
// run_simulation is; bodies() and replace_bodies() are for one rank only.
#include <cstdint>
#include <memory>
#include <string>

#include "rubble/core/bodies.hpp"
#include "rubble/core/communicator.hpp"
#include "rubble/run/run_driver.hpp"

namespace rubble::run {

class Session {
public:
    /// Prepares `request` (its checks, the start-up report, the first write of the output).
    /// `observer` and `world` must outlive the session. Throws as run_simulation does.
    Session(const RunRequest& request, RunObserver& observer,
            core::Communicator& world = core::serial_communicator());
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    /// Runs up to `steps` more steps; returns whether the run can go on (it has not reached
    /// its end, settled, stopped after RunRequest::stop_after or been interrupted).
    bool advance(std::int64_t steps);
    /// Runs the steps up to the first one whose time reaches `t` (s; as integrator.t_end
    /// counts steps), at most to the run's end; returns as advance() does.
    bool advance_to(double t);
    /// Runs to the end of the run, a stop or an interruption.
    void advance_to_end();
    /// Whether more steps can be run (false once the loop ended, or after finish()).
    [[nodiscard]] bool running() const;

    [[nodiscard]] std::int64_t step() const;     ///< steps since the run's start
    [[nodiscard]] double time() const;           ///< s
    [[nodiscard]] std::int64_t end_step() const; ///< where integrator.t_end / n_steps end it
    [[nodiscard]] double dt() const;             ///< s
    /// The run file.
    [[nodiscard]] const std::string& output() const;

    /// The bodies now (one rank only): valid until the next call that changes them.
    [[nodiscard]] const Bodies& bodies() const;
    /// Replaces the bodies between two steps (one rank only): checked as an initial state is
    /// (ic::validate_bodies, clear of the walls and fixed hulls; errors name `origin`), the
    /// forces recomputed and the stepper's memory of the previous state dropped (as after
    /// an abandoned advance), and a snapshot of the new state written at once at the current
    /// step (after the one the run wrote there, if any), so that a resumed run starts from it.
    /// The energy error is still measured against the run's first state, so it shows the
    /// change.
    void replace_bodies(Bodies bodies, const std::string& origin);

    /// Ends the run: a run at its end (or settled) is marked complete; one that can still go
    /// on gets a snapshot of its current state, if it has none, and stays resumable (as after
    /// RunRequest::stop_after). Makes the closing report. Once only.
    RunResult finish();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace rubble::run
