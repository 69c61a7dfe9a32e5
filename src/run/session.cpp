// SPDX-License-Identifier: MIT
#include "rubble/run/session.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iomanip>
#include <optional>
#include <sstream>

#include "rubble/config/run_checks.hpp"
#include "rubble/config/run_config.hpp"
#include "rubble/config/wall_config.hpp"
#include "rubble/core/error.hpp"
#include "rubble/core/rank_errors.hpp"
#include "rubble/core/stop_request.hpp"
#include "rubble/core/timed_communicator.hpp"
#include "rubble/gravity/accuracy.hpp"
#include "rubble/gravity/gravity_solver.hpp"
#include "rubble/ic/initial_conditions.hpp"
#include "rubble/ic/validate.hpp"
#include "rubble/integrate/diagnostics.hpp"
#include "rubble/integrate/simulation.hpp"
#include "rubble/run/drift_over_ranks.hpp"
#include "rubble/run/make_gravity_solver.hpp"
#include "rubble/run/make_stepper.hpp"
#include "rubble/run/run_ranks.hpp"
#include "rubble/run/settling.hpp"
#include "rubble/runfile/run_file.hpp"

namespace rubble::run {
namespace {

struct Setup {
    config::ParameterSet params;
    config::RunConfig config;
    ic::InitialState state;
    std::int64_t first_step = 0;
    runfile::CollisionTotals totals;                ///< at first_step (resume)
    integrate::StepperState stepper_state;          ///< at first_step (resume)
    std::vector<std::int64_t> decomposition_weight; ///< at first_step (resume; run_ranks.hpp)
    std::int64_t snapshot_index = 0;                ///< of the snapshot resumed from
};

// The decomposition weights a snapshot of the whole state stores (none: each body counts as
// one).
std::span<const std::int64_t> weights_of(const WholeState& whole) {
    if (whole.weights == nullptr) return {};
    return *whole.weights;
}

// Where an override came from, for messages.
std::string override_source(const RunRequest& o, const std::string& key) {
    if (o.overrides_from.empty()) return "command line (--" + key + ")";
    return o.overrides_from + " (" + key + ")";
}

// Keys a resumed run may change: only where it ends.
bool may_change_on_resume(const std::string& key) {
    return key == "integrator.t_end" || key == "integrator.n_steps";
}

Setup prepare_new_run(const RunRequest& o) {
    Setup s;
    s.params = o.params ? *o.params : config::load_parameter_file(o.params_path);
    for (const auto& [key, text] : o.overrides)
        s.params.set_from_text(key, text, override_source(o, key));
    s.config = config::make_run_config(s.params);
    config::check_new_run(s.params, s.config, o.params_path);
    s.state = ic::make_initial_state(s.config.ic, s.config.seed, s.config.G,
                                     s.config.collisions.overlap_tolerance);
    config::check_bodies_clear_of_walls(s.config.collisions.walls, s.config.wall_sources,
                                        s.state.bodies, s.state.time,
                                        s.config.collisions.overlap_tolerance);
    config::check_bodies_clear_of_fixed_hulls(s.config.polyhedra.fixed_hulls,
                                              s.config.fixed_hull_sources, s.state.bodies,
                                              s.config.collisions.overlap_tolerance);
    return s;
}

// Reads from the file being resumed; its errors name the option that gave the file.
template <class Read> auto from_resumed_file(Read&& read) {
    try {
        return read();
    } catch (const InputError& e) {
        throw InputError(std::string("--resume: ") + e.what());
    }
}

Setup prepare_resume(const RunRequest& o) {
    if (!o.params_path.empty() || o.params)
        throw InputError("give either a parameter file or --resume, not both (the parameters "
                         "of a resumed run are the ones stored in its output)");
    Setup s;
    s.params = from_resumed_file([&] {
        return config::parse_parameters(runfile::read_parameters_toml(o.resume_path),
                                        o.resume_path + ":/parameters");
    });
    for (const auto& [key, text] : o.overrides) {
        if (!may_change_on_resume(key))
            throw InputError(override_source(o, key) +
                             ": a resumed run keeps its parameters; "
                             "only integrator.t_end and integrator.n_steps may change");
        s.params.set_from_text(key, text, override_source(o, key));
    }
    s.config = config::make_run_config(s.params);
    s.config.output.file = o.resume_path;
    runfile::Snapshot snap = from_resumed_file([&] {
        runfile::Snapshot last = runfile::read_snapshot(o.resume_path, -1);
        runfile::check_resumable(last, o.resume_path);
        return last;
    });
    s.state.bodies = std::move(snap.bodies);
    s.state.time = from_resumed_file([&] { return runfile::read_start_time(o.resume_path); });
    s.first_step = snap.step;
    s.totals = snap.totals;
    s.stepper_state = std::move(snap.stepper_state);
    s.decomposition_weight = std::move(snap.decomposition_weight);
    s.snapshot_index = snap.index;
    return s;
}

void report_time_step(const Bodies& bodies, const config::RunConfig& c, RunObserver& observer) {
    // Gravity sampling limit h < 1/(2 sqrt(G rho)) (Ferrari et al. 2017, eq. 5) and pkdgrav's
    // h = eta / sqrt(G rho) with eta ~ 0.03 (Richardson et al. 2000), for the densest body.
    const double rho = max_density(bodies);
    if (rho <= 0.0) return;
    const double rate = std::sqrt(c.G * rho);
    const double limit = 0.5 / rate;
    char line[256];
    std::snprintf(line, sizeof line,
                  "time step: dt = %.4g s; limit 1/(2 sqrt(G rho_max)) = %.4g s; pkdgrav "
                  "0.03/sqrt(G rho_max) = %.4g s (rho_max = %.4g kg/m^3)",
                  c.dt, limit, 0.03 / rate, rho);
    observer.report(line);
    if (c.dt > limit) {
        std::ostringstream w;
        w << "warning: integrator.dt = " << c.dt << " s exceeds 1/(2 sqrt(G rho_max)) = " << limit
          << " s: gravity between touching bodies is under-sampled (docs/integrator.md)";
        observer.warn(w.str());
    }
}

// Settling can only be judged over a window longer than the time the bodies take to meet: a
// cloud whose bodies touch nothing yet is "unchanged" until they fall together, in about the
// free-fall time of a uniform sphere of the system's mass and extent, t_ff = pi/2 sqrt(R^3 /
// (2 G M)) = sqrt(3 pi / (32 G rho)) (Binney & Tremaine 2008, eq. 2.39). A shorter window is
// refused: it would end a collapse before it began.
double free_fall_time(const Bodies& b, double G) {
    const double m = total_mass(b);
    const Vec3 com = centre_of_mass(b);
    double r = 0.0;
    for (std::size_t i = 0; i < b.size(); ++i)
        r = std::max(r, (b.pos[i] - com).norm() + b.radius[i]);
    return 0.5 * pi * std::sqrt(r * r * r / (2.0 * G * m));
}

void report_settling(const Setup& s, const Bodies& b, bool resuming, RunObserver& observer) {
    const config::RunConfig& c = s.config;
    const double t_ff = free_fall_time(b, c.G);
    if (!resuming && c.settle.window < t_ff)
        throw s.params.error("stop.settled_window",
                             "shorter than the free-fall time of the initial bodies, " +
                                 config::approx_text(t_ff) +
                                 " s: a cloud still falling together touches nothing and would "
                                 "look settled (docs/campaigns.md)");
    char line[256];
    std::snprintf(line, sizeof line,
                  "stops once settled: aggregates and spins unchanged for %.4g s, checked every "
                  "%.4g s (free-fall time %.4g s)",
                  c.settle.window, c.output.snapshot_interval, t_ff);
    observer.report(line);
}

void report_gravity_accuracy(const std::string& backend, const Bodies& b,
                             const std::vector<Vec3>& acc, const config::RunConfig& c,
                             RunObserver& observer) {
    const auto e =
        gravity::check_against_direct(b.pos, b.mass, acc, c.G, c.gravity.softening,
                                      static_cast<std::size_t>(c.gravity_check_samples), c.seed);
    char line[256];
    std::snprintf(line, sizeof line,
                  "gravity check (%s vs direct, %zu bodies): relative acceleration error median "
                  "%.3e, 99th percentile %.3e, max %.3e",
                  backend.c_str(), e.samples, e.median, e.p99, e.max);
    observer.report(line);
}

// Collision counters between diagnostics rows and over the run. Both kinds are stored with
// every snapshot, so a run resumed from any snapshot continues them exactly.
struct CollisionCounters {
    double collisions = 0, overlaps = 0, max_overlap = 0;
    double collisions_total = 0, overlaps_total = 0, merges_total = 0;

