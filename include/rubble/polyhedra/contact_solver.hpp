// SPDX-License-Identifier: MIT
#pragma once
// Contact impulses of the non-smooth contact (NSC) stepper: the cone complementarity problem
// (CCP) of Anitescu & Tasora 2010 (Comput. Optim. Appl. 47, 207) with Coulomb friction, solved
// by an accelerated projected gradient (APGD, Mazhar, Heyn, Negrut & Tasora 2015, ACM TOG
// 34(3), 32, Algorithm 1) or by projected Gauss-Seidel/SOR (Tasora & Anitescu 2011, CMAME 200,
// 439), with an optional De Saxce fixed point that turns the CCP's relaxed friction law into
// Coulomb's (De Saxce & Feng 1998, Math. Comput. Model. 28, 225; Acary, Cadoux, Lemarechal &
// Malick 2011, ZAMM 91, 155). Equations, residual and stopping rule: docs/polyhedra.md,
// "Contact impulses (NSC)".
//
// Notation (inertial frame, SI). Contact i joins body a to body b (or to a fixed wall, b = -1)
// at the point p, with unit normal n from b to a and tangents t1, t2 ((n, t1, t2) orthonormal).
// Its relative velocity u = v_a + w_a x r_a - v_b - w_b x r_b (r = p - x; for a wall, whose
// mass is infinite, - v_b - w_b x r_b is - v_wall, the velocity of its surface at p) has components
// u = (u_n, u_t1, u_t2) in that basis; u_n > 0 separates. Its impulse gamma = (gamma_n,
// gamma_t1, gamma_t2) acts on a as gamma_n n + gamma_t1 t1 + gamma_t2 t2 at p and on b as its
// opposite. With D the map from impulses to body impulses and M the mass matrix, the velocities
// after the contacts are V = V_free + M^-1 D gamma and u = D^T V. Conditions, per contact:
//   gamma in K = {|gamma_t| <= mu gamma_n},  y = u + (b_n + s) e_n in K* = {mu |y_t| <= y_n},
//   gamma . y = 0,
// with the normal bias b_n from the caller and the shift s = 0 (the CCP: a sliding contact
// separates at u_n + b_n = mu |u_t|) or s = mu |u_t| (Coulomb: u_n + b_n = 0 while sliding).
//
// Residual (both methods, scale-free): with g_i = 3 / trace(N_ii) (kg, the contact's mean
// effective mass; N_ii its 3x3 Delassus block) and y_i as above,
//   residual = max_i |gamma_i - Proj_K(gamma_i - g_i y_i)| / g_i / v_ref,
// the natural map of the complementarity problem as a velocity, relative to the reference speed
// v_ref (SolverOptions::reference_speed, or the largest |u + b_n e_n| at the free velocities and
// |N gamma| at the warm start). It is zero exactly at a solution and at most v_ref * tol after a
// converged solve; in Coulomb mode it is evaluated with the shift of the returned impulses.
#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "rubble/core/enum_names.hpp"
#include "rubble/core/types.hpp"
#include "rubble/integrate/stepper.hpp"

