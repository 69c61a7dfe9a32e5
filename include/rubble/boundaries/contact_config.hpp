// SPDX-License-Identifier: MIT
#pragma once
// The keys of [collisions] that both contact engines read: the hard-sphere event-driven drift
// (collisions/) and the non-smooth contact stepper of polyhedra (polyhedra/). One struct owns
// them, below both engines, so that a key has one name, one default and one check from the
// parameter file to either engine (docs/collisions.md, docs/polyhedra.md).
#include <vector>

#include "rubble/boundaries/wall.hpp"

namespace rubble::boundaries {

/// Overlap depths at or below this fraction of R1 + R2 are contact, not overlap: the default
/// of collisions.overlap_tolerance, which both the drift and the initial-condition check of a
/// run use. Why 1e-8: a contact resolved by the drift leaves the pair at R1 + R2 up to the
/// round-off of the positions, a few ulps of the coordinates, and touching spheres made by a
/// generator (a lattice) or read from a file carry the same; within 1e7 radii of the origin
/// that is below 1e-9 of R1 + R2, so 1e-8 never calls a contact an overlap, and a depth of
/// 1e-8 (R1 + R2) is far below anything the dynamics notices.
inline constexpr double default_overlap_tolerance = 1e-8;

/// What a contact does, in both engines, and the walls it can be with. Each member is the key
/// of [collisions] of the same name; its initialiser is the key's default (the parameter table,
/// config/parameter_specs.cpp, takes it from here).
struct ContactConfig {
    /// Normal coefficient of restitution in [0, 1] (u_n' = -eps_n u_n; polyhedra: Newton's).
    double eps_n = 0.5;
    /// Coulomb friction coefficient, >= 0: of contacts with rigid aggregates (rigid_impulse.hpp;
    /// 0: the eps_t model; free-sphere contacts keep the eps_t model) and of polyhedra.
    double mu = 0.0;
    /// m/s, >= 0: impacts with a normal speed below this are elastic (spheres) or do not bounce
    /// (polyhedra); 0: off.
    double v_min = 0.0;
    /// Overlap depths up to this fraction of R1 + R2 are contact (find_overlaps.hpp), at the
    /// start of every drift and in the check of the initial conditions; polyhedra count deeper
    /// penetrations of the rounded shapes as overlaps in the step statistics.
    double overlap_tolerance = default_overlap_tolerance;
    /// Walls the bodies collide with (wall.hpp; a box as its six planes; polyhedra take
    /// planes only). None: the drift is exactly the one without walls, and costs nothing more.
    std::vector<Wall> walls;
};

/// Throws KeyError (core/error.hpp) naming the key and value of the first member out of its
/// range.
void check_contact_config(const ContactConfig& c);

} // namespace rubble::boundaries
