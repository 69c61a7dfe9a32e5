// SPDX-License-Identifier: MIT
#pragma once
// `rubble campaign FILE.toml`: the runs of a campaign (campaign/campaign.hpp, docs/campaigns.md),
// each an ordinary run with its own HDF5 file in the campaign's directory and its text output
// in RUN.log beside it, one after another or P at a time over MPI ranks (docs/mpi.md). Running
// it again continues the campaign: a finished run is not run again, an interrupted one resumes
// from its last snapshot (bitwise as if it had not stopped), and a missing one starts.
#include <cstddef>
#include <ostream>
#include <string>

#include "rubble/core/communicator.hpp"

namespace rubble::cli {

struct CampaignOptions {
    std::string path;     ///< the campaign file
    bool quiet = false;   ///< no progress lines
    bool list = false;    ///< say what each run's state is and run nothing
    std::size_t only = 0; ///< run only this run (1-based, as the progress lines count; 0: all)
};

/// `rubble campaign`: the runs of the campaign not finished yet, each by whichever rank (or
/// other process: campaign/run_claims.hpp) claims it first, one rank per run. Collective over
/// `world`: every rank returns the same exit code (as `rubble run`'s: 0 every run finished or
/// left to another process, 130 interrupted, 2 bad input, 1 a failed write, 3 a run's physics
/// failed); errors of one run are printed by the rank that ran it, which then takes no
/// further run.
int campaign_command(const CampaignOptions& options, std::ostream& out, std::ostream& err,
                     core::Communicator& world);

} // namespace rubble::cli
