// SPDX-License-Identifier: MIT
#include "campaign_command.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <vector>

#include "exit_codes.hpp"
#include "rubble/campaign/campaign_runs.hpp"
#include "rubble/campaign/run_claims.hpp"
#include "rubble/cli/interrupt.hpp"
#include "rubble/core/error.hpp"
#include "rubble/core/stop_request.hpp"
#include "rubble/runfile/run_file.hpp"
#include "run_command.hpp"

namespace rubble::cli {
namespace {

// What became of each run in this invocation, combined over the ranks by a maximum: 0 for a
// run that no rank of this job claimed (another process held it, or the ranks stopped first).
enum Outcome : std::int64_t {
    not_claimed = 0,
    finished_before = 1,
    finished_now = 2,
    left_resumable = 3,
    failed = 4,
};

// Looks at the claims without taking any, so that a campaign running meanwhile is not kept
// from a run by the listing.
void list_runs(const campaign::Campaign& c, std::ostream& out) {
    for (std::size_t k = 0; k < c.runs.size(); ++k) {
        out << "  " << c.runs[k].file << ": "
            << (campaign::run_is_claimed(c, k)
                    ? "running (claimed by another process)"
                    : campaign::run_state_name(campaign::run_state(c, k)))
            << "\n";
    }
}

// Runs (or continues) run k, which this process has claimed. Returns its exit code and sets
// its outcome; errors are thrown, named by the run's label.
int run_one(const campaign::Campaign& c, std::size_t k, const CampaignOptions& o,
            const std::string& rank_label, std::ostream& out, std::ostream& err, Outcome& outcome) {
    // Its lines are led by the rank's label; its errors are not (the caller adds it).
    const std::size_t n = c.runs.size();
    const campaign::RunState state = campaign::run_state(c, k);
    if (state == campaign::RunState::finished) {
        outcome = finished_before;
        return 0;
    }
    const std::string path = campaign::run_path(c, k);
    const std::string label = "run " + std::to_string(k + 1) + "/" + std::to_string(n) + " (" +
                              campaign::run_label(c, k) + ")";
    RunOptions r;
    r.request = campaign::run_request(c, k, state);
    r.quiet = o.quiet;
    r.progress_prefix = rank_label + label + ": ";
    // Each run's own report goes to its log; the campaign keeps one line per run.
    const std::string log_path = std::filesystem::path(path).replace_extension(".log").string();
    std::ofstream log(log_path, std::ios::app);
    if (!log) throw IoError("cannot write the run log '" + log_path + "'");
    const auto start = std::chrono::steady_clock::now();
    int rc = 0;
    outcome = failed;
    try {
        rc = run_command(r, log, err, core::serial_communicator());
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
        outcome = left_resumable;
        out << rank_label << label << ": interrupted; rerun `rubble campaign " << c.path
            << "` to continue (finished runs are kept, this one resumes)\n"
            << std::flush;
        return rc;
    }
    if (rc != 0) return rc;
    outcome = finished_now;
    const std::string reason = runfile::read_stop_reason(path);
    char line[128];
    std::snprintf(line, sizeof line, "%.3g s wall", wall);
    out << rank_label << label << ": " << (reason == "settled" ? "settled" : "reached its end time")
        << (state == campaign::RunState::incomplete ? " (resumed)" : "") << ", " << line << "\n"
        << std::flush;
    return 0;
}

} // namespace

int campaign_command(const CampaignOptions& o, std::ostream& out, std::ostream& err,
                     core::Communicator& world) {
    // Every rank reads the campaign. An error in the file is met by all alike and printed by
    // rank 0; one that only some ranks meet (a file on one node's disk) by each of them.
    const bool first = world.rank() == 0;
    const std::string rank_label =
        world.size() > 1 ? "rank " + std::to_string(world.rank()) + ": " : "";
    std::optional<campaign::Campaign> loaded;
    std::string load_error;
    const int load_code = capture_errors(
        [&] {
            loaded = campaign::load_campaign(o.path);
            return 0;
        },
        load_error);
    const std::int64_t failing = world.sum(load_code != 0 ? 1 : 0);
    if (failing > 0) {
        if (failing == world.size() && first)
            err << load_error << "\n";
        else if (failing < world.size() && load_code != 0)
            err << rank_label << load_error << "\n";
        return job_exit_code(world, load_code);
    }
    const campaign::Campaign& c = *loaded;
    const std::size_t n = c.runs.size();
    if (o.only > n) // alike on every rank
        throw InputError("rubble campaign --run " + std::to_string(o.only) + ": '" + o.path +
                         "' has runs 1 to " + std::to_string(n) + " (--list names them)");
    if (first) {
        out << "campaign " << c.name << " (id " << c.id << "): " << c.sets.size()
            << " initial conditions x " << c.seeds.size() << " seed(s) x " << c.models.size()
            << " grain model(s) = " << n << " runs in '" << c.directory << "'";
        if (world.size() > 1) out << ", over " << world.size() << " ranks";
        out << "\n" << std::flush;
    }
    // The index is written (or the runs listed) by rank 0, before any rank starts a run.
    int index_code = 0;
    if (first) {
        index_code = guarded(
            [&] {
                if (o.list)
                    list_runs(c, out);
                else
                    campaign::write_index(c);
                return 0;
            },
            err, true);
    }
    if (const int job = job_exit_code(world, index_code); job != 0 || o.list) return job;

    // The whole campaign is guarded, deferred: a signal between two runs, or while other ranks
    // finish theirs, stops the campaign resumably (each run's guard nests inside).
    InterruptGuard guard;
    guard.defer();
    std::vector<std::int64_t> outcomes(n, not_claimed);
    // A run that failed stays claimed by its rank until the campaign ends here, so that no
    // other rank repeats the failure; a later invocation tries it again.
    std::vector<storage::FileLock> failed_claims;
    int code = 0;
    for (std::size_t k = 0; k < n && code == 0; ++k) {
        if (o.only != 0 && k + 1 != o.only) continue;
        if (stop_requested()) {
            out << rank_label << "interrupted between two runs; rerun `rubble campaign " << c.path
                << "` to continue\n"
                << std::flush;
            code = interrupted_exit_code;
            break;
        }
        storage::FileLock claim;
        code = guarded(
            [&] {
                claim = campaign::claim_run(c, k);
                if (!claim.held()) return 0; // another rank or process works on it
                Outcome outcome = not_claimed;
                const int rc = run_one(c, k, o, rank_label, out, err, outcome);
                outcomes[k] = outcome;
                return rc;
            },
            err, true, rank_label);
        if (code != 0 && code != interrupted_exit_code) {
            outcomes[k] = failed;
            if (claim.held()) failed_claims.push_back(std::move(claim));
        }
    }

    world.barrier(); // idle ranks sleep here while the others finish their runs
    const int job_code = job_exit_code(world, code);
    world.max_in_place(outcomes);
    if (!first || job_code != 0) return job_code;
    if (o.only != 0) {
        const std::int64_t x = outcomes[o.only - 1];
        out << "campaign " << c.name << ": run " << o.only << "/" << n
            << (x == not_claimed    ? " is claimed by another process; not run here"
                : x == finished_now ? " finished"
                                    : " was finished already")
            << "; index: " << campaign::index_path(c) << "\n";
        return 0;
    }
    std::size_t before = 0, elsewhere = 0;
    for (const std::int64_t x : outcomes) {
        before += x == finished_before ? 1 : 0;
        elsewhere += x == not_claimed ? 1 : 0;
    }
    if (elsewhere > 0) {
        out << "campaign " << c.name << ": " << n - elsewhere << " of " << n << " runs finished; "
            << elsewhere
            << " claimed by another process when this one came to them (rerun `rubble campaign "
            << c.path << "` when it ends to finish or check them)";
    } else {
        out << "campaign " << c.name << ": all " << n << " runs finished";
    }
    if (before > 0) out << " (" << before << " already before)";
    out << "; index: " << campaign::index_path(c) << "\n";
    return 0;
}

} // namespace rubble::cli
