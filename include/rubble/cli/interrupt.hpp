// SPDX-License-Identifier: MIT
#pragma once
// SIGINT and SIGTERM for a run. Batch schedulers send SIGTERM and kill soon after, so a signal
// must be acted on within seconds wherever the run is:
//  - while the run is being set up (parameters, initial conditions, first forces), nothing
//    has been written yet and there is nothing to save: the run ends at once, with a message;
//  - once the output exists (after defer()), the first signal asks the run to stop
//    (rubble::request_stop): the run stops after the step in progress, or abandons and undoes
//    it in the middle of a long drift (integrate::Simulation::step), writes a snapshot, and
//    the file resumes to bitwise the same run. A second signal ends the run at once.
#include <csignal>

namespace rubble::cli {

/// Exit status of a run ended by a signal (128 + SIGINT, as shells report it).
inline constexpr int interrupted_exit_code = 130;

/// Installs the handlers for the lifetime of the guard and restores the previous ones after.
/// Guards nest: `rubble campaign` guards the whole campaign, deferred, so that a signal
/// between two runs, or while other ranks finish, stops the campaign resumably; each run's own
/// guard then starts undeferred (its set-up) and gives the campaign's mode back when it ends.
/// The outermost guard clears an earlier stop request; a nested one keeps it, so that a
/// signal just before a run starts stops that run at its first step.
class InterruptGuard {
public:
    InterruptGuard();
    ~InterruptGuard();
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;
    /// From now on the first signal only requests a stop; the second ends the run at once.
    void defer();

private:
    struct sigaction previous_int_ {};
    struct sigaction previous_term_ {};
    int previous_deferred_ = 0;
    bool outermost_ = true;
};

} // namespace rubble::cli
