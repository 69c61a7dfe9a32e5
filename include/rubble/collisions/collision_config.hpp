// SPDX-License-Identifier: MIT
#pragma once
// Everything the parameter file says about collisions (section [collisions], docs/collisions.md).
#include <cstdint>
#include <vector>

#include "rubble/boundaries/fixed_hull.hpp"
#include "rubble/boundaries/wall.hpp"

#include "rubble/core/enum_names.hpp"
#include "rubble/polyhedra/contact_solver.hpp"

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

/// Overlap depths at or below this fraction of R1 + R2 are contact, not overlap: the default
/// of collisions.overlap_tolerance, which both the drift and the initial-condition check of a
/// run use. Why 1e-8: a contact resolved by the drift leaves the pair at R1 + R2 up to the
/// round-off of the positions, a few ulps of the coordinates, and touching spheres made by a
/// generator (a lattice) or read from a file carry the same; within 1e7 radii of the origin
/// that is below 1e-9 of R1 + R2, so 1e-8 never calls a contact an overlap, and a depth of
/// 1e-8 (R1 + R2) is far below anything the dynamics notices.
inline constexpr double default_overlap_tolerance = 1e-8;

/// The keys of [collisions] that only polyhedral grains read (the NSC stepper,
/// polyhedra/nsc_stepper.hpp, docs/polyhedra.md). Their friction is CollisionConfig::mu, their
/// restitution eps_n and their bounce threshold v_min; eps_t, f_crit, the restitution law and
/// the overlap strategies are the hard-sphere engine's.
struct PolyhedralContactConfig {
    double margin = 0.0;         ///< m; 0: automatic (polyhedra::auto_margin_fraction)
    double envelope = 0.0;       ///< m; 0: the margin
    double recovery_speed = 0.0; ///< m/s; 0: automatic (polyhedra::auto_recovery_steps)
    polyhedra::ContactSolverOptions solver;
    /// Convex polyhedra held in place ([[walls]] of type hull): partners of polyhedra only.
    std::vector<boundaries::FixedHull> fixed_hulls;
};

/// How collisions work once they are on (whether they are on is the run's choice:
/// config::RunConfig::collisions_enabled, passed to run::make_stepper).
struct CollisionConfig {
    ContactOutcome outcome = ContactOutcome::bounce;
    /// m/s, outcome = stick: contacts with a normal speed at or below this stick (0: all)
    double stick_speed = 0.0;
    double eps_n = 0.5; ///< normal coefficient of restitution in [0, 1]
    double eps_t = 1.0; ///< tangential coefficient in [-1, 1] (1: frictionless)
    /// Coulomb friction coefficient of contacts with rigid aggregates (rigid_impulse.hpp); 0:
    /// the eps_t model. Free-sphere contacts keep the eps_t model.
    double mu = 0.0;
    RestitutionLaw law = RestitutionLaw::constant;
    double v_ref = 1.0;      ///< m/s, power_law: speed at which eps_n reaches 1
    double exponent = 0.234; ///< power_law exponent (Bridges et al. 1984, ice)
    double v_min = 0.0;      ///< m/s: impacts slower than this are elastic (0: off)
    double f_crit = 0.0;     ///< elastic if a body moved < f_crit R since its last collision
    OverlapStrategy overlaps = OverlapStrategy::automatic;
    /// Overlap depths up to this fraction of R1 + R2 are contact (find_overlaps.hpp), at the
    /// start of every drift and in the check of the initial conditions.
    double overlap_tolerance = default_overlap_tolerance;
    double skin = 0.0; ///< neighbourhood margin, in units of each body's radius (0: adaptive)
    std::int64_t max_per_body = 100000; ///< collisions of one body in one drift before giving up
    double periodic_box = 0.0;          ///< m, side of a periodic cube centred at 0 (0: open)
    bool log = false;                   ///< keep a record of every collision
    /// Walls the spheres collide with (boundaries/wall.hpp; a box as its six planes). None:
    /// the drift is exactly the one without walls, and costs nothing more.
    std::vector<boundaries::Wall> walls;
    PolyhedralContactConfig polyhedra; ///< read only when the bodies are polyhedra
};

} // namespace rubble::collisions
