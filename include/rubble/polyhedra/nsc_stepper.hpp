// SPDX-License-Identifier: MIT
#pragma once
// The non-smooth contact (NSC) stepper of polyhedral grains (issue 21, item 4; docs/polyhedra.md,
// "The NSC stepper"): the contact stage of rubble's kick-drift-kick step for bodies that are
// convex polyhedra.
//
// Velocity-level time stepping (Anitescu & Tasora 2010; Tasora & Anitescu 2011), fitted into the
// leapfrog: Simulation's first half-kick gives each body its free velocity (gravity and external
// fields included); this stepper finds the contacts at the start of the step, solves their
// impulses so that the velocities the drift will use satisfy the contact conditions
// (contact_solver.hpp), and drifts with them (positions on straight lines, orientations by the
// exact torque-free rotation, integrate/free_rotor.hpp, which is the exponential map of Ferrari
// et al. 2017 for a body whose spin is constant and also keeps an asymmetric body's angular
// momentum); the second half-kick follows. The positions of a step are those of semi-implicit
// Euler on the free velocity of the leapfrog, so the gravity of a contact-free cloud is
// integrated by the symplectic leapfrog itself.
//
// Contacts. Each shape is its margin core (shapes::shrunk) grown by a ball of radius `margin`,
// so shallow contacts are separations of the cores, found by GJK (gjk.hpp) rather than depths
// (Ferrari et al. 2017, sec. 2.3); cores that overlap (penetration beyond the margin) get their
// depth and normal from EPA (epa.hpp). Candidate pairs come from the broad phase (bounding
// spheres grown by what the bodies can travel in the step plus the envelope); each pair whose
// gap is within the envelope plus its approach in the step gets a manifold of one to four points
// (manifold.hpp), and so does each grain near a fixed hull; each plane wall gets the core vertices
// within that reach (a moving wall's surface velocity enters the contact's relative velocity). A
// contact with gap g >= 0 allows the bodies to approach by g in the step (a speculative contact: no
// tunnelling, no impulse until it closes); one with g < 0 is pushed apart at no more than
// recovery_speed. Newton restitution eps_n applies to approach speeds above v_min.
//
// Bodies made of spheres (free spheres, rigid aggregates; collisions.stepper = "nsc", issue 35)
// take the same step with the contacts of their spheres (sphere_contacts.hpp) in place of GJK's:
// exact sphere distances, nothing shrunk, the margin only setting the envelope and the recovery
// speed. Resting contacts are then held by the solve, all at once, so that a sphere or
// aggregate pile comes to rest as a polyhedral one does, where the event-driven drift's guards
// against inelastic collapse keep it bouncing (docs/collisions.md, "Resting contacts").
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "rubble/boundaries/fixed_hull.hpp"
#include "rubble/boundaries/wall.hpp"
#include "rubble/integrate/stepper.hpp"
#include "rubble/polyhedra/contact_solver.hpp"
#include "rubble/polyhedra/nsc_config.hpp"
#include "rubble/polyhedra/warm_starts.hpp"

namespace rubble::polyhedra {

/// The automatic margin's fraction of the smallest inradius: thin enough that the rounded
/// corners it makes (radius margin) are invisible at the grain's scale, thick enough that a
/// resting contact is a separation of the cores, found by GJK, not a depth (Ferrari et al.
/// 2017, sec. 2.3).
inline constexpr double auto_margin_fraction = 0.01;
/// The automatic recovery speed undoes an overlap of one margin in this many steps: gentle
/// enough not to launch grains, fast enough that a pile does not sink.
inline constexpr double auto_recovery_steps = 10.0;

/// One contact point of the last advance, for tests and diagnostics.
struct NscContact {
    std::int64_t a = 0;  ///< body row
    std::int64_t b = -1; ///< body row, or -1 for a wall or a fixed hull
    /// b = -1: walls[wall], or fixed_hulls[wall - walls.size()] (NscConfig's); else -1.
    std::int32_t wall = -1;
    Vec3 point = Vec3::Zero();   ///< m, world
    Vec3 normal = Vec3::Zero();  ///< unit, from b to a
    double gap = 0.0;            ///< m at the start of the step
    Vec3 impulse = Vec3::Zero(); ///< N s on a, world
};

class NscStepper final : public integrate::Stepper {
public:
    explicit NscStepper(NscConfig config);
    /// Shrinks the hull shapes of b and the fixed hulls by the collision margin (what every
    /// step uses, kept until the shapes change): a run calls it at start-up, so that a shape
    /// too small for the margin is an InputError before any output exists.
    void prepare(const Bodies& b) {
        if (b.hulls.size() == 0)
            refresh_sphere_margin(b);
        else
            refresh_cores(b);
    }
    [[nodiscard]] std::string name() const override { return "nsc"; }
    [[nodiscard]] std::string summary(const Bodies& b) const override;
    [[nodiscard]] bool resolves_contacts() const override { return true; }
    /// Throws InputError when b mixes polyhedra with bodies of spheres or holds a shape too small
    /// for the margin.
    integrate::StepStats advance(Bodies& b, double h, double t0, bool may_abandon) override;
    /// Keeps the warm starts: an advance changes them only once its solve is done, so one
    /// abandoned before leaves those of the previous step, which go with the restored bodies.
    void discard() override {}
    /// The warm starts (the last step's impulses by contact key), sorted by key: arrays `id`
    /// (body id, partner body id or -1 - wall index), `feature` (the manifold point's feature
    /// key, its 64 bits as int64) and `impulse` (N s, world). In nsc_stepper_state.cpp.
    [[nodiscard]] integrate::StepperState save_state() const override;
    /// Replaces the warm starts by those of a save_state(); throws InputError naming what
    /// does not fit (another stepper's state, a missing or misshapen array, a non-finite
    /// impulse, a key twice).
    void restore_state(const integrate::StepperState& s) override;
    /// The contacts of the last advance, with their impulses.
    [[nodiscard]] const std::vector<NscContact>& contacts() const { return contacts_; }
    /// The margin in use (m): the configured one, or the automatic one once shapes are seen.
    [[nodiscard]] double margin() const { return margin_; }
    /// The solver's report of the last advance.
    [[nodiscard]] const ContactSolution& last_solution() const { return solution_; }

private:
    using WarmKey = NscWarmKey;

    void refresh_cores(const Bodies& b);
    /// Bodies made of spheres: the margin in use, collisions.margin or auto_margin_fraction of
    /// the smallest sphere radius.
    void refresh_sphere_margin(const Bodies& b);
    /// The margin in use, for messages: "collisions.margin = X m" (or the automatic one).
    [[nodiscard]] std::string margin_text() const;

    NscConfig config_;
    double margin_ = 0.0;                           ///< m, config_.margin or the automatic one
    std::shared_ptr<const HullShapes> shapes_seen_; ///< the catalogue cores_ were made from
    std::vector<shapes::Polyhedron> cores_;
    std::vector<shapes::Polyhedron> fixed_cores_; ///< config_.fixed_hulls' margin cores
    NscWarmStarts warm_;                          ///< last step's impulses, world
    std::vector<NscContact> contacts_;
    ContactSolution solution_;
};

} // namespace rubble::polyhedra
