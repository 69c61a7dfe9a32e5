// SPDX-License-Identifier: MIT
#include "xdmf_command.hpp"

#include <unistd.h>

#include "rubble/core/error.hpp"
#include "rubble/io/file_lock.hpp"
#include "rubble/io/run_file.hpp"
#include "rubble/io/xdmf_sidecar.hpp"

namespace rubble::cli {

int xdmf_command(const std::vector<std::string>& paths, std::ostream& out) {
    for (const auto& path : paths) {
        io::check_rubble_file(path);
        // Reading a file a run is writing could see a session half done, and this sidecar
        // could then replace the run's newer one: wait for the run to end. A file that is not
        // writable cannot be locked, and no run can be writing it either.
        const auto lock = io::FileLock::try_acquire(path);
        if (!lock.held() && ::access(path.c_str(), W_OK) == 0)
            throw InputError("'" + path +
                             "' is being written by a running rubble, which writes its sidecar "
                             "after each snapshot");
        const std::int64_t count = io::write_xdmf_sidecar(path);
        out << "rubble xdmf: wrote '" << io::xdmf_sidecar_path(path) << "' (" << count
            << (count == 1 ? " snapshot)\n" : " snapshots)\n");
    }
    return 0;
}

} // namespace rubble::cli
