// SPDX-License-Identifier: MIT
#pragma once
// `rubble run`: parameters -> initial state -> leapfrog loop with output, progress and
// resumable stops. All HDF5 and text handling of a run lives here and in src/io.
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "rubble/io/parameters.hpp"

namespace rubble::cli {

struct RunOptions {
    std::string params_path; ///< TOML parameter file (empty with --resume)
    std::string resume_path; ///< rubble output to continue (empty for a new run)
    std::vector<std::pair<std::string, std::string>> overrides; ///< key, text from the command line
    std::int64_t stop_after = 0; ///< stop resumably after this many steps (0: run to the end)
    bool quiet = false;
    /// A new run from these parameters instead of a file (`rubble campaign`); params_path then
    /// names where they came from, for messages and the output-file checks.
    std::optional<io::ParameterSet> params;
    std::string progress_prefix; ///< written before each progress line ("run 3/24: ")
};

/// Exit codes: 0 done (at its end time, settled, or stopped by --stop-after), 130 interrupted
/// by a signal (resumable).
/// Throws InputError (exit 2) and IoError (exit 1); the caller prints them.
int run_command(const RunOptions& options, std::ostream& out, std::ostream& err);

} // namespace rubble::cli
