// SPDX-License-Identifier: MIT
#include "rubble/cli/cli.hpp"

#include <csignal>
#include <map>
#include <sstream>
#include <string>

#include <CLI/CLI.hpp>

#include "campaign_command.hpp"
#include "exit_codes.hpp"
#include "export_command.hpp"
#include "launch_check.hpp"
#include "rubble/config/parameters.hpp"
#include "rubble/core/error.hpp"
#include "rubble/gpu/device_info.hpp"
#include "rubble/version.hpp"
#include "run_command.hpp"
#include "xdmf_command.hpp"

namespace rubble::cli {
namespace {

std::string version_text(const core::Communicator& world) {
    std::ostringstream os;
    os << "rubble " << version << "\nbuild: " << build_compiler << ", " << build_type
       << (build_sanitize ? ", address+undefined sanitizers" : "") << "\nCUDA: ";
    if (build_cuda) {
        os << "on (architectures " << build_cuda_architectures << "); "
           << gpu::query_devices().description;
    } else {
        os << "off";
    }
    os << "\nMPI: ";
    if (!world.library().empty()) {
        os << "on (" << world.library() << "; this job: " << world.size() << " rank"
           << (world.size() == 1 ? "" : "s") << ")";
    } else if (build_mpi) {
        os << "off in this executable; the MPI one of this build is " << build_mpi_executable;
    } else {
        os << "off (build with RUBBLE_MPI=ON for runs and campaigns over ranks: docs/mpi.md)";
    }
    return os.str();
}

std::string option_help(const config::ParamSpec& s) {
    std::string h = s.help;
    if (!s.unit.empty()) h += " [" + s.unit + "]";
    h += " (default " + s.default_text;
    if (!s.range_text().empty()) h += "; " + s.range_text();
    return h + ")";
}

const char* type_label(config::ParamType t) {
    switch (t) {
    case config::ParamType::real:
        return "REAL";
    case config::ParamType::integer:
        return "INT";
    case config::ParamType::boolean:
        return "BOOL";
    case config::ParamType::string:
        return "TEXT";
    case config::ParamType::vector:
        return "X,Y,Z";
    }
    return "VALUE";
}

} // namespace

int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
            core::Communicator& world) {
    // A file size limit (ulimit -f, a scheduler's) then fails a write with EFBIG, which a run
    // reports and survives as it does a full disk (docs/output-format.md, "Crash safety"),
    // instead of SIGXFSZ's default action killing the process mid-write.
    std::signal(SIGXFSZ, SIG_IGN);
    CLI::App app{"rubble: gravitational aggregation of rubble-pile asteroids"};
    app.set_version_flag("--version", version_text(world));
    app.require_subcommand(1);

    RunOptions run;
    auto* run_cmd = app.add_subcommand("run", "Run a scenario from a TOML parameter file");
    run_cmd->add_option("params", run.request.params_path, "TOML parameter file (see params/)");
    run_cmd->add_option("--resume", run.request.resume_path,
                        "Continue the run stored in this HDF5 output from its last snapshot");
    run_cmd
        ->add_option("--stop-after", run.request.stop_after,
                     "Stop (resumably, with a snapshot) after this many steps")
        ->check(CLI::NonNegativeNumber);
    run_cmd->add_flag("--quiet", run.quiet, "No progress line");
    run_cmd->footer("Walls are [[walls]] tables of the parameter file (type = \"plane\", \"box\", "
                    "\"cylinder\" or \"hull\", one table per wall), which have no command-line "
                    "options; their keys are in docs/parameters.md, \"[[walls]]\".\n");
    run_cmd->add_flag("--rank-timings", run.request.rank_timings,
                      "Over MPI ranks: report each rank's time per step split into computation, "
                      "communication and waiting (docs/mpi.md)");
    std::map<std::string, std::string> override_text;
    std::map<std::string, CLI::Option*> override_opts;
    for (const auto& s : config::parameter_specs()) {
        override_opts[s.key] =
            run_cmd->add_option("--" + s.key, override_text[s.key], option_help(s))
                ->group("Parameters [" + s.section() + "]")
                ->type_name(type_label(s.type));
    }

    CampaignOptions campaign;
    auto* campaign_cmd = app.add_subcommand(
        "campaign", "Run a campaign: one scenario in several grain models over sets of initial "
                    "conditions and seeds (docs/campaigns.md); run it again to continue");
    campaign_cmd->add_option("file", campaign.path, "campaign file (see params/ferrari2017/)")
        ->required();
    campaign_cmd->add_flag("--quiet", campaign.quiet, "No progress lines");
    campaign_cmd->add_flag("--list", campaign.list, "List the runs and their state; run nothing");
    campaign_cmd
        ->add_option("--run", campaign.only,
                     "Run (or continue) only run K, counted from 1 as --list and the progress "
                     "lines count (one task of a job array per run: docs/mpi.md)")
        ->check(CLI::PositiveNumber);

    bool markdown = false;
    auto* params_cmd = app.add_subcommand("params", "Print every parameter with its default");
    params_cmd->add_flag("--markdown", markdown, "As docs/parameters.md (Markdown)");

    std::vector<std::string> xdmf_paths;
    auto* xdmf_cmd = app.add_subcommand(
        "xdmf", "Write the XDMF sidecar (RUN.xdmf, opened by ParaView) of existing run files");
    xdmf_cmd->add_option("runs", xdmf_paths, "HDF5 outputs of rubble runs")->required();

    ExportRequest export_request;
    auto* export_cmd = app.add_subcommand(
        "export", "Write a snapshot of a run as a table of bodies (CSV), as ic.type = \"table\" "
                  "reads it (docs/parameters.md)");
    export_cmd->add_option("run", export_request.run, "HDF5 output of a rubble run")->required();
    export_cmd->add_option("--snapshot", export_request.snapshot, "Snapshot index; -1: the last")
        ->capture_default_str();
    export_cmd
        ->add_option("--table", export_request.table,
                     "The CSV file to write (its aggregates' spheres and hull shapes "
                     "beside it, STEM.parts.csv and STEM.shapes.obj)")
        ->required();

    // A first word that names no command: said by name (CLI11 would only ask for one).
    if (argc > 1 && argv[1][0] != '-') {
        std::string names;
        bool known = false;
        for (const CLI::App* c : app.get_subcommands({})) {
            known = known || c->get_name() == argv[1];
            names += (names.empty() ? "" : ", ") + c->get_name();
        }
        if (!known) {
            if (world.rank() == 0)
                err << "error: '" << argv[1] << "' is not a rubble command; the commands are "
                    << names << " (rubble --help)\n";
            return 2;
        }
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        std::ostringstream elsewhere; // the same text on every rank: rank 0 prints it
        const bool first = world.rank() == 0;
        const int code = app.exit(e, first ? out : elsewhere, first ? err : elsewhere);
        return code == 0 ? 0 : 2;
    }

    const bool first = world.rank() == 0;
    if (const int launched = ranks_started_by_launcher(); world.library().empty() && launched > 1) {
        err << "error: this rubble was built without MPI, but a launcher started it as one of "
            << launched
            << " ranks, each of which would run the whole command alone: run it without "
               "mpirun, or "
            << (build_mpi
                    ? std::string("start this build's MPI executable, ") + build_mpi_executable
                    : std::string("build rubble with RUBBLE_MPI=ON (docs/mpi.md)"))
            << "\n";
        return 2;
    }
    // What only one process should do (print, write a sidecar) is done by rank 0, and every
    // rank returns its exit code.
    const auto on_first_rank = [&](auto&& command) {
        return job_exit_code(world, first ? guarded(command, err, true) : 0);
    };
    if (params_cmd->parsed()) {
        return on_first_rank([&] {
            out << (markdown ? config::parameters_markdown() : config::ParameterSet().to_toml());
            return 0;
        });
    }
    if (xdmf_cmd->parsed()) return on_first_rank([&] { return xdmf_command(xdmf_paths, out); });
    if (export_cmd->parsed())
        return on_first_rank([&] { return export_command(export_request, out); });
    if (campaign_cmd->parsed())
        return guarded([&] { return campaign_command(campaign, out, err, world); }, err, first);
    return guarded(
        [&] {
            if (run.request.params_path.empty() && run.request.resume_path.empty())
                throw InputError("rubble run: give a parameter file (rubble run PARAMS.toml) "
                                 "or --resume OUT.h5");
            for (const auto& s : config::parameter_specs()) {
                if (override_opts[s.key]->count() > 0)
                    run.request.overrides.emplace_back(s.key, override_text[s.key]);
            }
            return run_command(run, out, err, world);
        },
        err, first);
}

} // namespace rubble::cli
