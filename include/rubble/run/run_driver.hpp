// SPDX-License-Identifier: MIT
#pragma once
// The run driver: one simulation from its parameters (or from the file of an interrupted run)
// to its end, with the output, the diagnostics, the stop conditions and resume. It owns the
// loop of a run: steps, output cadence (snapshots, diagnostics rows, the contact log), stop
// conditions (end time, settled, --stop-after, a stop request by a signal), the checks that
// keep a bad state out of the file, and the report. `rubble run` and `rubble campaign` are
// thin callers of run_simulation; run_simulation is a run::Session (session.hpp) taken to its
// end at once, and the Python module holds a session open between the pieces it runs.
//
// What a caller sees of a run comes through a RunObserver: the lines of the start-up and
// closing report, warnings, a progress call after every step, and the moment just before
// the first write (from which on a signal must stop the run resumably instead of ending it:
// cli/interrupt.hpp). Whatever is specific to a stepper in the report (how it treats
// contacts) comes from the stepper (integrate::Stepper::summary).
//
// Errors are exceptions (core/error.hpp): InputError for bad parameters or files, PhysicsError
// for a state that is no longer finite, IoError for a failed write; each says what the output
// still holds and how to continue.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rubble/config/parameters.hpp"
#include "rubble/core/communicator.hpp"

namespace rubble::run {

/// What to run: a new run from parameters (a parameter file, or a ParameterSet made by the
/// caller), or the continuation of a run file.
struct RunRequest {
    std::string params_path; ///< TOML parameter file (empty with resume_path)
    std::string resume_path; ///< run file to continue (empty for a new run)
    /// Keys set on top of the parameters, with where they came from in messages
    /// ("--integrator.dt"); a resumed run may change only integrator.t_end and n_steps.
    std::vector<std::pair<std::string, std::string>> overrides;
    /// Where the overrides came from, for messages ("python": "python (KEY)"); empty: the
    /// command line ("command line (--KEY)").
    std::string overrides_from;
    std::int64_t stop_after = 0; ///< stop resumably after this many steps (0: run to the end)
    /// A new run from these parameters instead of params_path's file (`rubble campaign`);
    /// params_path then names where they came from, for messages and the output-file checks.
    std::optional<config::ParameterSet> params;
    /// Over several ranks: each rank's time in the steps split into computation,
    /// communication and waiting for the other ranks, reported at the end
    /// (core/timed_communicator.hpp; `rubble run --rank-timings`). Changes no result.
    bool rank_timings = false;
};

/// How a run ended.
enum class RunEnd {
    end_time,         ///< reached integrator.t_end / n_steps: the file is complete
    settled,          ///< stopped as settled (stop.settled_window): the file is complete
    already_complete, ///< a resumed file that had nothing left to run
    stopped,          ///< stop_after steps done: the file is resumable
    interrupted,      ///< a stop request (rubble/core/stop_request.hpp): the file is resumable
};

struct RunResult {
    RunEnd end = RunEnd::end_time;
    std::string output;          ///< the run file
    std::int64_t last_step = 0;  ///< step of the last state written
    double time = 0.0;           ///< s, of the last state written
    double energy_error = 0.0;   ///< |dE/E| at the last diagnostics row
    double momentum_error = 0.0; ///< |dL/L| at the last diagnostics row
};

/// The run's progress after one step, for progress lines.
struct StepProgress {
    std::int64_t step = 0;
    std::int64_t first_step = 0; ///< where this invocation started (resumed runs: later than 0)
    std::int64_t last_step = 0;  ///< the step the run ends at
    double time = 0.0;           ///< s
    double energy_error = 0.0;   ///< |dE/E| at the latest diagnostics row
    double collisions = -1.0;    ///< contacts resolved so far in the run; -1: no contacts
};

/// What a caller sees of a run. Every method has an empty default.
class RunObserver {
public:
    virtual ~RunObserver() = default;
    /// One line of the report (start-up summary, resume, closing numbers), without newline.
    virtual void report(std::string_view /*line*/) {}
    /// A warning about the parameters or the file, without newline.
    virtual void warn(std::string_view /*line*/) {}
    /// Just before the run's first write to its output: from here on an interruption must
    /// leave a resumable file, so a stop should be requested rather than the process ended.
    virtual void output_begins() {}
    /// Before the first step of the loop, with where it starts and ends.
    virtual void loop_begins(const StepProgress& /*at_start*/) {}
    /// After each step of the loop.
    virtual void step_done(const StepProgress& /*progress*/) {}
    /// After the last step of the loop, before the closing report.
    virtual void loop_done() {}
};

/// Runs `request` to its end, a stop or an interruption; see RunEnd for what the file then
/// is. Throws InputError, PhysicsError and IoError (core/error.hpp).
RunResult run_simulation(const RunRequest& request, RunObserver& observer);

/// The same run over the ranks of `world` (run_ranks.hpp says what runs over several ranks
/// so far), called by every rank alike: rank 0 reads the input and writes the one run file,
/// the same file, bit for bit, as the serial run writes, and `observer` hears the report
/// and progress on rank 0 only (every rank hears output_begins). An error on any rank is
/// thrown on every rank (core/rank_errors.hpp), so all leave together; the result's end,
/// step and time are every rank's, its energy and momentum errors rank 0's.
RunResult run_simulation(const RunRequest& request, RunObserver& observer,
                         core::Communicator& world);

} // namespace rubble::run
