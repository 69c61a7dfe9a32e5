// SPDX-License-Identifier: MIT
#pragma once
// The stages of one NscStepper::advance (nsc_stepper.hpp), each a function over value types,
// in the order of Chrono::Multicore's pipeline (broad phase, narrow phase, contact setup, solve,
// state update; Tasora & Anitescu 2011, Mazhar et al. 2015):
//
//   place_bodies          bodies -> Placement (poses, core vertices in the world, reaches)
//   find_candidate_pairs  Placement -> pairs of bodies whose reach spheres meet (broad phase)
//   narrow_phase          pairs -> one ContactManifold per pair (GJK, EPA, manifold.hpp)
//   pair_contacts         manifolds -> FoundContact, in pair order
//   append_wall_contacts, append_fixed_hull_contacts   the same for plane walls, fixed hulls
//   build_solver_contacts FoundContact -> SolverContact (basis, bias, warm start)
//   solve_impulses        contact_solver.hpp's solve_contacts on the step's bodies
//   record_impulses       the impulses as warm starts and NscContact reports
//   apply_impulses_and_drift  the solved velocities, then the drift of the step
//
// A contact changes form three times on the way: a ContactManifold point (features of the two
// cores), a FoundContact (bodies, point, normal, gap: what every kind of partner has in
// common), a SolverContact (lever arms, tangent basis, bias: what the CCP needs), then an
// NscContact with its impulse. Each stage is deterministic and independent of the thread
// count (the narrow phase shares pairs between threads but writes each pair's own slot), so
// advance() gives the same bits with any number of threads.
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "rubble/boundaries/fixed_hull.hpp"
#include "rubble/boundaries/wall.hpp"
#include "rubble/core/bodies.hpp"
#include "rubble/core/polyhedron.hpp"
#include "rubble/core/types.hpp"
#include "rubble/polyhedra/contact_solver.hpp"
#include "rubble/polyhedra/manifold.hpp"
#include "rubble/polyhedra/nsc_stepper.hpp"
#include "rubble/polyhedra/point3.hpp"

