// SPDX-License-Identifier: MIT
#include "export_command.hpp"

#include <cstdio>
#include <filesystem>

#include "rubble/core/error.hpp"
#include "rubble/ic/body_table.hpp"
#include "rubble/runfile/run_file.hpp"

namespace rubble::cli {

int export_command(const ExportRequest& request, std::ostream& out) {
    runfile::check_rubble_file(request.run);
    const std::int64_t count = runfile::snapshot_count(request.run);
    if (count == 0) throw InputError("'" + request.run + "' has no snapshot to export");
    if (request.snapshot < -1 || request.snapshot >= count)
        throw InputError("--snapshot " + std::to_string(request.snapshot) + ": '" + request.run +
                         "' has " + std::to_string(count) + " snapshot(s), 0 to " +
                         std::to_string(count - 1) + " (-1: the last)");
    // The table names its companions by file name in its cells: characters that end a cell
    // or a reference there cannot be in it.
    const std::string name = std::filesystem::path(request.table).filename().string();
    if (name.empty() || name.find_first_of(",#\n\r\t ") != std::string::npos)
        throw InputError("--table '" + request.table +
                         "': the file name may not hold a comma, '#' or white space (the table "
                         "names its companion files in its cells)");
    std::error_code ec;
    if (std::filesystem::equivalent(request.run, request.table, ec))
        throw InputError("--table '" + request.table + "' is the run file itself");
    const runfile::Snapshot snap = runfile::read_snapshot(request.run, request.snapshot);
    char time[32];
    std::snprintf(time, sizeof time, "%.17g", snap.time);
    const std::string comment = "rubble export of " + request.run + ", snapshot " +
                                std::to_string(snap.index) + ", time " + time +
                                " s (ic.type = \"table\" reads it; docs/parameters.md)";
    for (const std::string& path : ic::write_body_table(snap.bodies, request.table, comment))
        out << "rubble export: wrote '" << path << "'\n";
    out << "rubble export: " << snap.bodies.size() << " bodies of snapshot " << snap.index
        << " (t = " << time << " s)\n";
    return 0;
}

} // namespace rubble::cli
