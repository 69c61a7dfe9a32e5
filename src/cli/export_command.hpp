// SPDX-License-Identifier: MIT
#pragma once
// `rubble export RUN.h5 --snapshot K --table FILE.csv`: one snapshot of a run as a body table
// (ic/body_table.hpp, docs/parameters.md "Bodies from a table"), the format ic.type = "table"
// reads, so that a state can be edited in a spreadsheet or handed to another code and a run
// started from it reads the same bodies bit for bit.
#include <cstdint>
#include <ostream>
#include <string>

namespace rubble::cli {

struct ExportRequest {
    std::string run;            ///< the rubble output to read
    std::int64_t snapshot = -1; ///< -1: the last
    std::string table;          ///< the table to write
};

/// Returns 0 and says what it wrote on `out`. Throws InputError (exit 2: not a rubble output,
/// no such snapshot, a table path that is the run itself) and IoError (exit 1: a file that
/// cannot be written; what was there before is left as it was).
int export_command(const ExportRequest& request, std::ostream& out);

} // namespace rubble::cli
