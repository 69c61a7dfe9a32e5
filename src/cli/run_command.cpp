// SPDX-License-Identifier: MIT
#include "run_command.hpp"

#include <optional>
#include <unistd.h>

#include "progress.hpp"
#include "rubble/cli/interrupt.hpp"

namespace rubble::cli {
namespace {

// The run's report on `out`, its warnings and progress line on `err`, and the signal guard
// deferred once the output is about to exist.
class TextObserver final : public run::RunObserver {
public:
    TextObserver(const RunOptions& o, std::ostream& out, std::ostream& err, InterruptGuard& guard)
        : options_(o), out_(out), err_(err), guard_(guard) {}

    void report(std::string_view line) override { out_ << line << "\n"; }
    void warn(std::string_view line) override { err_ << line << "\n"; }
    void output_begins() override { guard_.defer(); }
    void loop_begins(const run::StepProgress& at) override {
        progress_.emplace(err_, !options_.quiet, isatty(STDERR_FILENO) == 1, at.first_step,
                          at.last_step, options_.progress_prefix);
    }
    void step_done(const run::StepProgress& p) override {
        progress_->update(p.step, p.time, p.energy_error, p.collisions);
    }
    void loop_done() override { progress_->finish(); }

private:
    const RunOptions& options_;
    std::ostream& out_;
    std::ostream& err_;
    InterruptGuard& guard_;
    std::optional<Progress> progress_;
};

} // namespace

int run_command(const RunOptions& o, std::ostream& out, std::ostream& err,
                core::Communicator& world) {
    // Signals end the set-up at once (nothing written yet); from the first write on they stop
    // the run resumably (interrupt.hpp).
    InterruptGuard guard;
    TextObserver observer(o, out, err, guard);
    const run::RunResult r = run::run_simulation(o.request, observer, world);
    return r.end == run::RunEnd::interrupted ? interrupted_exit_code : 0;
}

} // namespace rubble::cli
