// SPDX-License-Identifier: MIT
#pragma once
// `rubble campaign FILE.toml`: the runs of a campaign (campaign/campaign.hpp, docs/campaigns.md),
// one after another, each an ordinary run with its own HDF5 file in the campaign's directory and
// its text output in RUN.log beside it. Running it again continues the campaign: a finished run is
// not run again, an interrupted one resumes from its last snapshot (bitwise as if it had not
// stopped), and a missing one starts.
#include <ostream>
#include <string>

namespace rubble::cli {

struct CampaignOptions {
    std::string path;   ///< the campaign file
    bool quiet = false; ///< no progress lines
    bool list = false;  ///< say what each run's state is and run nothing
};

/// Exit codes as `rubble run`: 0 all runs finished (or listed), 130 interrupted (rerun to
/// continue). Throws InputError for a bad campaign file, an index or a run file that belongs to
/// another campaign, and a run's own errors (naming the run); IoError when the directory or
/// index cannot be written.
int campaign_command(const CampaignOptions& options, std::ostream& out, std::ostream& err);

} // namespace rubble::cli
