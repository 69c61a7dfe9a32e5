// SPDX-License-Identifier: MIT
#pragma once
// What the non-smooth contact stepper of polyhedra (nsc_stepper.hpp, docs/polyhedra.md) is
// told: the keys of [collisions] it shares with the hard-sphere drift (boundaries::
// ContactConfig) and those only polyhedra read (PolyhedralContactConfig). Each member is named
// as its key; its initialiser is the key's default (config/parameter_specs.cpp takes it from
// here).
#include <vector>

#include "rubble/boundaries/contact_config.hpp"
#include "rubble/boundaries/fixed_hull.hpp"
#include "rubble/polyhedra/contact_solver.hpp"

namespace rubble::polyhedra {

/// The keys of [collisions] that only polyhedral grains read. Their friction, restitution,
/// bounce threshold, overlap tolerance and walls are boundaries::ContactConfig's; eps_t, f_crit,
/// the restitution law and the overlap strategies are the hard-sphere engine's.
struct PolyhedralContactConfig {
    /// m, >= 0: the cores are the shapes shrunk by it; 0: auto_margin_fraction of the
    /// smallest inradius of the shapes (about their centres of mass).
    double margin = 0.0;
    /// m, >= 0: gaps up to it (plus the approach in the step) are contacts; 0: the margin.
    double envelope = 0.0;
    /// m/s, >= 0: the most an overlap is pushed apart at; 0: the margin per
    /// auto_recovery_steps steps.
    double recovery_speed = 0.0;
    /// collisions.solver, solver_iterations (max_iterations), solver_passes
    /// (coulomb_max_iterations) and solver_tolerance (tolerance and coulomb_tolerance);
    /// solve_contacts checks them.
    ContactSolverOptions solver;
    /// collisions.speculative_faces: an edge or vertex contact also gets the clipped points of
    /// the faces within speculative_face_cos of its normal (contact_manifold), so that a face
    /// swinging about the one point into the other grain is held within the step. Off by
    /// default: on the 1e4 cloud it lowers the overlaps of the crash but keeps those after it
    /// (docs/polyhedra.md, "A cloud of 1e4 hulls").
    bool speculative_faces = false;
    /// collisions.mu_roll, mu_twist: rolling and twisting resistance at the contacts of
    /// spheres (SolverContact::mu_roll, mu_twist, on the contact's rolling radius), >= 0;
    /// 0: none. They need the PGS solver. Polyhedra resist rolling by their shape: refused
    /// with them (run/make_stepper.cpp).
    double mu_roll = 0.0;
    double mu_twist = 0.0;
    /// Convex polyhedra held in place ([[walls]] of type hull; infinite mass, at rest): their
    /// contacts with the grains are found as between two grains. Each is tested against every
    /// grain (bounding spheres first): meant for a few obstacles, not for a terrain of
    /// thousands of facets.
    std::vector<boundaries::FixedHull> fixed_hulls;
};

/// The NSC stepper's configuration: the shared contact keys and the polyhedral ones, under the
/// names of their keys (mu, eps_n, v_min, overlap_tolerance, walls, margin, ...). Built from a
/// run's collisions::CollisionConfig as NscConfig{collisions, polyhedra}. Its walls
/// are planes (boundaries::WallShape::plane), fixed or moving with their velocity and turning
/// about their normals (infinite mass either way).
struct NscConfig : boundaries::ContactConfig, PolyhedralContactConfig {};

/// Throws KeyError naming the key and value of a member out of its range, or InputError naming
/// a fixed hull that is not placed by a unit quaternion or is not a polyhedron.
void check_polyhedral_contact_config(const PolyhedralContactConfig& c);
/// Both checks above and boundaries::check_contact_config, and throws InputError naming a wall
/// that is not a plane.
void check_nsc_config(const NscConfig& c);

} // namespace rubble::polyhedra
