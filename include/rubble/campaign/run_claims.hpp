// SPDX-License-Identifier: MIT
#pragma once
// Which process runs which run of a campaign (issue 34, docs/mpi.md). Every process that runs
// a campaign (the ranks of one mpirun, the tasks of a Slurm job array, two terminals) walks
// the runs in order and takes each one it finds unclaimed. A claim is an fcntl lock on byte k
// of DIR/campaign.claims (an open-file-description lock, storage/file_lock.hpp), held for as
// long as the process works on run k and released by the kernel when the process ends,
// however it ends (kill -9 included): no stale claims, no coordinating rank, and a rank takes
// the next run as soon as it is free. Dynamic self-scheduling rather than a fixed share of
// the runs per rank, because the runs of one campaign differ in cost by orders of magnitude
// (a polyhedral run against a sphere run of the same cloud) and a fixed share would leave
// ranks idle while one works through the expensive ones.
#include <cstddef>
#include <string>

#include "rubble/campaign/campaign.hpp"
#include "rubble/storage/file_lock.hpp"

namespace rubble::campaign {

/// DIR/campaign.claims.
[[nodiscard]] std::string claims_path(const Campaign& c);

/// Claims run k for this process: a held lock, or an empty one (held() false) when another
/// process (or another claim of this one) works on it. Throws IoError when the claims file
/// cannot be opened or locked (a file system without fcntl locks).
[[nodiscard]] storage::FileLock claim_run(const Campaign& c, std::size_t k);

/// Whether another process (or another claim of this one) works on run k now; takes nothing.
[[nodiscard]] bool run_is_claimed(const Campaign& c, std::size_t k);

} // namespace rubble::campaign
