// SPDX-License-Identifier: MIT
#pragma once
// The runs of a campaign as the run driver sees them (run/run_driver.hpp): which of them are
// still to run or to resume, the index written before any of them, and the request that
// starts or continues run k. `rubble campaign` is a loop over these; so can be a Python
// module or a batch script that runs one campaign run per job.
#include <cstddef>
#include <string>

#include "rubble/campaign/campaign.hpp"
#include "rubble/run/run_driver.hpp"

namespace rubble::campaign {

enum class RunState {
    missing,    ///< no file yet: to run
    incomplete, ///< a file that did not reach its end: to resume
    finished,   ///< complete (its end time, or settled)
};

/// The state of run k's file. Throws InputError for a file that is not this campaign's
/// (campaign.id): running on would mix two campaigns' results under one index.
[[nodiscard]] RunState run_state(const Campaign& c, std::size_t k);

/// "to run", "to resume", "finished".
[[nodiscard]] const char* run_state_name(RunState s);

/// Writes the index (campaign.json) into the campaign's directory, creating it: before any
/// run, so that an interrupted campaign can be compared so far. An identical index already
/// there is left as it is (the processes sharing a campaign each call this). Throws InputError when
/// the directory holds the index of another campaign (it is never overwritten), IoError when the
/// directory or index cannot be written.
void write_index(const Campaign& c);

/// "set 1.1@0.5, seed 3, sphere".
[[nodiscard]] std::string run_label(const Campaign& c, std::size_t k);

/// The request that starts run k (missing) or continues it (incomplete).
[[nodiscard]] run::RunRequest run_request(const Campaign& c, std::size_t k, RunState state);

} // namespace rubble::campaign