    explicit CollisionCounters(const runfile::CollisionTotals& t)
        : collisions(t.collisions_since_row), overlaps(t.overlaps_since_row),
          max_overlap(t.max_overlap_since_row), collisions_total(t.collisions),
          overlaps_total(t.overlaps), merges_total(t.merges) {}

    void add(const integrate::StepStats& d) {
        const auto c = static_cast<double>(d.contacts), o = static_cast<double>(d.overlaps);
        collisions += c;
        overlaps += o;
        max_overlap = std::max(max_overlap, d.max_overlap);
        collisions_total += c;
        overlaps_total += o;
        merges_total += static_cast<double>(d.merges);
        // Overlaps merged at the drift start are merges too.
    }
    // Writes the counters into a row and starts the next interval.
    void fill(integrate::Diagnostics& row) {
        row.collisions = collisions;
        row.overlaps = overlaps;
        row.max_overlap = max_overlap;
        row.collisions_total = collisions_total;
        row.overlaps_total = overlaps_total;
        row.merges_total = merges_total;
        collisions = overlaps = max_overlap = 0;
    }
    [[nodiscard]] runfile::CollisionTotals totals() const {
        return {collisions_total, overlaps_total, merges_total, collisions, overlaps, max_overlap};
    }
};

// What a stopped run's output still holds, for its error message (-1: nothing written yet).
std::string output_kept(std::int64_t last_snapshot_step) {
    if (last_snapshot_step < 0) return "no output was written";
    return "the output keeps its snapshots up to step " + std::to_string(last_snapshot_step) +
           ", marked incomplete";
}

// A state that is no longer finite numbers (an overflow, a division by zero) must stop the run
// before it is written: the last snapshot stays the last good state and the file incomplete.
void check_finite(const integrate::Simulation& sim, std::int64_t last_snapshot_step) {
    const auto bad = first_non_finite(sim.bodies());
    if (!bad) return;
    char line[160];
    std::snprintf(line, sizeof line, "step %lld (t = %.6g s): body id %lld has a non-finite %s",
                  static_cast<long long>(sim.step_count()), sim.time(),
                  static_cast<long long>(sim.bodies().id[bad->index]), bad->field);
    throw PhysicsError(std::string(line) + "; " + output_kept(last_snapshot_step) +
                       " (check units.G, the time step and the initial conditions)");
}

// last_snapshot_step: -1 before the output is written.
void check_finite(const integrate::Diagnostics& row, std::int64_t last_snapshot_step) {
    if (std::isfinite(row.total_energy) && row.angular_momentum.allFinite()) return;
    throw PhysicsError("step " + std::to_string(row.step) +
                       ": the total energy or angular momentum is not a finite number "
                       "(an overflow: check units.G, gravity.softening and the initial "
                       "speeds); " +
                       output_kept(last_snapshot_step));
}

struct LoopResult {
    std::int64_t last_step;
    bool reached_end; ///< at the end time, or settled
    bool interrupted;
    bool settled = false;
    integrate::Diagnostics last_diag;
};

// The settling criterion (stop.*), observed at the snapshots of the regular interval only: a
// resumed run replays them from its file (replay_settling), so it stops where an
// uninterrupted run does, whatever snapshots the interruption added.
std::optional<SettleTracker> make_settle_tracker(const config::RunConfig& c) {
    if (c.settle.window <= 0.0) return std::nullopt;
    return SettleTracker(
        SettleConfig{c.settle.window, c.settle.contact_tolerance, c.settle.spin_tolerance, c.G});
}

bool is_regular_snapshot(std::int64_t step, std::int64_t snap_every) {
    return snap_every > 0 && step % snap_every == 0;
}

// Feeds the tracker the regular snapshots up to `last_step` of the file being resumed; true
// when they already show the run settled (it was stopped before it could say so).
bool replay_settling(SettleTracker& tracker, const std::string& path, std::int64_t last_step,
                     std::int64_t snap_every) {
    bool settled = false;
    const std::int64_t n = runfile::snapshot_count(path);
    for (std::int64_t i = 0; i < n; ++i) {
        runfile::Snapshot snap = runfile::read_snapshot(path, i);
        if (snap.step > last_step) break;
        if (is_regular_snapshot(snap.step, snap_every))
            settled = tracker.observe(snap.bodies, snap.time);
    }
    return settled;
}

// A resumed run whose end is not after its last snapshot: nothing to run. Returns true (and
// says so) when the file is already complete; an end before the last snapshot is refused.
bool already_finished(const Setup& s, std::int64_t n_total, const std::string& path,
                      RunObserver& observer) {
    std::ostringstream line;
    if (runfile::read_stop_reason(path) == "settled") {
        line << "'" << path << "' is already complete: it settled at step " << s.first_step
             << " (t = " << s.state.time + static_cast<double>(s.first_step) * s.config.dt
             << " s); nothing to do";
        observer.report(line.str());
        return true;
    }
    if (s.first_step < n_total) return false;
    if (s.first_step > n_total) {
        throw InputError(
            "'" + path + "': its last snapshot is at step " + std::to_string(s.first_step) +
            "; integrator.t_end / n_steps end it at "
            "step " +
            std::to_string(n_total) + ", before that (a resumed run can only be extended)");
    }
    if (!runfile::is_complete(path)) return false; // the end was reached but not yet recorded
    line << "'" << path << "' is already complete at step " << s.first_step
         << " (t = " << s.state.time + static_cast<double>(s.first_step) * s.config.dt
         << " s); nothing to do (extend it with --integrator.t_end or --integrator.n_steps)";
    observer.report(line.str());
    return true;
}

// A new output with the parameters, the first diagnostics row and the first snapshot (of the
// whole state `bodies`). If any of that fails the file holds nothing to resume from: it is
// removed, so that nothing looks like output.
runfile::RunFile create_output(const Setup& s, const Bodies& bodies,
                               const integrate::Simulation& sim,
                               const integrate::Diagnostics& start) {
    const std::string& path = s.config.output.file;
    try {
        runfile::RunFile file = runfile::RunFile::create(path, s.params.to_toml(), s.state.time,
                                                         s.config.output.overwrite);
        file.append_diagnostics(start);
        file.write_snapshot(bodies, sim.time(), sim.step_count(), {}, sim.stepper().save_state());
        return file;
    } catch (const IoError& e) {
        std::error_code ignored;
        std::filesystem::remove(path, ignored);
        throw IoError("writing the output " + s.params.described("output.file") + ": " + e.what() +
                      "; the unfinished output '" + path + "' was removed");
    }
}

// The simulation with its gravity and stepper, the start-up report, and (resuming) the
// stepper's saved state. Over several ranks rank 0 holds every body until they are dealt out
// here, so the checks that need them all are its; the reports read the whole state gathered
// back (on one rank: the simulation's own).
integrate::Simulation make_simulation(Setup& s, std::int64_t n_total, bool resuming,
                                      const RunRequest& o, RunObserver& observer, RunRanks& ranks) {
    core::Communicator& world = ranks.world();
    std::unique_ptr<integrate::Stepper> stepper;
    // Rank 0 alone holds the bodies yet (a collective call, outside together()).
    const bool spread =
        world.max(
            ranks.first() && s.config.collisions_enabled &&
                    drift_spreads_over_ranks(s.config.collisions, s.state.bodies.all_free_spheres())
                ? 1
                : 0) != 0;
    core::together(world, [&] {
        if (ranks.first()) {
            check_stepper_supports(s.params, s.config, s.state.bodies);
            check_runs_over_ranks(s.params, s.config, s.state.bodies, world.size());
        }
        // (Made before the first report line: a stepper refuses what it cannot take at once.)
        stepper = ranks.on_root(
            s.config.collisions_enabled,
            [&] {
                try {
                    return make_stepper(s.config.collisions_enabled, s.config.collisions,
                                        s.config.polyhedra, s.state.bodies);
                } catch (const KeyError& e) { // (the margin against the shapes)
                    throw s.params.error(e.key(), e.reason());
                }
            },
            spread, &s.config.collisions);
    });
    const auto n_bodies = static_cast<std::size_t>(
        world.max(static_cast<std::int64_t>(ranks.first() ? s.state.bodies.size() : 0)));
    ranks.scatter(s.state.bodies, std::move(s.decomposition_weight));
    // gravity.aggregates = "centres": every body one mass point (docs/aggregates.md,
    // "Gravity"); free spheres and polyhedra are so already, so only aggregates change.
    const bool at_centres = s.config.gravity.aggregates == gravity::AggregateGravity::centres;
    std::function<bool(const Bodies&)> centres_rule;
    if (!ranks.single())
        centres_rule = [&ranks, at_centres](const Bodies& b) {
            return ranks.gravity_at_centres(b, at_centres);
        };
    else if (at_centres)
        centres_rule = [](const Bodies&) { return true; };
    integrate::Simulation sim(std::move(s.state.bodies),
                              ranks.make_gravity(s.config.gravity, n_bodies), s.config.dt,
                              s.state.time, s.first_step, std::move(centres_rule));
    std::ostringstream line;
    line << "rubble: " << n_bodies << " bodies, gravity backend " << sim.gravity().name() << ", "
         << n_total << " steps of " << s.config.dt << " s";
    observer.report(line.str());
    sim.set_stepper(std::move(stepper));
    if (!ranks.single()) sim.set_redistribution([&ranks](Bodies& b) { ranks.redistribute(b); });
    const WholeState whole = ranks.whole(sim);
    core::together(world, [&] {
        if (ranks.first()) {
            if (const std::string summary = sim.stepper().summary(*whole.bodies); !summary.empty())
                observer.report(summary);
        }
        if (!resuming) return;
        from_resumed_file([&] {
            runfile::restore_stepper_state(sim.stepper(), s.stepper_state, s.snapshot_index,
                                           o.resume_path);
            return 0;
        });
        if (s.stepper_state.empty() && !sim.stepper().save_state().empty())
            observer.warn("warning: '" + o.resume_path +
                          "' has no stepper state in its last snapshot (written by an older "
                          "rubble): the " +
                          sim.stepper().name() +
                          " stepper starts afresh, and the run ends where an uninterrupted one "
                          "would only to its solver's tolerance, not bitwise");
    });
    core::together(world, [&] {
        if (!ranks.first()) return;
        report_time_step(*whole.bodies, s.config, observer);
        if (s.config.settle.window > 0.0) report_settling(s, *whole.bodies, resuming, observer);
    });
    if (s.config.gravity_check_samples > 0 && !resuming) {
        const std::vector<Vec3> acc = ranks.whole_accelerations(sim);
        if (ranks.first())
            report_gravity_accuracy(sim.gravity().name(), *whole.bodies, acc, s.config, observer);
    }
    // After the check, which compares self-gravity alone with direct summation.
    if (s.config.uniform_g != Vec3::Zero()) {
        sim.set_uniform_field(s.config.uniform_g);
        std::ostringstream g;
        g << "uniform gravity field g = (" << s.config.uniform_g.x() << ", "
          << s.config.uniform_g.y() << ", " << s.config.uniform_g.z() << ") m/s^2";
        observer.report(g.str());
    }
    return sim;
}

void report_end(const LoopResult& r, const integrate::Simulation& sim, const Setup& s,
                const std::optional<SettleTracker>& settle, double wall, double de, double dl,
                std::size_t bodies_left, RunObserver& observer) {
    char line[256];
    std::snprintf(line, sizeof line,
                  "step %lld, t = %.6g s, %.3g s wall (%.3g steps/s); |dE/E| = %.3e, |dL/L| = %.3e",
                  static_cast<long long>(r.last_step), sim.time(), wall,
                  static_cast<double>(r.last_step - s.first_step) / std::max(wall, 1e-9), de, dl);
    observer.report(line);
    if (sim.stepper().resolves_contacts()) {
        std::snprintf(line, sizeof line,
                      "collisions: %.0f in total, %.0f overlaps, %.0f merges; %zu bodies left",
                      r.last_diag.collisions_total, r.last_diag.overlaps_total,
                      r.last_diag.merges_total, bodies_left);
        observer.report(line);
    }
    if (r.settled) {
        std::ostringstream text;
        text << "settled: aggregates and spins unchanged since t = " << settle->reference_time()
             << " s";
        observer.report(text.str());
    }
}

// What the caller's observer hears: everything on rank 0; on the other ranks only the moment
// the output begins (each rank's signal guard must know it), since rank 0 reports for all.
class RankObserver final : public RunObserver {
public:
    RankObserver(RunObserver& to, bool first) : to_(to), first_(first) {}
    void report(std::string_view line) override {
        if (first_) to_.report(line);
    }
    void warn(std::string_view line) override {
        if (first_) to_.warn(line);
    }
    void output_begins() override { to_.output_begins(); }
    void loop_begins(const StepProgress& at) override {
        if (first_) to_.loop_begins(at);
    }
    void step_done(const StepProgress& p) override {
        if (first_) to_.step_done(p);
    }
    void loop_done() override {
        if (first_) to_.loop_done();
    }

private:
    RunObserver& to_;
    bool first_;
};

// Over several ranks rank 0 prepared the run alone; the others take its parameters (with the
// command line's overrides: to_toml parses back to the same set, bit for bit) and where it
// starts. They need no bodies: scatter deals them out.
void share_setup(Setup& s, const RunRequest& o, bool resuming, core::Communicator& world) {
    struct Start {
        double time;
        std::int64_t first_step, snapshot_index;
    };
    std::vector<std::byte> bytes;
    if (world.rank() == 0) {
        const Start start{s.state.time, s.first_step, s.snapshot_index};
        const std::string toml = s.params.to_toml();
        bytes.resize(sizeof start + toml.size());
        std::memcpy(bytes.data(), &start, sizeof start);
        std::memcpy(bytes.data() + sizeof start, toml.data(), toml.size());
    }
    const auto all = world.all_gather_bytes(bytes);
    core::together(world, [&] {
        if (world.rank() == 0) return;
        const std::vector<std::byte>& from = all[0];
        Start start{};
        std::memcpy(&start, from.data(), sizeof start);
        const std::string toml(reinterpret_cast<const char*>(from.data()) + sizeof start,
                               from.size() - sizeof start);
        s.params = config::parse_parameters(toml, resuming ? o.resume_path + ":/parameters"
                                                           : o.params_path);
        s.config = config::make_run_config(s.params);
        if (resuming) s.config.output.file = o.resume_path;
        s.state.time = start.time;
        s.first_step = start.first_step;
        s.snapshot_index = start.snapshot_index;
    });
}

// Each rank's wall time in the steps split into computation, communication and waiting, and
// what it sent, per step (rank 0 reports). Collective.
void report_rank_times(core::TimedCommunicator& timed, double wall, std::int64_t steps,
                       RunObserver& observer) {
    const core::RankTimes t = timed.times(); // before the gathers below add to them
    const auto n = static_cast<double>(std::max<std::int64_t>(steps, 1));
    const auto us = [](double seconds) { return static_cast<std::int64_t>(seconds * 1e6); };
    const std::vector<std::int64_t> walls = timed.all_gather(us(wall));
    const std::vector<std::int64_t> waits = timed.all_gather(us(t.waiting));
    const std::vector<std::int64_t> comms = timed.all_gather(us(t.communication));
    const std::vector<std::int64_t> sent = timed.all_gather(t.bytes_sent);
    const std::vector<std::int64_t> calls = timed.all_gather(t.collectives);
    if (timed.rank() != 0) return;
    std::ostringstream head;
    head << "rank timings, ms per step over " << steps
         << " steps (compute = wall - communication - waiting):";
    observer.report(head.str());
    for (std::size_t r = 0; r < walls.size(); ++r) {
        // (microseconds to milliseconds per step)
        const double w = 1e-3 * static_cast<double>(walls[r]) / n,
                     x = 1e-3 * static_cast<double>(waits[r]) / n,
                     c = 1e-3 * static_cast<double>(comms[r]) / n;
        std::ostringstream line;
        line << std::fixed << std::setprecision(2) << "  rank " << r << ": compute " << w - x - c
             << ", communication " << c << ", waiting " << x << ", sent " << std::setprecision(3)
             << 1e-6 * static_cast<double>(sent[r]) / n << " MB per step in "
             << std::setprecision(1) << static_cast<double>(calls[r]) / n << " collectives";
        observer.report(line.str());
    }
}

} // namespace

struct Session::Impl {
    Impl(const RunRequest& o, RunObserver& caller, core::Communicator& w);

