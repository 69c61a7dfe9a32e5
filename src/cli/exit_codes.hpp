// SPDX-License-Identifier: MIT
#pragma once
// The command line's exit codes (cli.hpp) and the one place that turns errors into them.
#include <exception>
#include <ostream>
#include <string>

#include "rubble/cli/interrupt.hpp"
#include "rubble/core/communicator.hpp"
#include "rubble/core/error.hpp"

namespace rubble::cli {

/// Runs `command` (returning an exit code) and turns its errors into the exit code, 2 bad
/// input, 1 a failed write or an internal error, 3 a state no longer finite, and the line
/// that says so, "error: " + `prefix` + what (empty when there was no error).
template <class Command>
int capture_errors(Command&& command, std::string& line, const std::string& prefix = "") {
    const auto fail = [&](const char* kind, const std::exception& e, int code) {
        line = kind + prefix + e.what();
        return code;
    };
    try {
        return command();
    } catch (const InputError& e) {
        return fail("error: ", e, 2);
    } catch (const IoError& e) {
        return fail("error: ", e, 1);
    } catch (const PhysicsError& e) {
        return fail("error: ", e, 3);
    } catch (const std::exception& e) {
        return fail("internal error: ", e, 1);
    }
}

/// capture_errors, printing the line on `err` where `print` is (rank 0, for an error that
/// every rank meets alike).
template <class Command>
int guarded(Command&& command, std::ostream& err, bool print, const std::string& prefix = "") {
    std::string line;
    const int code = capture_errors(command, line, prefix);
    if (print && !line.empty()) err << line << "\n";
    return code;
}

/// The exit code of a job from its ranks' codes: an error (1, 2, 3) before an interruption
/// (130) before success. Codes map to ranks that a maximum over the ranks keeps
/// (core::Communicator::max), and back.
[[nodiscard]] inline int exit_code_rank(int code) {
    return code == 0 ? 0 : code == interrupted_exit_code ? 1 : 2 + code;
}
[[nodiscard]] inline int exit_code_of_rank(int rank) {
    return rank == 0 ? 0 : rank == 1 ? interrupted_exit_code : rank - 2;
}
/// The job's exit code from this rank's: collective, the same on every rank.
[[nodiscard]] inline int job_exit_code(core::Communicator& world, int code) {
    return exit_code_of_rank(static_cast<int>(world.max(exit_code_rank(code))));
}

} // namespace rubble::cli
