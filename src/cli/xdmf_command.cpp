// SPDX-License-Identifier: MIT
#include "xdmf_command.hpp"

#include <unistd.h>

#include "rubble/core/error.hpp"
#include "rubble/runfile/run_file.hpp"
#include "rubble/runfile/xdmf_sidecar.hpp"
#include "rubble/storage/file_lock.hpp"

namespace rubble::cli {

int xdmf_command(const std::vector<std::string>& paths, std::ostream& out) {
    for (const auto& path : paths) {
        runfile::check_rubble_file(path);
        // Reading a file a run is writing could see a session half done, and this sidecar
        // could then replace the run's newer one: wait for the run to end. A file that is not
        // writable cannot be locked, and no run can be writing it either.
        const auto lock = storage::FileLock::try_acquire(path);
        if (!lock.held() && ::access(path.c_str(), W_OK) == 0)
            throw InputError("'" + path +
                             "' is being written by a running rubble, which writes its sidecar "
                             "after each snapshot");
        const std::int64_t count = runfile::write_xdmf_sidecar(path);
        out << "rubble xdmf: wrote '" << runfile::xdmf_sidecar_path(path) << "' (" << count
            << (count == 1 ? " snapshot)\n" : " snapshots)\n");
    }
    return 0;
}

} // namespace rubble::cli
