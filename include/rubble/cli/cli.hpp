// SPDX-License-Identifier: MIT
#pragma once
#include <ostream>

namespace rubble::cli {

/// The whole command line: `rubble run ...`, `rubble params ...`, `rubble --version`.
/// Returns the process exit code: 0 success, 1 I/O or internal error, 2 bad input (one line
/// on `err` naming file, key and value), 130 interrupted by a signal (output resumable).
int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

} // namespace rubble::cli