namespace rubble::polyhedra {

/// The lengths and speeds of one step's contact search and bias (m, m/s, s).
struct StepScales {
    double h = 0.0;                 ///< s, the step
    double margin = 0.0;            ///< m, the margin in use
    double envelope = 0.0;          ///< m, NscConfig::envelope, or the margin
    double recovery_speed = 0.0;    ///< m/s, NscConfig::recovery_speed, or the automatic one
    bool speculative_faces = false; ///< NscConfig::speculative_faces
};

/// The scales of a step of h with the margin in use: NscConfig's envelope and recovery speed,
/// or their automatic values (the margin; the margin per auto_recovery_steps steps).
[[nodiscard]] StepScales step_scales(const NscConfig& config, double margin, double h);

/// A body's state as the contact search sees it at the start of the step.
struct PlacedBody {
    Pose pose;
    std::vector<Point3> world; ///< core vertices, world
    Point3 lo, hi;             ///< m, the corners of the world-axis box around `world`
    double rim_speed = 0.0;    ///< m/s, |w| times the circumradius: the fastest a vertex turns
};

/// Every body placed, by body row.
struct Placement {
    std::vector<PlacedBody> bodies;
    /// m: the circumradius grown by what the body can cover in the step (h (|v| + |w| R)) and
    /// half the envelope; two bodies whose spheres of these radii meet are candidates.
    std::vector<double> reach;
    std::vector<std::size_t> shape; ///< index into the cores (b.hulls.shape of the body)
};

/// A body pair of the broad phase, rows i < j.
using BodyPair = std::pair<std::int32_t, std::int32_t>;

/// One contact before the solve: what every kind of partner has in common.
struct FoundContact {
    std::int64_t a = 0;  ///< body row
    std::int64_t b = -1; ///< body row, or -1 for a wall or a fixed hull
    /// b = -1: walls[wall], or fixed_hulls[wall - walls.size()]; else -1.
    std::int32_t wall = -1;
    Vec3 point = Vec3::Zero();  ///< m, world
    Vec3 normal = Vec3::Zero(); ///< unit, from b to a
    double gap = 0.0;           ///< m at the start of the step (of the rounded shapes)
    std::uint64_t feature = 0;  ///< warm-start key: manifold feature pair, or wall vertex
    /// m: spheres' rolling radius R_a R_b / (R_a + R_b) (a wall: R_a), which rolling
    /// resistance scales by (SolverContact::radius); 0 for polyhedra.
    double rolling_radius = 0.0;
};

/// Places every body of b (all polyhedra: b.hulls.size() == b.size()) with its core, one of
/// `cores` (by b.hulls.shape), and its reach in a step of s.h.
[[nodiscard]] Placement place_bodies(const Bodies& b, std::span<const shapes::Polyhedron> cores,
                                     const StepScales& s);

/// The broad phase: the pairs whose reach spheres about pos meet, sorted (broad_phase.hpp).
[[nodiscard]] std::vector<BodyPair> find_candidate_pairs(std::span<const Vec3> pos,
                                                         const Placement& placed);

/// The narrow phase: each pair's manifold (empty when out of reach), in pair order. vel: the
/// bodies' free velocities (m/s), which set the pair's approach in the step. Rethrows the
/// first exception of a pair.
[[nodiscard]] std::vector<ContactManifold>
narrow_phase(const Placement& placed, std::span<const shapes::Polyhedron> cores,
             std::span<const Vec3> vel, std::span<const BodyPair> pairs, const StepScales& s);

/// The manifolds' points as contacts, in pair order then point order.
[[nodiscard]] std::vector<FoundContact> pair_contacts(std::span<const BodyPair> pairs,
                                                      std::span<const ContactManifold> manifolds);

/// Where each wall's point is at time t0 (boundaries::wall_point_at).
[[nodiscard]] std::vector<Vec3> wall_points(std::span<const boundaries::Wall> walls, double t0);

/// Appends, wall by wall then body by body, the core vertices of each body within its reach of
/// each plane wall (at wall_at). The bodies' vel, pos and radius are read.
void append_wall_contacts(const Bodies& b, const Placement& placed,
                          std::span<const boundaries::Wall> walls, std::span<const Vec3> wall_at,
                          const StepScales& s, std::vector<FoundContact>& found);

/// Appends, hull by hull then body by body, the manifold points of each body with each fixed
/// hull (fixed_cores: their margin cores) within its reach; their wall index is
/// first_index + the hull's.
void append_fixed_hull_contacts(const Bodies& b, const Placement& placed,
                                std::span<const shapes::Polyhedron> cores,
                                std::span<const boundaries::FixedHull> hulls,
                                std::span<const shapes::Polyhedron> fixed_cores,
                                std::int32_t first_index, const StepScales& s,
                                std::vector<FoundContact>& found);

/// The key of a contact's warm start: body ids and the feature.
[[nodiscard]] NscWarmKey warm_key(const Bodies& b, const FoundContact& f);

/// The contacts as the solver sees them, with what their setup measured.
struct SolverProblem {
    std::vector<SolverContact> contacts; ///< one per FoundContact, same order
    double fastest = 0.0;                ///< m/s, the largest relative speed at a contact
    std::int64_t overlaps = 0; ///< contacts deeper than overlap_tolerance (StepStats::overlaps)
    double max_overlap = 0.0;  ///< largest depth / (R1 + R2) (StepStats::max_overlap)
};

/// Each contact's lever arms, tangent basis, friction, bias (speculative, recovery or
/// restitution) and warm start (from `warm`, the last step's impulses).
[[nodiscard]] SolverProblem build_solver_contacts(const Bodies& b,
                                                  std::span<const FoundContact> found,
                                                  const NscConfig& config,
                                                  std::span<const Vec3> wall_at,
                                                  const StepScales& s, const NscWarmStarts& warm);

/// The solver's view of b: inverse masses and inertias (inertial frame).
struct InverseMasses {
    std::vector<double> inv_mass;
    std::vector<Mat3> inv_inertia;
};
[[nodiscard]] InverseMasses inverse_masses(const Bodies& b);

/// solve_contacts on b's free velocities, with options' reference speed, if 0, the problem's
/// fastest contact; no contacts: b's velocities, converged.
[[nodiscard]] ContactSolution solve_impulses(const Bodies& b, const InverseMasses& inverse,
                                             const SolverProblem& problem,
                                             ContactSolverOptions options);

/// Replaces warm and reports by the solution's impulses (world), contact by contact.
void record_impulses(const Bodies& b, std::span<const FoundContact> found,
                     std::span<const SolverContact> contacts, const ContactSolution& solution,
                     NscWarmStarts& warm, std::vector<NscContact>& reports);

/// The solution's velocities for b, then the drift of the step (integrate::drift).
void apply_impulses_and_drift(Bodies& b, const ContactSolution& solution, double h);

} // namespace rubble::polyhedra
