// SPDX-License-Identifier: MIT
#pragma once
// Typed view of a validated ParameterSet, with the checks that involve several keys.
#include <cstdint>
#include <string>
#include <vector>

#include "rubble/collisions/collision_config.hpp"
#include "rubble/config/parameters.hpp"
#include "rubble/core/enum_names.hpp"
#include "rubble/gravity/gravity_solver.hpp"
#include "rubble/ic/ic_config.hpp"
#include "rubble/polyhedra/nsc_config.hpp"

namespace rubble::config {

/// Most steps a run may have: far below int64's 9.2e18, so step counts and the products the
/// loop forms from them cannot overflow, and far beyond any real run (1e15 steps of 1 us take
/// 30 years of wall time).
inline constexpr double max_steps = 1e15;

// Each member of these structs that a key of the parameter table sets is bound to it
// (parameter_specs.cpp): its initialiser is the key's default.

struct OutputConfig {
    std::string file = "rubble_out.h5"; ///< relative to the working directory
    bool overwrite = false;
    double snapshot_interval = 0.0;    ///< s, 0: first and last only
    double diagnostics_interval = 0.0; ///< s, 0: every step
    bool shapes = true; ///< keep the shapes sidecar (runfile/shapes_sidecar.hpp) where it has any
};

/// When a run ends before its end time because it has settled (stop.*; run/settling.hpp):
/// checked at each snapshot, so it needs output.snapshot_interval.
struct SettleStopConfig {
    double window = 0.0;             ///< s; 0: never (the run ends at its end time)
    double contact_tolerance = 0.01; ///< surface gap in units of the smaller bounding radius
    double spin_tolerance = 0.01;    ///< in units of each aggregate's rate sqrt(G M / R^3)
};

/// The campaign a run belongs to (campaign.*; set by `rubble campaign`, docs/campaigns.md).
struct CampaignTag {
    std::string id;  ///< the campaign index's id ("" for a run of its own)
    std::string set; ///< the initial-condition set's name
};

struct RunConfig {
    double G = G_SI;          ///< m^3 kg^-1 s^-2
    double dt = 10.0;         ///< s
    double t_end = 0.0;       ///< s (0: use n_steps)
    std::int64_t n_steps = 0; ///< (0: use t_end)
    gravity::GravityConfig gravity;
    std::int64_t gravity_check_samples = 0; ///< bodies checked against direct summation
    /// collisions.enabled: the one switch; run::make_stepper makes the event-driven
    /// stepper with `collisions` only when it is set.
    bool collisions_enabled = false;
    collisions::CollisionConfig collisions;
    /// The keys of [collisions] that only polyhedral grains read (the NSC stepper takes them
    /// with the shared part of `collisions`: polyhedra::NscConfig{collisions, polyhedra}).
    polyhedra::PolyhedralContactConfig polyhedra;
    /// Where the [[walls]] table of each of collisions.walls is ("run.toml:12"), for messages.
    std::vector<std::string> wall_sources;
    /// Where the [[walls]] table of each of polyhedra.fixed_hulls is.
    std::vector<std::string> fixed_hull_sources;
    Vec3 uniform_g = Vec3::Zero(); ///< m/s^2, uniform external field (gravity.uniform_g)
    OutputConfig output;
    std::uint64_t seed = 1;
    ic::IcConfig ic;
    SettleStopConfig settle;
    CampaignTag campaign;
};

/// Builds the typed configuration, setting each bound key's member through its binding and
/// the others (ic.cloud.grain_file's layout or hull, [[walls]]) by hand, then checks the collision
/// configuration once (collisions::check_collision_config); throws InputError (naming the keys and
/// their sources) when keys contradict each other, e.g. both or neither of integrator.t_end and
/// integrator.n_steps, or when integrator.t_end / integrator.dt exceeds max_steps, and for bad
/// [[walls]] tables (config/wall_config.hpp) or walls without collisions.enabled or with a periodic
/// box.
[[nodiscard]] RunConfig make_run_config(const ParameterSet& p);

/// Steps from `step` to the end of the run starting at t_start (s). The run ends at the first
/// step at or after t_end (a relative slack of 1e-9 absorbs round-off in t_end / dt).
[[nodiscard]] std::int64_t total_steps(const RunConfig& c, double t_start);

/// Steps between outputs for an interval in s: round(interval / dt), at least 1; 0 for 0.
/// An interval of more than max_steps steps gives INT64_MAX: no output before the last step.
[[nodiscard]] std::int64_t interval_steps(double interval, double dt);

} // namespace rubble::config
