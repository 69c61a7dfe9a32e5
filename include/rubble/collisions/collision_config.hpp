// SPDX-License-Identifier: MIT
#pragma once
// Everything the parameter file says about collisions (section [collisions], docs/collisions.md).
#include <cstdint>
#include <vector>

#include "rubble/boundaries/contact_config.hpp"
#include "rubble/core/enum_names.hpp"

namespace rubble::collisions {

/// What a contact does to the two bodies.
enum class ContactOutcome {
    bounce, ///< Richardson's restitution model with spin (resolve.hpp)
    merge,  ///< one sphere: mass, momentum and angular momentum kept, volume added
    stick,  ///< one rigid aggregate of both bodies' spheres below stick_speed, else bounce
};

/// collisions.outcome's names.
inline constexpr EnumNames<ContactOutcome, 3> outcome_names{{{"bounce", ContactOutcome::bounce},
                                                             {"merge", ContactOutcome::merge},
                                                             {"stick", ContactOutcome::stick}}};

/// Which engine moves the bodies once collisions are on (collisions.stepper; run/make_stepper).
enum class ContactStepper {
    automatic,    ///< (default) event_driven for bodies made of spheres, nsc for polyhedra
    event_driven, ///< the exact event-driven drift of hard spheres and aggregates
    nsc, ///< non-smooth contact time stepping (polyhedra/nsc_stepper.hpp), for every grain model
};

/// collisions.stepper's names.
inline constexpr EnumNames<ContactStepper, 3> stepper_names{
    {{"auto", ContactStepper::automatic},
     {"event_driven", ContactStepper::event_driven},
     {"nsc", ContactStepper::nsc}}};

/// How eps_n depends on the normal impact speed.
enum class RestitutionLaw {
    constant,  ///< eps_n everywhere
    power_law, ///< eps_n = min(eps_n, (u_n / v_ref)^-exponent) (Bridges et al. 1984)
};

/// collisions.eps_n_law's names.
inline constexpr EnumNames<RestitutionLaw, 2> restitution_law_names{
    {{"constant", RestitutionLaw::constant}, {"power_law", RestitutionLaw::power_law}}};

/// What to do with pairs found overlapping at the start of a drift (Richardson, "N rigid-body
/// dynamics", PiTP lectures: "Round-off error and overlaps").
enum class OverlapStrategy {
    automatic,  ///< (default) abort for free spheres, repulse when a drift has aggregates
    abort,      ///< stop the run with a report (overlaps of free spheres mean something is wrong)
    trace_back, ///< move the pair back along its relative velocity to touching, resolve, redo
    push_apart, ///< move the pair apart along the line of centres, centre of mass kept
    merge,      ///< merge the pair into one sphere
    repulse,    ///< a repulsive impulse along the line of centres that undoes it in one step
};

/// collisions.overlaps' names.
inline constexpr EnumNames<OverlapStrategy, 6> overlap_strategy_names{
    {{"auto", OverlapStrategy::automatic},
     {"abort", OverlapStrategy::abort},
     {"trace_back", OverlapStrategy::trace_back},
     {"push_apart", OverlapStrategy::push_apart},
     {"merge", OverlapStrategy::merge},
     {"repulse", OverlapStrategy::repulse}}};

/// The strategy that `automatic` stands for. Free spheres: abort, since an exact drift of
/// spheres makes no overlaps and one means something is wrong. Rigid aggregates: repulse, as
/// Richardson's lectures recommend for rigid bodies ("Round-off error and overlaps"): their
/// contacts are found by a root search that stops at the clock's round-off, and resting
/// aggregates touch at several spheres at once, so overlaps of a few ulps beyond the tolerance
/// are expected, and a gentle impulse that undoes them within one step disturbs nothing.
[[nodiscard]] constexpr OverlapStrategy effective_overlaps(OverlapStrategy s, bool aggregates) {
    if (s != OverlapStrategy::automatic) return s;
    return aggregates ? OverlapStrategy::repulse : OverlapStrategy::abort;
}

using boundaries::default_overlap_tolerance;

/// How collisions work once they are on (whether they are on is the run's choice:
/// config::RunConfig::collisions_enabled, passed to run::make_stepper). Each member is the key
/// of [collisions] of the same name, or as noted; its initialiser is the key's default (the
/// parameter table, config/parameter_specs.cpp, takes it from here). The keys shared with
/// polyhedra (eps_n, mu, v_min, overlap_tolerance, walls) are the base's.
struct CollisionConfig : boundaries::ContactConfig {
    ContactStepper stepper = ContactStepper::automatic;
    ContactOutcome outcome = ContactOutcome::bounce;
    /// m/s, outcome = stick: contacts with a normal speed at or below this stick (0: all)
    double stick_speed = 0.0;
    double eps_t = 1.0; ///< tangential coefficient in [-1, 1] (1: frictionless)
    RestitutionLaw law = RestitutionLaw::constant; ///< collisions.eps_n_law
    double v_ref = 1.0;      ///< m/s, power_law: speed at which eps_n reaches 1 (eps_n_v_ref)
    double exponent = 0.234; ///< power_law exponent (eps_n_exponent; Bridges et al. 1984, ice)
    double f_crit = 0.0;     ///< elastic if a body moved < f_crit R since its last collision
    OverlapStrategy overlaps = OverlapStrategy::automatic;
    double skin = 0.0; ///< neighbourhood margin, in units of each body's radius (0: adaptive)
    std::int64_t max_per_body = 100000; ///< collisions of one body in one drift before giving up
    double periodic_box = 0.0;          ///< m, side of a periodic cube centred at 0 (0: open)
    bool log = false;                   ///< keep a record of every collision (output.collision_log)
};

/// Throws KeyError (core/error.hpp) naming the key and value of a member out of its range or
/// contradicting another (mu > 0 with eps_t != 1), after boundaries::check_contact_config. The
/// walls' own checks are config/wall_config's.
void check_collision_config(const CollisionConfig& c);

} // namespace rubble::collisions