namespace rubble::polyhedra {

/// The bodies as the solver sees them: arrays the caller owns, indexed by the contacts' a, b.
struct SolverBodies {
    std::span<const double> inv_mass;  ///< 1/kg, 0 for a fixed body
    std::span<const Mat3> inv_inertia; ///< 1/(kg m^2), inertial frame, zero for a fixed body
    std::span<const Vec3> vel;         ///< m/s, free velocity of the centre (forces included)
    std::span<const Vec3> spin;        ///< rad/s, free angular velocity, inertial frame
};

/// One contact point between bodies a and b (b = -1: a wall, of infinite mass, whose surface
/// moves at v_wall at the point).
struct SolverContact {
    std::int64_t a = 0;         ///< index into SolverBodies
    std::int64_t b = -1;        ///< index into SolverBodies, or -1 for a wall
    Vec3 r_a = Vec3::Zero();    ///< m, p - x_a
    Vec3 r_b = Vec3::Zero();    ///< m, p - x_b (unused for a wall)
    Vec3 n = Vec3::UnitZ();     ///< unit normal from b to a
    Vec3 t1 = Vec3::UnitX();    ///< unit tangent, orthogonal to n
    Vec3 t2 = Vec3::UnitY();    ///< unit tangent, orthogonal to n and t1
    double mu = 0.0;            ///< Coulomb friction coefficient, >= 0 (0: frictionless)
    double bias = 0.0;          ///< m/s, b_n: u_n + b_n >= 0 (restitution, drift correction)
    Vec3 warm = Vec3::Zero();   ///< N s, (gamma_n, gamma_t1, gamma_t2) to start from
    Vec3 v_wall = Vec3::Zero(); ///< m/s, b = -1: the wall's surface velocity at p (0 otherwise)
    /// Rolling and twisting resistance (PGS only): an angular impulse rho = (rho_n, rho_t1,
    /// rho_t2) on a (and its opposite on b) opposes their relative spin w_a - w_b, bounded by
    /// |rho_n| <= mu_twist radius gamma_n and |(rho_t1, rho_t2)| <= mu_roll radius gamma_n
    /// (Tasora & Anitescu 2013, Meccanica 48, 1643, with dimensionless coefficients on the
    /// contact's rolling radius, as pkdgrav's soft spheres, Schwartz, Richardson & Michel
    /// 2012). All zero: none (the solve is then bit for bit the one without these members).
    double radius = 0.0;   ///< m, the rolling radius (R_a R_b / (R_a + R_b); a wall: R_a)
    double mu_roll = 0.0;  ///< rolling resistance coefficient, >= 0
    double mu_twist = 0.0; ///< twisting resistance coefficient, >= 0
};

enum class ContactMethod {
    apgd, ///< accelerated projected gradient, Nesterov steps, one N gamma product per step
    pgs,  ///< projected Gauss-Seidel/SOR over contacts, O(contacts) per sweep, sequential
};

/// collisions.solver's names.
inline constexpr EnumNames<ContactMethod, 2> contact_method_names{
    {{"apgd", ContactMethod::apgd}, {"pgs", ContactMethod::pgs}}};

/// The metric of PGS's step at each contact (collisions.solver_metric). Each visit of contact i
/// is one projected gradient step on its 3x3 Delassus block N_ii; any positive metric keeps the
/// fixed point the CCP's (a projection in that metric onto K), so the choice only sets how fast
/// the sweeps converge.
enum class PgsMetric {
    /// one scalar step 1 / lambda_max(N_ii) for all three directions, the projection on K
    /// Euclidean (Tasora & Anitescu 2011): the normal direction of a sphere contact then moves
    /// by N_nn / lambda_max = 2/7 of its Gauss-Seidel step
    uniform,
    /// the step diag(N_nn, N_tt, N_tt)^-1 / lambda_max(N~), N_tt the tangents' mean and N~ the
    /// block scaled by that diagonal, with the projection on K in the metric diag(N_nn, N_tt,
    /// N_tt) (on a cone of friction mu sqrt(N_tt / N_nn) in scaled impulses): exact block
    /// Gauss-Seidel where N_ii is diagonal in the contact frame (spheres). Both metrics M are
    /// at least N_ii, so each visit decreases the CCP's quadratic for relaxations omega in
    /// (0, 2) (M / omega - N_ii / 2 positive definite: a proximal block coordinate descent)
    diagonal,
};

inline constexpr EnumNames<PgsMetric, 2> pgs_metric_names{
    {{"uniform", PgsMetric::uniform}, {"diagonal", PgsMetric::diagonal}}};

/// The initialisers of method, max_iterations, tolerance and coulomb_max_iterations are the
/// defaults of collisions.solver, solver_iterations, solver_tolerance and solver_passes
/// (config/parameter_specs.cpp takes them from here).
struct ContactSolverOptions {
    ContactMethod method = ContactMethod::apgd;
    int max_iterations = 100; ///< APGD steps or PGS sweeps per CCP, >= 1
    /// The CCP's residual (relative, see above) at which a CCP is solved, > 0: the stopping
    /// rule of the relaxed mode.
    double tolerance = 1e-6;
    double sor = 1.0;                      ///< PGS relaxation omega, in (0, 2)
    PgsMetric metric = PgsMetric::uniform; ///< PGS: the metric of each contact's step
    bool coulomb = true;            ///< De Saxce fixed point: Coulomb's law instead of the CCP's
    int coulomb_max_iterations = 5; ///< CCPs solved at most in Coulomb mode, >= 1
    /// The residual of Coulomb's law (the shift taken from the impulses themselves) at which
    /// Coulomb mode stops, > 0 (by default, and in a run, the CCP's tolerance).
    double coulomb_tolerance = tolerance;
    double reference_speed = 0.0; ///< m/s, v_ref; 0: from the problem (see above)
};

struct ContactSolution {
    std::vector<Vec3> impulse;    ///< N s, per contact (gamma_n, gamma_t1, gamma_t2)
    std::vector<Vec3> vel;        ///< m/s, per body, V_free + M^-1 D gamma
    std::vector<Vec3> spin;       ///< rad/s, per body, inertial frame
    int iterations = 0;           ///< APGD steps or PGS sweeps, summed over the CCPs solved
    int ccp_solves = 0;           ///< CCPs solved: 1 (0 if the warm start solves it), or the
                                  ///< De Saxce passes in Coulomb mode
    double residual = 0.0;        ///< final residual, relative to reference_speed (see above)
    double shift_change = 0.0;    ///< Coulomb mode: last change of mu |u_t| / reference_speed
    double reference_speed = 0.0; ///< m/s, v_ref used
    /// residual <= tolerance (relaxed mode) or <= coulomb_tolerance (Coulomb mode).
    bool converged = false;
};

/// Solves the contact impulses of `contacts` between `bodies`. Deterministic: the same input
/// gives the same bits with any number of OpenMP threads (fixed summation orders). Throws
/// std::invalid_argument naming the contact or option for bad input (an index out of range, a
/// basis that is not orthonormal to 1e-9, mu < 0, a contact between two fixed bodies, rolling
/// or twisting resistance with APGD, ...). The angular impulses of rolling resistance start
/// from zero at every call (no warm start: nothing to keep between steps).
[[nodiscard]] ContactSolution solve_contacts(const SolverBodies& bodies,
                                             std::span<const SolverContact> contacts,
                                             const ContactSolverOptions& options = {});

/// Projection of x = (normal, t1, t2) on the Coulomb cone {|t| <= mu n} (Euclidean): x itself
/// inside the cone, 0 inside its polar cone {mu |t| <= -n}, else the closest point of the edge
/// in the direction of t. Inline: the solvers' inner loops call it for every contact.
[[nodiscard]] inline Vec3 project_on_cone(const Vec3& x, double mu) {
    const double normal = x.x();
    if (mu == 0) return Vec3(std::max(normal, 0.0), 0, 0);
    const double tangential = x.tail<2>().norm();
    if (tangential <= mu * normal) return x;             // inside the cone
    if (mu * tangential <= -normal) return Vec3::Zero(); // inside the polar cone
    const double n = (normal + mu * tangential) / (1 + mu * mu);
    const double scale = mu * n / tangential;
    return Vec3(n, scale * x.y(), scale * x.z());
}

/// A tangent basis (t1, t2) for the unit normal n, (n, t1, t2) right-handed: t1 is n x e,
/// normalised, with e the coordinate axis least aligned with n (lowest index on ties).
[[nodiscard]] std::pair<Vec3, Vec3> tangent_basis(const Vec3& n);

/// The solution's work for StepStats: contact_iterations, contact_ccp_solves, contact_residual
/// and contact_converged (0 or 1).
[[nodiscard]] std::vector<integrate::WorkCounter> work_counters(const ContactSolution& s);

} // namespace rubble::polyhedra