    // Where the session is: prepared, between steps of the loop, after the loop, finished
    // (or ended at once: a resumed file with nothing to run), failed on an error.
    enum class Phase { prepared, looping, loop_over, finished, failed };

    void begin_loop();
    bool one_step();
    void write_snapshot(const WholeState& whole);
    void end_loop(bool keep_state);
    bool advance_until(std::int64_t until);
    RunResult finish();
    void replace_bodies(Bodies bodies, const std::string& origin);
    template <class Write> void writing(Write&& write);

    RunRequest request;
    std::unique_ptr<core::TimedCommunicator> timed; ///< with RunRequest::rank_timings
    core::Communicator& world;
    RunRanks ranks;
    RankObserver observer;
    bool resuming;
    Setup s;
    std::int64_t n_total = 0;
    RunResult result;
    Phase phase = Phase::prepared;
    bool ended_at_once = false; ///< a resumed file already complete or settled: nothing to run
    std::optional<integrate::Simulation> sim;
    std::optional<runfile::RunFile> file;
    integrate::Diagnostics start, latest;
    std::optional<SettleTracker> settle;
    // The loop's state, kept between the pieces of the run.
    std::int64_t snap_every = 0, diag_every = 1, stop_at = 0;
    StepProgress progress;
    LoopResult r{};
    double energy_error = 0.0;
    std::optional<CollisionCounters> counters;
    std::int64_t last_snapshot = 0;
    double wall = 0.0; ///< s in the loop
};

Session::Impl::Impl(const RunRequest& o, RunObserver& caller, core::Communicator& w)
    : request(o),
      timed(o.rank_timings && w.size() > 1 ? std::make_unique<core::TimedCommunicator>(w)
                                           : nullptr),
      world(timed ? *timed : w), ranks(world), observer(caller, ranks.first()),
      resuming(!o.resume_path.empty()) {
    core::together(world, [&] {
        if (ranks.first()) s = resuming ? prepare_resume(o) : prepare_new_run(o);
    });
    if (!ranks.single()) share_setup(s, o, resuming, world);
    n_total = config::total_steps(s.config, s.state.time);
    result.output = s.config.output.file;
    bool finished = false;
    core::together(world, [&] {
        finished =
            ranks.first() && resuming && already_finished(s, n_total, o.resume_path, observer);
    });
    if (ranks.any(finished)) {
        result.end = RunEnd::already_complete;
        result.last_step = s.first_step;
        result.time = s.state.time + static_cast<double>(s.first_step) * s.config.dt;
        phase = Phase::loop_over;
        ended_at_once = true;
        return;
    }
    sim.emplace(make_simulation(s, n_total, resuming, o, observer, ranks));

    observer.output_begins();
    const WholeState whole = ranks.whole(*sim);
    core::together(world, [&] {
        if (!ranks.first()) return;
        if (!resuming) {
            start =
                integrate::compute_diagnostics(*whole.bodies, *whole.potentials, sim->time(), 0);
            check_finite(start, -1);
            latest = start;
        }
        file.emplace(resuming ? runfile::RunFile::open_existing(o.resume_path)
                              : create_output(s, *whole.bodies, *sim, start));
        // The shapes sidecar where a body's point is not its shape, or there are walls to see.
        const runfile::Scene scene{s.config.collisions.walls, s.config.polyhedra.fixed_hulls};
        const bool shapes =
            s.config.output.shapes && (!scene.empty() || !whole.bodies->all_free_spheres());
        if (!resuming) {
            if (shapes) file->show_shapes(scene);
            return;
        }
        file->truncate_after(s.first_step);
        if (shapes)
            file->show_shapes(scene);
        else // one an earlier rubble may have left, now out of date
            runfile::remove_shapes_sidecar(o.resume_path);
        const auto series = runfile::read_diagnostics(o.resume_path);
        if (series.empty()) throw InputError("'" + o.resume_path + "' has no diagnostics row");
        start = series.front();
        latest = series.back();
        file->begin_continuation(s.params.to_toml());
        std::ostringstream line;
        line << "resuming '" << o.resume_path << "' from step " << s.first_step
             << " (t = " << sim->time() << " s)";
        observer.report(line.str());
    });

    settle = make_settle_tracker(s.config);
    snap_every = config::interval_steps(s.config.output.snapshot_interval, s.config.dt);
    bool settled_before = false;
    core::together(world, [&] {
        if (!ranks.first() || !settle) return;
        if (!resuming) {
            settle->observe(*whole.bodies, sim->time());
            return;
        }
        settled_before = replay_settling(*settle, o.resume_path, s.first_step, snap_every);
        if (!settled_before) return;
        // Stopped after its settled snapshot was written but before the file said so.
        result.energy_error = integrate::relative_energy_error(latest, start);
        result.momentum_error = integrate::angular_momentum_error(latest, start);
        file->mark_complete(true, result.energy_error, result.momentum_error, "settled");
        observer.report("'" + o.resume_path + "' had settled at step " +
                        std::to_string(s.first_step) + "; marked complete");
    });
    if (ranks.any(settled_before)) {
        result.end = RunEnd::settled;
        result.last_step = s.first_step;
        result.time = sim->time();
        phase = Phase::loop_over;
        ended_at_once = true;
        return;
    }

    diag_every = std::max<std::int64_t>(
        1, config::interval_steps(s.config.output.diagnostics_interval, s.config.dt));
    progress = StepProgress{sim->step_count(), sim->step_count(), n_total, sim->time(), 0.0, -1.0};
    r = LoopResult{sim->step_count(), false, false, false, latest};
    stop_at = o.stop_after > 0 ? sim->step_count() + o.stop_after : n_total;
    energy_error = integrate::relative_energy_error(latest, start);
    counters.emplace(s.totals);
    last_snapshot = sim->step_count(); // the run starts from a snapshot
}

// Writes to the output; a failed write says what the file still holds.
template <class Write> void Session::Impl::writing(Write&& write) {
    try {
        write();
    } catch (const IoError& e) {
        if (!file) throw; // rank 0 says what its file holds
        // The output named as the user named it: the key, or the file being resumed.
        const std::string output = request.resume_path.empty()
                                       ? s.params.described("output.file")
                                       : "'" + request.resume_path + "' (--resume)";
        throw IoError("writing the output " + output + ": " + e.what() + "; " +
                      output_kept(file->last_snapshot_step()) + ": rubble run --resume " +
                      file->path() + " continues from there once there is room");
    }
}

// A snapshot of the whole state now, with what a resumed run continues from (rank 0).
void Session::Impl::write_snapshot(const WholeState& whole) {
    file->write_snapshot(*whole.bodies, sim->time(), sim->step_count(), counters->totals(),
                         sim->stepper().save_state(), weights_of(whole));
}

void Session::Impl::begin_loop() {
    if (timed) timed->reset();
    phase = Phase::looping;
    observer.loop_begins(progress);
}

// One step of the loop and its output: the contact log, a diagnostics row at the diagnostics
// cadence, a snapshot at the snapshot cadence, at the end, at a stop and when settled. Over
// several ranks (run_ranks.hpp) each rank steps its own bodies, whatever may end the run (a
// body no longer finite, a stop request, a failed write, the settled state) is agreed by
// every rank after the step, and rank 0 writes the whole state gathered in serial order;
// `file` is empty on the other ranks. (Only contact steppers abandon a step on a stop request,
// and over several ranks they never do: RunRanks::on_root.) Returns false when the step
// ends the loop before its last step (settled, a stop, an interruption).
bool Session::Impl::one_step() {
    try {
        sim->step();
    } catch (const Interrupted&) {
        // The step was abandoned and undone: the state is the previous step's end.
        r.interrupted = true;
        return false;
    }
    core::together(world, [&] { check_finite(*sim, last_snapshot); });
    const std::int64_t k = sim->step_count();
    const bool last = k == n_total;
    const bool stop = !last && ranks.any(k >= stop_at || stop_requested());
    if (sim->stepper().resolves_contacts()) {
        counters->add(sim->last_stats()); // rank 0's are the run's (RunRanks::on_root)
        if (s.config.collisions.log)
            core::together(world, [&] {
                if (ranks.first()) file->append_collisions(sim->stepper().take_log(), k);
            });
    }
    const bool diagnostics_row = k % diag_every == 0 || last;
    const bool regular = is_regular_snapshot(k, snap_every);
    if (diagnostics_row || regular || last || stop) {
        const WholeState whole = ranks.whole(*sim);
        bool settled = false;
        core::together(world, [&] {
            if (!ranks.first()) return;
            const Bodies& b = *whole.bodies;
            if (diagnostics_row) {
                r.last_diag = integrate::compute_diagnostics(b, *whole.potentials, sim->time(), k);
                check_finite(r.last_diag, file->last_snapshot_step());
                counters->fill(r.last_diag);
                energy_error = integrate::relative_energy_error(r.last_diag, start);
                file->append_diagnostics(r.last_diag);
            }
            settled = regular && settle && settle->observe(b, sim->time());
            if (settled && !diagnostics_row) {
                // The settled state ends the run: its diagnostics row goes with its snapshot.
                r.last_diag = integrate::compute_diagnostics(b, *whole.potentials, sim->time(), k);
                check_finite(r.last_diag, file->last_snapshot_step());
                counters->fill(r.last_diag);
                file->append_diagnostics(r.last_diag);
            }
            if (regular || last || stop || settled) write_snapshot(whole);
        });
        r.settled = ranks.any(settled);
        if (regular || last || stop || r.settled) last_snapshot = k;
    }
    progress.step = k;
    progress.time = sim->time();
    progress.energy_error = energy_error;
    progress.collisions = sim->stepper().resolves_contacts() ? counters->collisions_total : -1.0;
    observer.step_done(progress);
    if (r.settled) return false;
    if (stop) {
        r.interrupted = ranks.any(stop_requested());
        return false;
    }
    return true;
}

// After the last step of the loop. `keep_state`: the loop ended before the run's end (an
// interruption, or finish() before the end), so the state reached is written if it is not
// yet, for a resumed run to start from.
void Session::Impl::end_loop(bool keep_state) {
    if (keep_state && last_snapshot != sim->step_count()) {
        const WholeState whole = ranks.whole(*sim);
        core::together(world, [&] {
            if (ranks.first()) write_snapshot(whole);
        });
        last_snapshot = sim->step_count();
    }
    observer.loop_done();
    r.last_step = sim->step_count();
    r.reached_end = r.last_step >= n_total || r.settled;
    phase = Phase::loop_over;
}

namespace {
// Refuses a call on a session that can no longer take it.
void check_usable(bool failed, const std::string& output) {
    if (failed)
        throw InputError("the run '" + output +
                         "' stopped at an error; continue it from its file (rubble run --resume " +
                         output + ")");
}
} // namespace

bool Session::Impl::advance_until(std::int64_t until) {
    check_usable(phase == Phase::failed, result.output);
    if (phase == Phase::prepared) begin_loop();
    if (phase != Phase::looping) return false;
    const auto wall_start = std::chrono::steady_clock::now();
    try {
        writing([&] {
            bool going = true;
            while (going && sim->step_count() < std::min(until, n_total))
                going = one_step();
            if (!going || sim->step_count() >= n_total) end_loop(r.interrupted);
        });
    } catch (...) {
        phase = Phase::failed;
        throw;
    }
    wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    return phase == Phase::looping;
}

RunResult Session::Impl::finish() {
    check_usable(phase == Phase::failed, result.output);
    if (phase == Phase::finished) throw std::logic_error("Session::finish called twice");
    if (ended_at_once) { // nothing ran
        phase = Phase::finished;
        file.reset(); // (and another run may open it)
        return result;
    }
    try {
        writing([&] {
            if (phase == Phase::prepared) begin_loop();
            if (phase == Phase::looping) end_loop(true);
            core::together(world, [&] {
                if (!ranks.first()) return;
                const double de = integrate::relative_energy_error(r.last_diag, start);
                const double dl = integrate::angular_momentum_error(r.last_diag, start);
                file->mark_complete(r.reached_end, de, dl, r.settled ? "settled" : "end");
            });
        });
    } catch (...) {
        phase = Phase::failed;
        throw;
    }
    phase = Phase::finished;
    if (timed) report_rank_times(*timed, wall, r.last_step - s.first_step, observer);
    result.energy_error = integrate::relative_energy_error(r.last_diag, start);
    result.momentum_error = integrate::angular_momentum_error(r.last_diag, start);
    result.last_step = r.last_step;
    result.time = sim->time();
    const auto bodies_left =
        static_cast<std::size_t>(world.sum(static_cast<std::int64_t>(sim->bodies().size())));
    if (ranks.first())
        report_end(r, *sim, s, settle, wall, result.energy_error, result.momentum_error,
                   bodies_left, observer);
    const std::string path = file ? file->path() : result.output;
    file.reset(); // closed: another run may open it
    if (r.reached_end) {
        result.end = r.settled ? RunEnd::settled : RunEnd::end_time;
        observer.report("output: " + std::filesystem::absolute(path).string());
        return result;
    }
    result.end = r.interrupted ? RunEnd::interrupted : RunEnd::stopped;
    observer.report(std::string(r.interrupted ? "interrupted" : "stopped") + " at step " +
                    std::to_string(r.last_step) +
                    "; the output is resumable: rubble run --resume " + path);
    return result;
}

void Session::Impl::replace_bodies(Bodies bodies, const std::string& origin) {
    check_usable(phase == Phase::failed, result.output);
    if (!ranks.single())
        throw InputError(origin + ": the bodies can be replaced in a run on one rank only");
    if (phase != Phase::prepared && phase != Phase::looping)
        throw InputError(origin + ": the run '" + result.output +
                         "' has ended; its bodies can no longer be replaced");
    const double tolerance = s.config.collisions.overlap_tolerance;
    ic::validate_bodies(bodies, origin, tolerance);
    config::check_bodies_clear_of_walls(s.config.collisions.walls, s.config.wall_sources, bodies,
                                        sim->time(), tolerance);
    config::check_bodies_clear_of_fixed_hulls(s.config.polyhedra.fixed_hulls,
                                              s.config.fixed_hull_sources, bodies, tolerance);
    // The stepper's kind was chosen for the bodies (make_stepper): it must still take them.
    check_stepper_supports(s.params, s.config, bodies);
    sim->bodies() = std::move(bodies);
    sim->stepper().discard();
    sim->refresh_forces();
    const std::int64_t k = sim->step_count();
    try {
        writing([&] { write_snapshot(ranks.whole(*sim)); });
    } catch (...) {
        phase = Phase::failed;
        throw;
    }
    last_snapshot = k;
    // A resumed run replays the regular snapshots, this one among them (replay_settling).
    if (settle && is_regular_snapshot(k, snap_every)) settle->observe(sim->bodies(), sim->time());
}

Session::Session(const RunRequest& request, RunObserver& observer, core::Communicator& world)
    : impl_(std::make_unique<Impl>(request, observer, world)) {}

Session::~Session() = default;

bool Session::advance(std::int64_t steps) {
    return impl_->advance_until(step() + std::max<std::int64_t>(steps, 0));
}

bool Session::advance_to(double t) {
    if (!impl_->sim) return false;
    // The steps as integrator.t_end counts them (config::total_steps).
    const double steps = (t - impl_->s.state.time) / impl_->s.config.dt;
    if (!(steps > 0.0)) return impl_->advance_until(0);
    const double until = std::ceil(std::min(steps, 9e18) * (1.0 - 1e-9));
    return impl_->advance_until(static_cast<std::int64_t>(until));
}

void Session::advance_to_end() {
    impl_->advance_until(impl_->n_total);
}

bool Session::running() const {
    return impl_->phase == Impl::Phase::prepared || impl_->phase == Impl::Phase::looping;
}

std::int64_t Session::step() const {
    return impl_->sim ? impl_->sim->step_count() : impl_->result.last_step;
}

double Session::time() const {
    return impl_->sim ? impl_->sim->time() : impl_->result.time;
}

std::int64_t Session::end_step() const {
    return impl_->n_total;
}

double Session::dt() const {
    return impl_->s.config.dt;
}

const std::string& Session::output() const {
    return impl_->result.output;
}

const Bodies& Session::bodies() const {
    if (!impl_->ranks.single())
        throw std::logic_error("Session::bodies: the whole state is on several ranks");
    if (!impl_->sim) throw InputError("the run '" + output() + "' had nothing left to run");
    return impl_->sim->bodies();
}

void Session::replace_bodies(Bodies bodies, const std::string& origin) {
    impl_->replace_bodies(std::move(bodies), origin);
}

RunResult Session::finish() {
    return impl_->finish();
}

} // namespace rubble::run
