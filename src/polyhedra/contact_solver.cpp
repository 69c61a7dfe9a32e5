// SPDX-License-Identifier: MIT
// Contact impulses of the NSC stepper (polyhedra/contact_solver.hpp; docs/polyhedra.md,
// "Contact impulses (NSC)"). N = D^T M^-1 D is never formed: N gamma is the contacts' world
// impulses f = C^T gamma (C the contact's basis), gathered over each body's contacts as forces
// f and torques r x f (body_increments), then each contact's relative velocity C (dv + dw x r)
// (relative_velocity), all in fixed orders, so sums do not depend on the thread count. A
// contact keeps only its basis and lever arms (no per-contact 3x3 arm or inertia matrices:
// the solver's sweeps are bound by memory traffic), and APGD fuses its per-contact work into
// two sweeps over the contacts and one over the bodies per step.
#include "rubble/polyhedra/contact_solver.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <exception>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include <Eigen/Eigenvalues>

namespace rubble::polyhedra {
namespace {

// Loops over at least this many contacts or bodies are shared between OpenMP threads; below it
// a fork costs more than the loop.
constexpr std::size_t parallel_min = 2048;
// Sums over contacts are taken in fixed blocks of this many terms, added in block order: the
// same bits with any number of threads.
constexpr std::size_t sum_block = 1024;
// APGD: doublings of L in one step before it is taken anyway (L grows by 2^60: only NaN gets
// there).
constexpr int max_backtracks = 60;
// Coulomb mode: each CCP of the fixed point is solved to this fraction of the Coulomb residual
// it starts from (no further: the shift it uses is off by about as much), and at least to the
// smaller of the tolerance and this fraction of the Coulomb tolerance, since the Coulomb
// residual can exceed the CCP's by the change of the shift.
constexpr double coulomb_inexact_fraction = 0.25;
constexpr double coulomb_inner_fraction = 0.5;
// (n, t1, t2) must be orthonormal to this (dimensionless).
constexpr double basis_tolerance = 1e-9;

constexpr double infinity = std::numeric_limits<double>::infinity();
const Vec3 e_n = Vec3::UnitX(); // the normal component in the contact frame

// The problem in the solver's form.
struct Prepared {
    const SolverBodies* bodies = nullptr;
    std::size_t nb = 0, nc = 0;
    std::vector<std::size_t> a, b; // b == nb: a wall
    std::vector<Mat3> basis;       // rows n, t1, t2: world vector -> contact frame
    std::vector<Vec3> r_a, r_b;    // m, lever arms p - x (r_b zero for a wall)
    std::vector<double> mu;
    // b_n e_n - C v_wall (m/s): what the contact velocity u + b_n e_n adds to C (body velocities)
    std::vector<Vec3> offset;
    std::vector<double> weight;     // g_i = 3 / trace(N_ii), kg
    std::vector<double> inv_weight; // 1 / g_i
    std::vector<double> cone;       // 1 / (1 + mu^2), of the projection on the cone's edge
    std::vector<double> step; // PGS only: 1 / lambda_max(N_ii) (1 / N_nn when frictionless), kg
    // PGS with the diagonal metric (PgsMetric::diagonal; else empty): the tangential step
    // 1 / (lambda~ N_tt) (step then holds the normal one, 1 / (lambda~ N_nn)), and the cone of
    // the scaled impulses (gamma_n, ratio gamma_t), ratio = sqrt(N_tt / N_nn): its friction
    // mu ratio and 1 / (1 + (mu ratio)^2).
    std::vector<double> step_t, ratio, mu_scaled, cone_scaled;
    std::vector<Vec3> q; // D^T V_free - C v_wall + b_n e_n, m/s
    // The contacts of each body (CSR, in contact order): entry 2 i for side a, 2 i + 1 for b.
    std::vector<std::size_t> first, entries;
    // PGS only: the contacts in units (runs of consecutive contacts of one pair of bodies:
    // unit u is contacts [unit_start[u], unit_start[u + 1])), and the units by colour (colour
    // k is colour_units[colour_start[k] .. colour_start[k + 1]), in unit order), no two units
    // of a colour sharing a body, except in the last colour when last_colour_serial (swept in
    // order by one thread).
    std::vector<std::size_t> unit_start, colour_start, colour_units;
    bool last_colour_serial = false;
    // PGS only, the same order as positions: the contact at each position of a sweep
    // (colours, then their units, then each unit's contacts), and where the q-th unit of
    // colour_units starts (unit_pos[q] .. unit_pos[q + 1]).
    std::vector<std::size_t> sweep, unit_pos;
    // Rolling and twisting resistance (SolverContact::mu_roll, mu_twist; PGS only), empty when
    // no contact has it: per contact the bounds' lengths mu_roll radius and mu_twist radius (m),
    // the radius (m, which turns a relative spin into a velocity for the residual), the step
    // 1 / lambda_max(C (A_a + A_b) C^T) of its angular Delassus block (kg m^2) and the weight
    // 3 / trace of that block.
    std::vector<double> roll, twist, lever, angular_step, angular_weight;
};

std::string contact_text(std::size_t i) {
    return "solve_contacts: contact " + std::to_string(i) + ": ";
}

bool finite(const Vec3& v) {
    return v.allFinite();
}

void check_contact(const SolverContact& c, std::size_t i, std::size_t nb) {
    const auto fail = [&](const std::string& what) {
        throw std::invalid_argument(contact_text(i) + what);
    };
    if (c.a < 0 || static_cast<std::size_t>(c.a) >= nb)
        fail("a = " + std::to_string(c.a) + " is not a body index (bodies: " + std::to_string(nb) +
             ")");
    if (c.b < -1 || (c.b >= 0 && static_cast<std::size_t>(c.b) >= nb) || c.b == c.a)
        fail("b = " + std::to_string(c.b) + " must be -1 (wall) or a body index other than a");
    if (!finite(c.r_a) || !finite(c.r_b) || !finite(c.n) || !finite(c.t1) || !finite(c.t2) ||
        !finite(c.warm) || !finite(c.v_wall) || !std::isfinite(c.bias))
        fail("offsets, basis, bias, warm start and wall velocity must be finite");
    if (c.b >= 0 && c.v_wall != Vec3::Zero())
        fail("a wall velocity on a contact between two bodies (b = " + std::to_string(c.b) + ")");
    const double off =
        std::max({std::abs(c.n.norm() - 1), std::abs(c.t1.norm() - 1), std::abs(c.t2.norm() - 1),
                  std::abs(c.n.dot(c.t1)), std::abs(c.n.dot(c.t2)), std::abs(c.t1.dot(c.t2))});
    if (!(off <= basis_tolerance)) {
        std::ostringstream s;
        s << "(n, t1, t2) is not orthonormal (off by " << off << ", allowed " << basis_tolerance
          << ")";
        fail(s.str());
    }
    if (!(c.mu >= 0) || !std::isfinite(c.mu))
        fail("mu = " + std::to_string(c.mu) + ": must be finite and >= 0");
    if (!(c.radius >= 0) || !std::isfinite(c.radius) || !(c.mu_roll >= 0) ||
        !std::isfinite(c.mu_roll) || !(c.mu_twist >= 0) || !std::isfinite(c.mu_twist))
        fail("radius, mu_roll and mu_twist must be finite and >= 0");
}

// Whether contact c resists rolling or twisting.
bool resists_turning(const SolverContact& c) {
    return c.radius > 0 && (c.mu_roll > 0 || c.mu_twist > 0);
}

void check_bodies(const SolverBodies& bodies) {
    const std::size_t nb = bodies.inv_mass.size();
    if (bodies.inv_inertia.size() != nb || bodies.vel.size() != nb || bodies.spin.size() != nb)
        throw std::invalid_argument("solve_contacts: inv_mass, inv_inertia, vel and spin must "
                                    "have one entry per body");
    for (std::size_t k = 0; k < nb; ++k)
        if (!(bodies.inv_mass[k] >= 0) || !std::isfinite(bodies.inv_mass[k]) ||
            !bodies.inv_inertia[k].allFinite() || !finite(bodies.vel[k]) || !finite(bodies.spin[k]))
            throw std::invalid_argument("solve_contacts: body " + std::to_string(k) +
                                        ": inverse mass must be finite and >= 0, inverse "
                                        "inertia and velocities finite");
}

void check_options(const ContactSolverOptions& o) {
    const auto fail = [](const std::string& key, double value, const std::string& range) {
        std::ostringstream s;
        s << "contact solver: " << key << " = " << value << ": must be " << range;
        throw std::invalid_argument(s.str());
    };
    if (o.method != ContactMethod::apgd && o.method != ContactMethod::pgs)
        throw std::invalid_argument("contact solver: method must be apgd or pgs");
    if (o.max_iterations < 1) fail("max_iterations", o.max_iterations, ">= 1");
    if (!(o.tolerance > 0) || !std::isfinite(o.tolerance))
        fail("tolerance", o.tolerance, "finite and > 0");
    if (!(o.sor > 0 && o.sor < 2)) fail("sor", o.sor, "in (0, 2)");
    if (o.coulomb_max_iterations < 1)
        fail("coulomb_max_iterations", o.coulomb_max_iterations, ">= 1");
    if (!(o.coulomb_tolerance > 0) || !std::isfinite(o.coulomb_tolerance))
        fail("coulomb_tolerance", o.coulomb_tolerance, "finite and > 0");
    if (!(o.reference_speed >= 0) || !std::isfinite(o.reference_speed))
        fail("reference_speed", o.reference_speed, "finite and >= 0 m/s (0: automatic)");
}

Mat3 rows(const Vec3& x, const Vec3& y, const Vec3& z) {
    Mat3 m;
    m.row(0) = x.transpose();
    m.row(1) = y.transpose();
    m.row(2) = z.transpose();
    return m;
}

// The relative velocity (u_n, u_t1, u_t2) of contact i for body velocities v, w (m/s):
// C (v_a + w_a x r_a - v_b - w_b x r_b).
Vec3 relative_velocity(const Prepared& p, std::size_t i, const Vec3* v, const Vec3* w) {
    const std::size_t a = p.a[i], b = p.b[i];
    Vec3 lin = v[a] + w[a].cross(p.r_a[i]);
    if (b != p.nb) lin -= v[b] + w[b].cross(p.r_b[i]);
    return p.basis[i] * lin;
}

// The arm matrix of lever r: rows r x n, r x t1, r x t2 (maps a spin to its contact velocity).
Mat3 arm(const Vec3& r, const SolverContact& c) {
    return rows(r.cross(c.n), r.cross(c.t1), r.cross(c.t2));
}

// The CSR lists of contacts per body, in contact order.
void build_lists(Prepared& p) {
    p.first.assign(p.nb + 1, 0);
    for (std::size_t i = 0; i < p.nc; ++i) {
        ++p.first[p.a[i] + 1];
        if (p.b[i] != p.nb) ++p.first[p.b[i] + 1];
    }
    for (std::size_t k = 0; k < p.nb; ++k)
        p.first[k + 1] += p.first[k];
    p.entries.resize(p.first[p.nb]);
    std::vector<std::size_t> next(p.first.begin(), p.first.end() - 1);
    for (std::size_t i = 0; i < p.nc; ++i) {
        p.entries[next[p.a[i]]++] = 2 * i;
        if (p.b[i] != p.nb) p.entries[next[p.b[i]]++] = 2 * i + 1;
    }
}

// PGS's sweep order (Prepared::unit_start, colour_start, colour_units): greedy colouring of
// the units in contact order, each the lowest colour that none of its bodies has yet. The
// units of a colour touch disjoint bodies, so threads may sweep them at once, and the result
// does not depend on how many do: each contact reads bodies that only other colours change.
// Colours beyond the 64 of a body's mask (a body in more than 64 pairs) go to one last
// colour swept in order by one thread.
void colour_units(Prepared& p) {
    constexpr int serial_colour = 64;
    p.unit_start.clear();
    for (std::size_t i = 0; i < p.nc; ++i)
        if (i == 0 || p.a[i] != p.a[i - 1] || p.b[i] != p.b[i - 1]) p.unit_start.push_back(i);
    p.unit_start.push_back(p.nc);
    const std::size_t units = p.unit_start.size() - 1;
    std::vector<std::uint64_t> taken(p.nb + 1, 0); // colours used by each body; nb: walls
    std::vector<int> colour(units);
    std::vector<std::size_t> count(serial_colour + 2, 0);
    for (std::size_t u = 0; u < units; ++u) {
        const std::size_t i = p.unit_start[u];
        const std::uint64_t b_taken = p.b[i] == p.nb ? 0 : taken[p.b[i]];
        const std::uint64_t free = ~(taken[p.a[i]] | b_taken);
        const int c = free == 0 ? serial_colour : std::countr_zero(free);
        if (c < serial_colour) {
            taken[p.a[i]] |= std::uint64_t{1} << c;
            if (p.b[i] != p.nb) taken[p.b[i]] |= std::uint64_t{1} << c;
        }
        colour[u] = c;
        ++count[static_cast<std::size_t>(c) + 1];
    }
    p.last_colour_serial = count[serial_colour + 1] > 0;
    std::size_t used = 0; // colours in use: 0 .. used - 1, then the serial one if any
    while (used < serial_colour && count[used + 1] > 0)
        ++used;
    p.colour_start.assign(1, 0);
    std::vector<std::size_t> next(serial_colour + 1);
    for (std::size_t c = 0; c <= serial_colour; ++c) {
        next[c] = p.colour_start.back();
        if (c < used || (c == serial_colour && p.last_colour_serial))
            p.colour_start.push_back(p.colour_start.back() + count[c + 1]);
    }
    p.colour_units.resize(units);
    for (std::size_t u = 0; u < units; ++u)
        p.colour_units[next[static_cast<std::size_t>(colour[u])]++] = u;
    p.sweep.clear();
    p.unit_pos.clear();
    for (const std::size_t u : p.colour_units) {
        p.unit_pos.push_back(p.sweep.size());
        for (std::size_t i = p.unit_start[u]; i < p.unit_start[u + 1]; ++i)
            p.sweep.push_back(i);
    }
    p.unit_pos.push_back(p.sweep.size());
}

Prepared prepare(const SolverBodies& bodies, std::span<const SolverContact> contacts, bool pgs,
                 bool diagonal) {
    check_bodies(bodies);
    Prepared p;
    p.bodies = &bodies;
    p.nb = bodies.inv_mass.size();
    p.nc = contacts.size();
    p.a.resize(p.nc);
    p.b.resize(p.nc);
    p.basis.resize(p.nc);
    p.r_a.resize(p.nc);
    p.r_b.assign(p.nc, Vec3::Zero());
    p.mu.resize(p.nc);
    p.offset.resize(p.nc);
    p.weight.resize(p.nc);
    p.inv_weight.resize(p.nc);
    p.cone.resize(p.nc);
    if (pgs) p.step.resize(p.nc);
    if (pgs && diagonal) {
        p.step_t.resize(p.nc);
        p.ratio.resize(p.nc);
        p.mu_scaled.resize(p.nc);
        p.cone_scaled.resize(p.nc);
    }
    p.q.resize(p.nc);
    const bool turning = std::any_of(contacts.begin(), contacts.end(), resists_turning);
    if (turning) {
        if (!pgs)
            throw std::invalid_argument("solve_contacts: rolling and twisting resistance "
                                        "(mu_roll, mu_twist) need the PGS solver");
        p.roll.assign(p.nc, 0.0);
        p.twist.assign(p.nc, 0.0);
        p.lever.assign(p.nc, 0.0);
        p.angular_step.assign(p.nc, 0.0);
        p.angular_weight.assign(p.nc, 0.0);
    }
    const auto prepare_contact = [&](std::size_t i) {
        const SolverContact& c = contacts[i];
        check_contact(c, i, p.nb);
        p.a[i] = static_cast<std::size_t>(c.a);
        p.b[i] = c.b < 0 ? p.nb : static_cast<std::size_t>(c.b);
        p.basis[i] = rows(c.n, c.t1, c.t2);
        p.r_a[i] = c.r_a;
        // N_ii = (1/m_a + 1/m_b) 1 + R_a A_a R_a^T + R_b A_b R_b^T (basis orthonormal, so
        // C C^T = 1), with R the arm matrix and A the inverse inertia.
        const Mat3 arm_a = arm(c.r_a, c);
        Mat3 block = arm_a * bodies.inv_inertia[p.a[i]] * arm_a.transpose();
        double inv_mass = bodies.inv_mass[p.a[i]];
        if (p.b[i] != p.nb) {
            p.r_b[i] = c.r_b;
            const Mat3 arm_b = arm(c.r_b, c);
            block += arm_b * bodies.inv_inertia[p.b[i]] * arm_b.transpose();
            inv_mass += bodies.inv_mass[p.b[i]];
        }
        block.diagonal().array() += inv_mass;
        const double trace = block.trace();
        if (!(trace > 0))
            throw std::invalid_argument(contact_text(i) +
                                        "joins two fixed bodies (its Delassus block is zero)");
        p.mu[i] = c.mu;
        p.offset[i] = c.bias * e_n - p.basis[i] * c.v_wall;
        p.weight[i] = 3.0 / trace;
        p.inv_weight[i] = trace / 3.0;
        p.cone[i] = 1.0 / (1.0 + c.mu * c.mu);
        if (pgs && c.mu == 0) {
            p.step[i] = 1.0 / block(0, 0);
            if (diagonal) { // frictionless: the normal step alone matters
                p.step_t[i] = p.step[i];
                p.ratio[i] = 1.0;
                p.mu_scaled[i] = 0.0;
                p.cone_scaled[i] = 1.0;
            }
        } else if (pgs && !diagonal) {
            Eigen::SelfAdjointEigenSolver<Mat3> eigen;
            eigen.computeDirect(block, Eigen::EigenvaluesOnly);
            p.step[i] = 1.0 / eigen.eigenvalues().maxCoeff();
        } else if (pgs) {
            // The metric lambda~ diag(N_nn, N_tt, N_tt), lambda~ the largest eigenvalue of the
            // block scaled by that diagonal (1 where the block is diagonal: spheres).
            const double nn = block(0, 0), tt = 0.5 * (block(1, 1) + block(2, 2));
            const Vec3 scale(1.0 / std::sqrt(nn), 1.0 / std::sqrt(tt), 1.0 / std::sqrt(tt));
            const Mat3 scaled = scale.asDiagonal() * block * scale.asDiagonal();
            Eigen::SelfAdjointEigenSolver<Mat3> eigen;
            eigen.computeDirect(scaled, Eigen::EigenvaluesOnly);
            const double largest = eigen.eigenvalues().maxCoeff();
            p.step[i] = 1.0 / (largest * nn);
            p.step_t[i] = 1.0 / (largest * tt);
            p.ratio[i] = std::sqrt(tt / nn);
            p.mu_scaled[i] = c.mu * p.ratio[i];
            p.cone_scaled[i] = 1.0 / (1.0 + p.mu_scaled[i] * p.mu_scaled[i]);
        }
        p.q[i] = relative_velocity(p, i, bodies.vel.data(), bodies.spin.data()) + p.offset[i];
        if (turning && resists_turning(c)) {
            // The angular block C (A_a + A_b) C^T: what an angular impulse does to the
            // relative spin in the contact frame.
            Mat3 inverse = bodies.inv_inertia[p.a[i]];
            if (p.b[i] != p.nb) inverse += bodies.inv_inertia[p.b[i]];
            const Mat3 angular = p.basis[i] * inverse * p.basis[i].transpose();
            Eigen::SelfAdjointEigenSolver<Mat3> eigen;
            eigen.computeDirect(angular, Eigen::EigenvaluesOnly);
            const double largest = eigen.eigenvalues().maxCoeff();
            if (largest > 0) {
                p.roll[i] = c.mu_roll * c.radius;
                p.twist[i] = c.mu_twist * c.radius;
                p.lever[i] = c.radius;
                p.angular_step[i] = 1.0 / largest;
                p.angular_weight[i] = 3.0 / angular.trace();
            }
        }
    };
    // Each contact on its own; of bad ones, the first in contact order is reported.
    std::size_t first_bad = p.nc;
    std::exception_ptr bad;
#pragma omp parallel for schedule(static) if (p.nc >= parallel_min)
    for (std::size_t i = 0; i < p.nc; ++i) {
        try {
            prepare_contact(i);
        } catch (...) {
#pragma omp critical(rubble_solver_prepare)
            if (i < first_bad) {
                first_bad = i;
                bad = std::current_exception();
            }
        }
    }
    if (bad) std::rethrow_exception(bad);
    build_lists(p);
    if (pgs) colour_units(p);
    return p;
}

// M^-1 D gamma from the contacts' world impulses f_i = C_i^T gamma_i: the velocity and spin
// increments of every body (m/s, rad/s).
void body_increments(const Prepared& p, const std::vector<Vec3>& f, std::vector<Vec3>& dv,
                     std::vector<Vec3>& dw, const std::vector<Vec3>* moments = nullptr) {
    dv.resize(p.nb);
    dw.resize(p.nb);
#pragma omp parallel for schedule(static) if (p.nb >= parallel_min)
    for (std::size_t k = 0; k < p.nb; ++k) {
        Vec3 force = Vec3::Zero(), torque = Vec3::Zero();
        for (std::size_t e = p.first[k]; e < p.first[k + 1]; ++e) {
            const std::size_t i = p.entries[e] / 2;
            if (p.entries[e] % 2 == 0) {
                force += f[i];
                torque += p.r_a[i].cross(f[i]);
                if (moments) torque += (*moments)[i];
            } else {
                force -= f[i];
                torque -= p.r_b[i].cross(f[i]);
                if (moments) torque -= (*moments)[i];
            }
        }
        dv[k] = p.bodies->inv_mass[k] * force;
        dw[k] = p.bodies->inv_inertia[k] * torque;
    }
}

// Scratch space of one solve.
struct Workspace {
    std::vector<Vec3> f;         // world impulses, N s
    std::vector<Vec3> dv, dw;    // body increments
    std::vector<Vec3> vel, spin; // body velocities
    std::vector<double> partial; // block sums
    std::vector<double> shift;   // De Saxce: mu |u_t| per contact, m/s
    std::vector<Vec3> y;         // contact velocities u + b_n e_n, m/s
    std::vector<Vec3> moments;   // rolling resistance: world angular impulses, N m s
};

// f_i = C_i^T gamma_i (N s, world) for every contact.
void world_impulses(const Prepared& p, const std::vector<Vec3>& gamma, std::vector<Vec3>& f) {
    f.resize(p.nc);
#pragma omp parallel for schedule(static) if (p.nc >= parallel_min)
    for (std::size_t i = 0; i < p.nc; ++i)
        f[i] = p.basis[i].transpose() * gamma[i];
}

// N gamma (m/s) into out.
void delassus_product(const Prepared& p, const std::vector<Vec3>& gamma, std::vector<Vec3>& out,
                      Workspace& w) {
    world_impulses(p, gamma, w.f);
    body_increments(p, w.f, w.dv, w.dw);
    out.resize(p.nc);
#pragma omp parallel for schedule(static) if (p.nc >= parallel_min)
    for (std::size_t i = 0; i < p.nc; ++i)
        out[i] = relative_velocity(p, i, w.dv.data(), w.dw.data());
}

// The velocities after the impulses (w.vel, w.spin) and the contact velocities with bias (w.y);
// with rho (rolling resistance), its angular impulses too.
void evaluate(const Prepared& p, const std::vector<Vec3>& gamma, Workspace& w,
              const std::vector<Vec3>* rho = nullptr) {
    world_impulses(p, gamma, w.f);
    if (rho && !rho->empty()) {
        world_impulses(p, *rho, w.moments); // the angular impulses, C^T rho, in the world
        body_increments(p, w.f, w.dv, w.dw, &w.moments);
    } else {
        body_increments(p, w.f, w.dv, w.dw);
    }
    w.vel.resize(p.nb);
    w.spin.resize(p.nb);
    for (std::size_t k = 0; k < p.nb; ++k) {
        w.vel[k] = p.bodies->vel[k] + w.dv[k];
        w.spin[k] = p.bodies->spin[k] + w.dw[k];
    }
    w.y.resize(p.nc);
#pragma omp parallel for schedule(static) if (p.nc >= parallel_min)
    for (std::size_t i = 0; i < p.nc; ++i)
        w.y[i] = relative_velocity(p, i, w.vel.data(), w.spin.data()) + p.offset[i];
}

// The sum of term(i) over i < n, in fixed blocks added in order (the same bits for any number
// of threads).
template <class Term> double ordered_sum(std::size_t n, std::vector<double>& partial, Term term) {
    const std::size_t blocks = (n + sum_block - 1) / sum_block;
    partial.assign(blocks, 0.0);
#pragma omp parallel for schedule(static) if (n >= parallel_min)
    for (std::size_t k = 0; k < blocks; ++k) {
        double s = 0;
        const std::size_t end = std::min(n, (k + 1) * sum_block);
        for (std::size_t i = k * sum_block; i < end; ++i)
            s += term(i);
        partial[k] = s;
    }
    double total = 0;
    for (const double s : partial)
        total += s;
    return total;
}

// project_on_cone with cone = 1 / (1 + mu^2), without its divisions and square roots where the
// point is inside the cone or its polar cone (the tests squared), which is what the solvers' sweeps
// mostly meet.
Vec3 project_on(double mu, double cone, const Vec3& x) {
    const double normal = x.x();
    if (mu == 0) return Vec3(std::max(normal, 0.0), 0, 0);
    const double t2 = x.y() * x.y() + x.z() * x.z(), mu2 = mu * mu;
    if (normal >= 0 && t2 <= mu2 * normal * normal) return x;            // inside the cone
    if (normal <= 0 && mu2 * t2 <= normal * normal) return Vec3::Zero(); // inside the polar cone
    const double t = std::sqrt(t2);                                      // > 0 here
    const double n = (normal + mu * t) * cone;
    const double scale = mu * n / t;
    return Vec3(n, scale * x.y(), scale * x.z());
}

Vec3 project(const Prepared& p, std::size_t i, const Vec3& x) {
    return project_on(p.mu[i], p.cone[i], x);
}

// (|gamma - Proj_K(gamma - g y)| / g)^2 (m^2/s^2): the natural map of contact i as a velocity,
// squared (the square root is taken once, of the largest); a NaN counts as infinite so that it
// can never pass a test.
double residual2(const Prepared& p, std::size_t i, const Vec3& gamma, const Vec3& y) {
    const double r2 = (gamma - project(p, i, gamma - p.weight[i] * y)).squaredNorm() *
                      (p.inv_weight[i] * p.inv_weight[i]);
    return r2 <= infinity ? r2 : infinity;
}

// The angular impulse x projected on the set rolling resistance allows contact i when its
// normal impulse is gamma_n: |rho_n| <= twist gamma_n, |(rho_t1, rho_t2)| <= roll gamma_n (a
// product of an interval and a disc, so projected part by part).
Vec3 project_turning(double twist, double roll, double gamma_n, const Vec3& x) {
    const double twist_max = twist * std::max(gamma_n, 0.0);
    const double roll_max = roll * std::max(gamma_n, 0.0);
    Vec3 out(std::clamp(x.x(), -twist_max, twist_max), x.y(), x.z());
    const double t = out.tail<2>().norm();
    if (t > roll_max) out.tail<2>() *= roll_max > 0 ? roll_max / t : 0.0;
    return out;
}

// The largest rolling-resistance residual (m/s): per resisting contact, the natural map of its
// angular impulse rho_i at the relative spin w_a - w_b (contact frame), |rho - Proj(rho - g
// w)| / g with g its angular weight, times its radius; 0 when no contact resists.
double max_turning_residual(const Prepared& p, const std::vector<Vec3>& gamma,
                            const std::vector<Vec3>& rho, const std::vector<Vec3>& spin) {
    if (rho.empty()) return 0.0;
    double r2 = 0;
    for (std::size_t i = 0; i < p.nc; ++i) {
        if (p.angular_step[i] == 0) continue;
        Vec3 relative = spin[p.a[i]];
        if (p.b[i] != p.nb) relative -= spin[p.b[i]];
        const double g = p.angular_weight[i];
        const Vec3 moved = rho[i] - project_turning(p.twist[i], p.roll[i], gamma[i].x(),
                                                    rho[i] - g * (p.basis[i] * relative));
        const double m2 = moved.squaredNorm() * (p.lever[i] * p.lever[i]) / (g * g);
        r2 = m2 <= r2 ? r2 : (m2 <= infinity ? m2 : infinity);
    }
    return std::sqrt(r2);
}

// The largest contact residual (m/s) for contact velocities y(i) without the shift.
template <class Velocity>
double max_residual(const Prepared& p, const std::vector<Vec3>& gamma,
                    const std::vector<double>& shift, Velocity y) {
    double r2 = 0;
#pragma omp parallel for schedule(static) reduction(max : r2) if (p.nc >= parallel_min)
    for (std::size_t i = 0; i < p.nc; ++i)
        r2 = std::max(r2, residual2(p, i, gamma[i], y(i) + shift[i] * e_n));
    return std::sqrt(r2);
}

// The shifts mu |u_t| of the contact velocities y(i) (the shift's own normal term does not
// enter |u_t|), into shift; returns the largest change (m/s).
template <class Velocity>
double update_shift(const Prepared& p, Velocity y, std::vector<double>& shift) {
    double change = 0;
    for (std::size_t i = 0; i < p.nc; ++i) {
        const double s = p.mu[i] * y(i).template tail<2>().norm();
        change = std::max(change, std::abs(s - shift[i]));
        shift[i] = s;
    }
    return change;
}

struct CcpResult {
    int iterations = 0;
    double residual = 0; // m/s
    bool converged = false;
};

// A contact as PGS sweeps it: what its update reads, packed, in sweep order (Prepared::sweep),
// so that a sweep streams through memory instead of striding over a dozen arrays in colour
// order. The same numbers as Prepared's, so the same arithmetic and bits.
struct PgsContact {
    Mat3 basis;
    Vec3 r_a, r_b, offset;
    double step, mu, cone; // step: omega / lambda_max(N_ii) (diagonal metric: the normal one)
    // The diagonal metric (Prepared::step_t ...): omega times the tangential step, the ratio
    // that scales the tangential impulse, and the scaled cone.
    double step_t, ratio, mu_scaled, cone_scaled;
    std::size_t a, b; // b == nb: a wall
    // Rolling resistance (Prepared::roll ...; angular_step 0: none at this contact).
    double roll, twist, lever, angular_step;
};

// A body as PGS updates it: its velocities and inverse mass and inertia in one place.
struct PgsBody {
    Vec3 v, w;
    double inv_mass;
    Mat3 inv_inertia;
};

// Projected Gauss-Seidel/SOR: per contact in colour order (Prepared::sweep), one projected
// gradient step on its Delassus block with the scalar step omega / lambda_max(N_ii) (a descent
// step, so f decreases at every update), the body velocities updated at once. With
// `local_shift` (Coulomb mode) the contact's shift mu |u_t| is taken from its velocity at the
// visit, as every other coupling is in Gauss-Seidel, instead of being held for a whole CCP:
// one sweep then solves Coulomb's law itself (the local De Saxce step of the nonsmooth
// Gauss-Seidel solvers, De Saxce & Feng 1998; Acary, Bremond & Huber 2018), which a settled
// pile needs far fewer sweeps for than a sequence of CCPs does.
//
// The sweep watches |Delta gamma_i| / t_i (t_i the step): the natural map with step t_i, which
// bounds the residual's (step g_i >= t_i when omega <= 1), since |x - Proj_K(x - t y)| / t does
// not increase with t (Calamai & More 1987, Lemma 2.2). When every contact's is small the
// residual of the whole state is worth computing.
CcpResult solve_pgs(const Prepared& p, const ContactSolverOptions& o, double tolerance,
                    bool local_shift, std::vector<Vec3>& gamma, std::vector<Vec3>& rho,
                    Workspace& w) {
    evaluate(p, gamma, w, &rho);
    const auto current = [&](std::size_t i) -> Vec3 {
        return relative_velocity(p, i, w.vel.data(), w.spin.data()) + p.offset[i];
    };
    const auto residual = [&] {
        return std::max(max_residual(p, gamma, w.shift, current),
                        max_turning_residual(p, gamma, rho, w.spin));
    };
    double res = residual();
    if (res <= tolerance) return {0, res, true};

    const bool parallel = p.nc >= parallel_min;
    const bool diagonal = o.metric == PgsMetric::diagonal;
    const bool turning = !rho.empty();
    std::vector<PgsContact> pc(p.nc);
    std::vector<Vec3> g(p.nc), turn(turning ? p.nc : 0);
    std::vector<double> shift(p.nc);
#pragma omp parallel for schedule(static) if (parallel)
    for (std::size_t k = 0; k < p.nc; ++k) {
        const std::size_t i = p.sweep[k];
        pc[k] = PgsContact{p.basis[i],
                           p.r_a[i],
                           p.r_b[i],
                           p.offset[i],
                           o.sor * p.step[i],
                           p.mu[i],
                           p.cone[i],
                           diagonal ? o.sor * p.step_t[i] : 0.0,
                           diagonal ? p.ratio[i] : 1.0,
                           diagonal ? p.mu_scaled[i] : 0.0,
                           diagonal ? p.cone_scaled[i] : 1.0,
                           p.a[i],
                           p.b[i],
                           turning ? p.roll[i] : 0.0,
                           turning ? p.twist[i] : 0.0,
                           turning ? p.lever[i] : 0.0,
                           turning ? o.sor * p.angular_step[i] : 0.0};
        g[k] = gamma[i];
        shift[k] = w.shift[i];
        if (turning) turn[k] = rho[i];
    }
    std::vector<PgsBody> pb(p.nb);
    for (std::size_t k = 0; k < p.nb; ++k)
        pb[k] = PgsBody{w.vel[k], w.spin[k], p.bodies->inv_mass[k], p.bodies->inv_inertia[k]};
    // Back to the caller's order, for the residual of the whole state and the result.
    const auto unpack = [&] {
#pragma omp parallel for schedule(static) if (parallel)
        for (std::size_t k = 0; k < p.nc; ++k) {
            gamma[p.sweep[k]] = g[k];
            w.shift[p.sweep[k]] = shift[k];
            if (turning) rho[p.sweep[k]] = turn[k];
        }
        for (std::size_t k = 0; k < p.nb; ++k) {
            w.vel[k] = pb[k].v;
            w.spin[k] = pb[k].w;
        }
        if (local_shift) update_shift(p, current, w.shift);
    };

    // One contact's update; `sweep` keeps the largest (|Delta gamma| / step)^2 (m^2/s^2), and
    // a NaN, once met.
    const auto visit = [&](std::size_t k, double& sweep) {
        const PgsContact& c = pc[k];
        PgsBody& ba = pb[c.a];
        Vec3 lin = ba.v + ba.w.cross(c.r_a);
        if (c.b != p.nb) lin -= pb[c.b].v + pb[c.b].w.cross(c.r_b);
        Vec3 y = c.basis * lin + c.offset;
        if (local_shift) shift[k] = c.mu * y.tail<2>().norm();
        y.x() += shift[k];
        const Vec3 old = g[k];
        if (!diagonal) {
            g[k] = project_on(c.mu, c.cone, old - c.step * y);
        } else {
            // The step in the metric, then the projection on K in it: on the scaled cone in
            // the scaled impulses (gamma_n, ratio gamma_t).
            const double n = old.x() - c.step * y.x();
            const Eigen::Vector2d t = c.ratio * (old.tail<2>() - c.step_t * y.tail<2>());
            const Vec3 scaled = project_on(c.mu_scaled, c.cone_scaled, Vec3(n, t.x(), t.y()));
            g[k] = Vec3(scaled.x(), scaled.y() / c.ratio, scaled.z() / c.ratio);
        }
        const Vec3 change = g[k] - old;
        const double moved2 = !diagonal
                                  ? change.squaredNorm() / (c.step * c.step)
                                  : change.x() * change.x() / (c.step * c.step) +
                                        change.tail<2>().squaredNorm() / (c.step_t * c.step_t);
        sweep = moved2 > sweep || moved2 != moved2 ? moved2 : sweep;
        const Vec3 f = c.basis.transpose() * change;
        ba.v += ba.inv_mass * f;
        ba.w += ba.inv_inertia * c.r_a.cross(f);
        if (c.b != p.nb) {
            PgsBody& bb = pb[c.b];
            bb.v -= bb.inv_mass * f;
            bb.w -= bb.inv_inertia * c.r_b.cross(f);
        }
        if (c.angular_step == 0) return;
        // Rolling resistance: one projected gradient step on the angular block, within the
        // bounds the normal impulse just found sets, the spins updated at once.
        Vec3 relative = ba.w;
        if (c.b != p.nb) relative -= pb[c.b].w;
        const Vec3 before = turn[k];
        turn[k] = project_turning(c.twist, c.roll, g[k].x(),
                                  before - c.angular_step * (c.basis * relative));
        const Vec3 turned = turn[k] - before;
        const double moved_turn =
            turned.squaredNorm() * (c.lever * c.lever) / (c.angular_step * c.angular_step);
        sweep = moved_turn > sweep || moved_turn != moved_turn ? moved_turn : sweep;
        const Vec3 m = c.basis.transpose() * turned;
        ba.w += ba.inv_inertia * m;
        if (c.b != p.nb) pb[c.b].w -= pb[c.b].inv_inertia * m;
    };
    const auto visit_unit = [&](std::size_t q, double& sweep) {
        for (std::size_t k = p.unit_pos[q]; k < p.unit_pos[q + 1]; ++k)
            visit(k, sweep);
    };
    const std::size_t colours = p.colour_start.size() - 1;
    for (int it = 1; it <= o.max_iterations; ++it) {
        double sweep = 0;
#pragma omp parallel if (parallel)
        {
            double mine = 0;
            for (std::size_t k = 0; k < colours; ++k) {
                const std::size_t lo = p.colour_start[k], hi = p.colour_start[k + 1];
                if (k + 1 == colours && p.last_colour_serial) {
#pragma omp single
                    for (std::size_t q = lo; q < hi; ++q)
                        visit_unit(q, mine);
                } else {
#pragma omp for schedule(static)
                    for (std::size_t q = lo; q < hi; ++q)
                        visit_unit(q, mine);
                }
            }
#pragma omp critical(rubble_pgs_sweep)
            sweep = mine > sweep || mine != mine ? mine : sweep;
        }
        if (sweep <= tolerance * tolerance) {
            unpack();
            res = residual();
            if (res <= tolerance) return {it, res, true};
        }
    }
    unpack();
    return {o.max_iterations, residual(), false};
}

// APGD vectors.
struct Apgd {
    std::vector<Vec3> gamma, gamma_new, n_gamma, n_gamma_new, y, n_y, best, dir;
};

// One APGD trial step's sums over a block of contacts: d.N d and |d|^2_(G^-1) of the
// backtracking test, grad.(gamma+ - gamma) of the restart test, and the largest residual
// squared.
struct TrialSums {
    double dnd = 0, dwd = 0, agree = 0, residual2 = 0;
};

// Mazhar et al. 2015, Algorithm 1, in the metric of the weights g_i: steps
// gamma+ = Proj_K(y - (g_i / L) grad f(y)), L dimensionless (the largest eigenvalue of
// G^1/2 N G^1/2 bounds it), found by backtracking on f(gamma+) <= f(y) + grad.(gamma+ - y) +
// (L/2) |gamma+ - y|^2_(G^-1), which for a quadratic is d.N d <= L |d|^2_(G^-1), d = gamma+ - y
// (no difference of f values, so no cancellation near the solution). Restart when the gradient
// and the step disagree; the iterate of least residual is returned. A step is two sweeps over
// the contacts around one over the bodies: (1) the next y from the last two iterates, the
// projected step and its world impulses; (2) N gamma+ and, per block of contacts, the sums of
// both tests and the residual. On entry w.y holds the contact velocities of gamma (so N gamma =
// w.y - q needs no product). L is estimated afresh for each CCP of the fixed point (the last
// CCP's L, grown by its backtracking, makes the next take more steps).
CcpResult solve_apgd(const Prepared& p, const ContactSolverOptions& o, double tolerance,
                     std::vector<Vec3>& gamma, Workspace& w) {
    const std::size_t nc = p.nc;
    Apgd a;
    a.gamma = gamma;
    a.n_gamma.resize(nc);
    for (std::size_t i = 0; i < nc; ++i)
        a.n_gamma[i] = w.y[i] - p.q[i];
    double best = max_residual(p, a.gamma, w.shift,
                               [&](std::size_t i) -> Vec3 { return a.n_gamma[i] + p.q[i]; });
    if (best <= tolerance) return {0, best, true};
    a.best = a.gamma;
    // Step 5: L from N along one direction (all ones in the scaled variables G^-1/2 gamma).
    a.dir.resize(nc);
    for (std::size_t i = 0; i < nc; ++i)
        a.dir[i] = Vec3::Constant(std::sqrt(p.weight[i]));
    delassus_product(p, a.dir, a.n_y, w);
    double lip =
        std::sqrt(ordered_sum(nc, w.partial,
                              [&](std::size_t i) { return p.weight[i] * a.n_y[i].squaredNorm(); }) /
                  (3.0 * static_cast<double>(nc)));
    if (!(lip > 0) || !std::isfinite(lip)) lip = 1;
    a.y = a.gamma;
    a.n_y = a.n_gamma;
    a.gamma_new.resize(nc);
    a.n_gamma_new.resize(nc);
    w.f.resize(nc);
    const std::size_t blocks = (nc + sum_block - 1) / sum_block;
    std::vector<TrialSums> sums(blocks);
    // y follows the iterates: y = gamma (restart, and at the start) or gamma + beta (gamma -
    // gamma_previous); after a step gamma holds the new iterate and gamma_new the previous one.
    double theta = 1, beta = 0;
    bool restart = true;
    int it = 1;
    for (; it <= o.max_iterations; ++it) {
        TrialSums total;
        for (int tries = 0;; ++tries) {
            const bool move_y = tries == 0 && it > 1;
            const double inv_lip = 1 / lip;
#pragma omp parallel for schedule(static) if (nc >= parallel_min)
            for (std::size_t i = 0; i < nc; ++i) {
                if (move_y && restart) {
                    a.y[i] = a.gamma[i];
                    a.n_y[i] = a.n_gamma[i];
                } else if (move_y) {
                    a.y[i] = a.gamma[i] + beta * (a.gamma[i] - a.gamma_new[i]);
                    a.n_y[i] = a.n_gamma[i] + beta * (a.n_gamma[i] - a.n_gamma_new[i]);
                }
                const Vec3 grad = a.n_y[i] + p.q[i] + w.shift[i] * e_n;
                a.gamma_new[i] = project(p, i, a.y[i] - (p.weight[i] * inv_lip) * grad);
                w.f[i] = p.basis[i].transpose() * a.gamma_new[i];
            }
            body_increments(p, w.f, w.dv, w.dw);
#pragma omp parallel for schedule(static) if (nc >= parallel_min)
            for (std::size_t k = 0; k < blocks; ++k) {
                TrialSums s;
                const std::size_t end = std::min(nc, (k + 1) * sum_block);
                for (std::size_t i = k * sum_block; i < end; ++i) {
                    const Vec3 n_new = relative_velocity(p, i, w.dv.data(), w.dw.data());
                    a.n_gamma_new[i] = n_new;
                    const Vec3 d = a.gamma_new[i] - a.y[i];
                    s.dnd += d.dot(n_new - a.n_y[i]);
                    s.dwd += d.squaredNorm() * p.inv_weight[i];
                    const Vec3 shift = w.shift[i] * e_n;
                    s.agree += (a.n_y[i] + p.q[i] + shift).dot(a.gamma_new[i] - a.gamma[i]);
                    s.residual2 = std::max(s.residual2,
                                           residual2(p, i, a.gamma_new[i], n_new + p.q[i] + shift));
                }
                sums[k] = s;
            }
            total = TrialSums{};
            for (const TrialSums& s : sums) {
                total.dnd += s.dnd;
                total.dwd += s.dwd;
                total.agree += s.agree;
                total.residual2 = std::max(total.residual2, s.residual2);
            }
            if (!(total.dnd > lip * total.dwd) || tries == max_backtracks) break;
            lip *= 2;
        }
        const double theta_new = 0.5 * (-theta * theta + theta * std::sqrt(theta * theta + 4));
        beta = theta * (1 - theta) / (theta * theta + theta_new);
        if (const double res = std::sqrt(total.residual2); res < best) {
            best = res;
            a.best = a.gamma_new;
        }
        if (best <= tolerance) break;
        restart = total.agree > 0; // adaptive restart (O'Donoghue & Candes 2015)
        theta = restart ? 1 : theta_new;
        lip *= 0.9;
        std::swap(a.gamma, a.gamma_new);
        std::swap(a.n_gamma, a.n_gamma_new);
    }
    gamma = a.best;
    return {std::min(it, o.max_iterations), best, best <= tolerance};
}

} // namespace

std::pair<Vec3, Vec3> tangent_basis(const Vec3& n) {
    int axis = 0;
    for (int k = 1; k < 3; ++k)
        if (std::abs(n[k]) < std::abs(n[axis])) axis = k;
    const Vec3 t1 = n.cross(Vec3::Unit(axis)).normalized();
    return {t1, n.cross(t1)};
}

ContactSolution solve_contacts(const SolverBodies& bodies, std::span<const SolverContact> contacts,
                               const ContactSolverOptions& options) {
    check_options(options);
    const Prepared p = prepare(bodies, contacts, options.method == ContactMethod::pgs,
                               options.metric == PgsMetric::diagonal);
    ContactSolution out;
    std::vector<Vec3> gamma(p.nc);
    for (std::size_t i = 0; i < p.nc; ++i)
        gamma[i] = project_on_cone(contacts[i].warm, p.mu[i]);
    // Rolling resistance's angular impulses, from zero (empty: no contact resists rolling).
    std::vector<Vec3> rho(p.angular_step.empty() ? 0 : p.nc, Vec3::Zero());
    Workspace w;
    w.shift.assign(p.nc, 0.0);
    evaluate(p, gamma, w, &rho);
    double vref = options.reference_speed;
    if (vref == 0)
        for (std::size_t i = 0; i < p.nc; ++i)
            vref = std::max({vref, p.q[i].norm(), (w.y[i] - p.q[i]).norm()});
    out.reference_speed = vref;
    if (vref == 0) { // nothing moves and nothing pushes: gamma = 0 solves exactly
        out.impulse.assign(p.nc, Vec3::Zero());
        out.vel.assign(bodies.vel.begin(), bodies.vel.end());
        out.spin.assign(bodies.spin.begin(), bodies.spin.end());
        out.converged = true;
        return out;
    }
    const auto solve = [&](double tolerance) {
        const CcpResult r = options.method == ContactMethod::pgs
                                ? solve_pgs(p, options, tolerance, options.coulomb, gamma, rho, w)
                                : solve_apgd(p, options, tolerance, gamma, w);
        out.iterations += r.iterations;
        ++out.ccp_solves;
        return r;
    };
    const auto coulomb_residual = [&] {
        evaluate(p, gamma, w, &rho);
        out.shift_change = update_shift(
                               p, [&](std::size_t i) -> const Vec3& { return w.y[i]; }, w.shift) /
                           vref;
        return std::max(
            max_residual(p, gamma, w.shift, [&](std::size_t i) -> Vec3 { return w.y[i]; }),
            max_turning_residual(p, gamma, rho, w.spin));
    };
    if (!options.coulomb) {
        out.converged = solve(options.tolerance * vref).converged;
        evaluate(p, gamma, w, &rho);
        out.residual =
            std::max(max_residual(p, gamma, w.shift, [&](std::size_t i) -> Vec3 { return w.y[i]; }),
                     max_turning_residual(p, gamma, rho, w.spin)) /
            vref;
    } else {
        // The De Saxce fixed point. Each CCP is solved only as far as the shift is known:
        // to a fraction of the Coulomb residual it starts from, and at least to the tolerance.
        const double floor =
            std::min(options.tolerance, coulomb_inner_fraction * options.coulomb_tolerance) * vref;
        double residual = coulomb_residual();
        out.shift_change = 0;
        for (int pass = 0;
             residual > options.coulomb_tolerance * vref && pass < options.coulomb_max_iterations;
             ++pass) {
            // PGS updates the shift as it sweeps, so each pass solves Coulomb's law itself.
            solve(options.method == ContactMethod::pgs
                      ? floor
                      : std::max(floor, coulomb_inexact_fraction * residual));
            residual = coulomb_residual();
        }
        out.residual = residual / vref;
        out.converged = residual <= options.coulomb_tolerance * vref;
    }
    out.impulse = std::move(gamma);
    out.vel = std::move(w.vel);
    out.spin = std::move(w.spin);
    return out;
}

std::vector<integrate::WorkCounter> work_counters(const ContactSolution& s) {
    return {{"contact_iterations", static_cast<double>(s.iterations)},
            {"contact_ccp_solves", static_cast<double>(s.ccp_solves)},
            {"contact_residual", s.residual},
            {"contact_converged", s.converged ? 1.0 : 0.0}};
}

} // namespace rubble::polyhedra
