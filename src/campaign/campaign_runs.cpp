// SPDX-License-Identifier: MIT
#include "rubble/campaign/campaign_runs.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>

#include "rubble/core/error.hpp"
#include "rubble/runfile/run_file.hpp"
#include "rubble/storage/atomic_file.hpp"

namespace rubble::campaign {

RunState run_state(const Campaign& c, std::size_t k) {
    const std::string path = run_path(c, k);
    if (!std::filesystem::exists(path)) return RunState::missing;
    const config::ParameterSet p =
        config::parse_parameters(runfile::read_parameters_toml(path), path + ":/parameters");
    const std::string& id = p.string("campaign.id");
    if (id != c.id)
        throw InputError("'" + path + "' belongs to " +
                         (id.empty() ? std::string("no campaign") : "campaign " + id) +
                         ", not to campaign " + c.id + " of '" + c.path +
                         "': move it away, or give this campaign another campaign.directory");
    return runfile::is_complete(path) ? RunState::finished : RunState::incomplete;
}

const char* run_state_name(RunState s) {
    switch (s) {
    case RunState::missing:
        return "to run";
    case RunState::incomplete:
        return "to resume";
    case RunState::finished:
        return "finished";
    }
    return "";
}

void write_index(const Campaign& c) {
    std::error_code ec;
    std::filesystem::create_directories(c.directory, ec);
    if (ec)
        throw IoError("cannot create the campaign directory '" + c.directory +
                      "': " + ec.message());
    const std::string index = index_path(c);
    const std::string text = index_json(c);
    if (std::filesystem::exists(index)) {
        const std::string id = read_index_id(index);
        if (id != c.id)
            throw InputError("'" + index + "' is the index of campaign " + id + ", but '" + c.path +
                             "' now defines campaign " + c.id +
                             " (a shared parameter or the sweep changed): give it another "
                             "campaign.directory, or remove '" +
                             c.directory + "' to start again");
        // The same index already there (another task of a job array wrote it): left alone.
        std::ifstream in(index);
        const std::string old((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
        if (in && old == text) return;
    }
    storage::replace_file_atomically(index, text);
}

std::string run_label(const Campaign& c, std::size_t k) {
    const CampaignRun& r = c.runs[k];
    return "set " + c.sets[r.set].name + ", seed " + std::to_string(r.seed) + ", " +
           std::string(enum_name(ic::representation_names, r.model));
}

run::RunRequest run_request(const Campaign& c, std::size_t k, RunState state) {
    run::RunRequest r;
    if (state == RunState::incomplete) {
        r.resume_path = run_path(c, k);
    } else {
        r.params = run_parameters(c, k);
        r.params_path = c.path;
    }
    return r;
}

} // namespace rubble::campaign
