// SPDX-License-Identifier: MIT
#include "campaign_command.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "interrupt.hpp"
#include "rubble/campaign/campaign.hpp"
#include "rubble/core/error.hpp"
#include "rubble/runfile/run_file.hpp"
#include "rubble/storage/atomic_file.hpp"
#include "run_command.hpp"

namespace rubble::cli {
namespace {

enum class RunState { missing, incomplete, finished };

// The state of run k's file, refusing a file that is not this campaign's: running on would
// mix two campaigns' results under one index.
RunState run_state(const campaign::Campaign& c, std::size_t k) {
    const std::string path = campaign::run_path(c, k);
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

// The index is written before any run, so that an interrupted campaign can be compared so far;
// an index of another campaign in the same directory is refused, not overwritten.
void write_index(const campaign::Campaign& c) {
    std::error_code ec;
    std::filesystem::create_directories(c.directory, ec);
    if (ec)
        throw IoError("cannot create the campaign directory '" + c.directory +
                      "': " + ec.message());
    const std::string index = campaign::index_path(c);
    if (std::filesystem::exists(index)) {
        const std::string id = campaign::read_index_id(index);
        if (id != c.id)
            throw InputError("'" + index + "' is the index of campaign " + id + ", but '" + c.path +
                             "' now defines campaign " + c.id +
                             " (a shared parameter or the sweep changed): give it another "
                             "campaign.directory, or remove '" +
                             c.directory + "' to start again");
    }
    storage::replace_file_atomically(index, campaign::index_json(c));
}

std::string run_label(const campaign::Campaign& c, std::size_t k) {
    const campaign::CampaignRun& r = c.runs[k];
    return "set " + c.sets[r.set].name + ", seed " + std::to_string(r.seed) + ", " +
           std::string(enum_name(ic::representation_names, r.model));
}

const char* state_name(RunState s) {
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

} // namespace

int campaign_command(const CampaignOptions& o, std::ostream& out, std::ostream& err) {
    const campaign::Campaign c = campaign::load_campaign(o.path);
    const std::size_t n = c.runs.size();
    out << "campaign " << c.name << " (id " << c.id << "): " << c.sets.size()
        << " initial conditions x " << c.seeds.size() << " seed(s) x " << c.models.size()
        << " grain model(s) = " << n << " runs in '" << c.directory << "'\n";
    if (o.list) {
        for (std::size_t k = 0; k < n; ++k)
            out << "  " << c.runs[k].file << ": " << state_name(run_state(c, k)) << "\n";
        return 0;
    }
    write_index(c);
    std::size_t skipped = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const RunState state = run_state(c, k);
        const std::string path = campaign::run_path(c, k);
        if (state == RunState::finished) {
            ++skipped;
            continue;
        }
        const std::string label =
            "run " + std::to_string(k + 1) + "/" + std::to_string(n) + " (" + run_label(c, k) + ")";
        RunOptions r;
        r.quiet = o.quiet;
        r.progress_prefix = label + ": ";
        if (state == RunState::incomplete) {
            r.request.resume_path = path;
        } else {
            r.request.params = campaign::run_parameters(c, k);
            r.request.params_path = c.path;
        }
        // Each run's own report goes to its log; the campaign keeps one line per run.
        const std::string log_path = std::filesystem::path(path).replace_extension(".log").string();
        std::ofstream log(log_path, std::ios::app);
        if (!log) throw IoError("cannot write the run log '" + log_path + "'");
        const auto start = std::chrono::steady_clock::now();
        int rc = 0;
        try {
            rc = run_command(r, log, err);
        } catch (const InputError& e) {
            throw InputError(label + ": " + e.what());
        } catch (const PhysicsError& e) {
            throw PhysicsError(label + ": " + e.what() + " (log: " + log_path + ")");
        } catch (const IoError& e) {
            throw IoError(label + ": " + e.what());
        }
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (rc == interrupted_exit_code) {
            out << label << ": interrupted; rerun `rubble campaign " << c.path
                << "` to continue (finished runs are kept, this one resumes)\n";
            return rc;
        }
        if (rc != 0) return rc;
        const std::string reason = runfile::read_stop_reason(path);
        char line[128];
        std::snprintf(line, sizeof line, "%.3g s wall", wall);
        out << label << ": " << (reason == "settled" ? "settled" : "reached its end time")
            << (state == RunState::incomplete ? " (resumed)" : "") << ", " << line << "\n"
            << std::flush;
    }
    out << "campaign " << c.name << ": all " << n << " runs finished";
    if (skipped > 0) out << " (" << skipped << " already before)";
    out << "; index: " << campaign::index_path(c) << "\n";
    return 0;
}

} // namespace rubble::cli
