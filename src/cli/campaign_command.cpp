// SPDX-License-Identifier: MIT
#include "campaign_command.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "interrupt.hpp"
#include "rubble/campaign/campaign_runs.hpp"
#include "rubble/core/error.hpp"
#include "rubble/runfile/run_file.hpp"
#include "run_command.hpp"

namespace rubble::cli {

int campaign_command(const CampaignOptions& o, std::ostream& out, std::ostream& err) {
    const campaign::Campaign c = campaign::load_campaign(o.path);
    const std::size_t n = c.runs.size();
    out << "campaign " << c.name << " (id " << c.id << "): " << c.sets.size()
        << " initial conditions x " << c.seeds.size() << " seed(s) x " << c.models.size()
        << " grain model(s) = " << n << " runs in '" << c.directory << "'\n";
    if (o.list) {
        for (std::size_t k = 0; k < n; ++k)
            out << "  " << c.runs[k].file << ": "
                << campaign::run_state_name(campaign::run_state(c, k)) << "\n";
        return 0;
    }
    campaign::write_index(c);
    std::size_t skipped = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const campaign::RunState state = campaign::run_state(c, k);
        const std::string path = campaign::run_path(c, k);
        if (state == campaign::RunState::finished) {
            ++skipped;
            continue;
        }
        const std::string label = "run " + std::to_string(k + 1) + "/" + std::to_string(n) + " (" +
                                  campaign::run_label(c, k) + ")";
        RunOptions r;
        r.request = campaign::run_request(c, k, state);
        r.quiet = o.quiet;
        r.progress_prefix = label + ": ";
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
            << (state == campaign::RunState::incomplete ? " (resumed)" : "") << ", " << line << "\n"
            << std::flush;
    }
    out << "campaign " << c.name << ": all " << n << " runs finished";
    if (skipped > 0) out << " (" << skipped << " already before)";
    out << "; index: " << campaign::index_path(c) << "\n";
    return 0;
}

} // namespace rubble::cli
