// SPDX-License-Identifier: MIT
#pragma once
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
/// `world`: every rank returns the same exit code; errors of one run are printed by the rank
/// that ran it, which then takes no further run.
int campaign_command(const CampaignOptions& options, std::ostream& out, std::ostream& err,
                     core::Communicator& world);

} // namespace rubble::cli
