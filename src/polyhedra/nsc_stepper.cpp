// SPDX-License-Identifier: MIT
#include "rubble/polyhedra/nsc_stepper.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "rubble/core/error.hpp"
#include "rubble/polyhedra/broad_phase.hpp"
#include "rubble/polyhedra/manifold.hpp"
#include "rubble/polyhedra/nsc_stages.hpp"
#include "rubble/polyhedra/sphere_contacts.hpp"

namespace rubble::polyhedra {

void check_polyhedral_contact_config(const PolyhedralContactConfig& c) {
    if (!(c.margin >= 0.0) || !std::isfinite(c.margin))
        throw KeyError("collisions.margin", c.margin, "must be >= 0 m (0: automatic)");
    if (!(c.envelope >= 0.0) || !std::isfinite(c.envelope))
        throw KeyError("collisions.envelope", c.envelope, "must be >= 0 m (0: the margin)");
    if (!(c.recovery_speed >= 0.0) || !std::isfinite(c.recovery_speed))
        throw KeyError("collisions.recovery_speed", c.recovery_speed,
                       "must be >= 0 m/s (0: automatic)");
    if (!(c.mu_roll >= 0.0) || !std::isfinite(c.mu_roll))
        throw KeyError("collisions.mu_roll", c.mu_roll, "must be >= 0 (0: none)");
    if (!(c.mu_twist >= 0.0) || !std::isfinite(c.mu_twist))
        throw KeyError("collisions.mu_twist", c.mu_twist, "must be >= 0 (0: none)");
    if ((c.mu_roll > 0.0 || c.mu_twist > 0.0) && c.solver.method != ContactMethod::pgs)
        throw KeyError(c.mu_roll > 0.0 ? "collisions.mu_roll" : "collisions.mu_twist",
                       c.mu_roll > 0.0 ? c.mu_roll : c.mu_twist,
                       "rolling and twisting resistance need collisions.solver = \"pgs\"");
    if (c.solver.sor != 1.0 && c.solver.method != ContactMethod::pgs)
        throw KeyError("collisions.solver_relaxation", c.solver.sor,
                       "over-relaxation is of PGS's sweeps: it needs collisions.solver = \"pgs\"");
    if (c.solver.metric != PgsMetric::uniform && c.solver.method != ContactMethod::pgs)
        throw KeyError("collisions.solver_metric",
                       std::string(enum_name(pgs_metric_names, c.solver.metric)),
                       "the metric is of PGS's steps: it needs collisions.solver = \"pgs\"");
    for (const boundaries::FixedHull& f : c.fixed_hulls) {
        const auto fail = [&](const std::string& what) {
            throw InputError("collisions: " + f.name + ": " + what);
        };
        if (!f.position.allFinite() || !f.orientation.coeffs().allFinite() ||
            !(std::abs(f.orientation.norm() - 1.0) <= 1e-9))
            fail("position must be finite and orientation a unit quaternion");
        if (f.shape.vertex_count() < 4 || f.shape.face_count() < 4)
            fail("not a polyhedron (fewer than four vertices or faces)");
    }
}

void check_nsc_config(const NscConfig& c) {
    boundaries::check_contact_config(c);
    check_polyhedral_contact_config(c);
    for (const boundaries::Wall& w : c.walls)
        if (w.shape != boundaries::WallShape::plane)
            throw InputError(
                "collisions: " + w.name +
                ": the non-smooth contact stepper takes plane walls only (boxes are six "
                "planes)");
}

std::string NscStepper::summary(const Bodies& b) const {
    std::ostringstream out;
    out << "collisions: " << (b.hulls.size() == 0 ? "spheres" : "polyhedra")
        << " (non-smooth contact, " << enum_name(contact_method_names, config_.solver.method)
        << "), mu = " << config_.mu << ", restitution " << config_.eps_n << " above "
        << config_.v_min << " m/s, margin ";
    if (config_.margin > 0.0)
        out << config_.margin << " m";
    else
        out << "auto";
    if (!config_.walls.empty()) out << ", " << config_.walls.size() << " wall(s)";
    if (!config_.fixed_hulls.empty()) out << ", " << config_.fixed_hulls.size() << " fixed hull(s)";
    return out.str();
}

NscStepper::NscStepper(NscConfig config) : config_(std::move(config)) {
    check_nsc_config(config_);
}

std::string NscStepper::margin_text() const {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.6g m", margin_);
    return (config_.margin > 0.0 ? "collisions.margin = " : "collisions.margin = 0, automatic: ") +
           std::string(buf);
}

void NscStepper::refresh_cores(const Bodies& b) {
    const auto shapes = b.hull_shapes_shared();
    if (shapes == shapes_seen_) return;
    cores_.clear();
    margin_ = config_.margin;
    if (shapes && margin_ == 0.0) {
        double smallest = std::numeric_limits<double>::infinity();
        for (const shapes::Polyhedron& p : *shapes)
            smallest = std::min(smallest, shapes::inradius_about_origin(p));
        margin_ = auto_margin_fraction * smallest;
    }
    if (shapes) {
        // One core per catalogue shape, each on its own (a cloud of random hulls has as many
        // shapes as grains): in parallel, the first shape too small reported whatever the
        // threads did.
        const auto count = static_cast<std::ptrdiff_t>(shapes->size());
        cores_.resize(shapes->size());
        std::ptrdiff_t failed = count;
        std::string why;
#pragma omp parallel for schedule(dynamic, 16)
        for (std::ptrdiff_t k = 0; k < count; ++k) {
            try {
                cores_[static_cast<std::size_t>(k)] =
                    shapes::shrunk((*shapes)[static_cast<std::size_t>(k)], margin_);
            } catch (const std::invalid_argument& e) {
#pragma omp critical(nsc_core_failure)
                if (k < failed) {
                    failed = k;
                    why = e.what();
                }
            }
        }
        if (failed < count) {
            cores_.clear();
            // (A KeyError: the run names the key's line, config::ParameterSet::error.)
            throw KeyError("collisions.margin", config_.margin,
                           "hull shape " + std::to_string(failed) +
                               " is too small for the collision margin (" + margin_text() +
                               "): " + why);
        }
    }
    fixed_cores_.clear();
    for (const boundaries::FixedHull& f : config_.fixed_hulls) {
        try {
            fixed_cores_.push_back(shapes::shrunk(f.shape, margin_));
        } catch (const std::invalid_argument& e) {
            throw KeyError("collisions.margin", config_.margin,
                           f.name + " is too small for the collision margin (" + margin_text() +
                               "): " + e.what());
        }
    }
    shapes_seen_ = shapes;
}

// The step as Chrono::Multicore's pipeline reads (nsc_stages.hpp): the bodies placed, the broad
// phase, the narrow phase and the contacts with walls and fixed hulls, the contacts' setup for
// the solver, the solve, and the drift with the solved velocities. Each stage is a function of
// its inputs; only the warm starts and the reports of the last step live here.
integrate::StepStats NscStepper::advance(Bodies& b, double h, double t0, bool /*may_abandon*/) {
    const std::size_t n = b.size();
    if (b.hulls.size() != 0 && b.hulls.size() != n)
        throw InputError("the non-smooth contact stepper moves bodies that are all polyhedra or "
                         "all made of spheres (" +
                         std::to_string(b.hulls.size()) + " of " + std::to_string(n) +
                         " bodies are polyhedra)");
    const bool spheres = b.hulls.size() == 0;
    std::vector<FoundContact> found;
    const std::vector<Vec3> wall_at = wall_points(config_.walls, t0);
    StepScales scales;
    if (spheres) {
        // Contacts at the start of the step: pairs of spheres of two bodies, then walls.
        refresh_sphere_margin(b);
        scales = step_scales(config_, margin_, h);
        const SpherePlacement placed = place_spheres(b, scales);
        const std::vector<BodyPair> pairs = sphere_pairs(b.pos, placed.reach);
        found = sphere_pair_contacts(b, placed, pairs, scales);
        append_sphere_wall_contacts(b, placed, config_.walls, wall_at, scales, found);
    } else {
        // Contacts at the start of the step: pairs of grains, then walls, then fixed hulls.
        refresh_cores(b);
        scales = step_scales(config_, margin_, h);
        const Placement placed = place_bodies(b, cores_, scales);
        const std::vector<BodyPair> pairs = find_candidate_pairs(b.pos, placed);
        const std::vector<ContactManifold> manifolds =
            narrow_phase(placed, cores_, b.vel, pairs, scales);
        found = pair_contacts(pairs, manifolds);
        append_wall_contacts(b, placed, config_.walls, wall_at, scales, found);
        append_fixed_hull_contacts(b, placed, cores_, config_.fixed_hulls, fixed_cores_,
                                   static_cast<std::int32_t>(config_.walls.size()), scales, found);
    }

    // Their impulses, kept for the next step's warm start, then the drift.
    const InverseMasses inverse = inverse_masses(b);
    const SolverProblem problem = build_solver_contacts(b, found, config_, wall_at, scales, warm_);
    solution_ = solve_impulses(b, inverse, problem, config_.solver);
    record_impulses(b, found, problem.contacts, solution_, warm_, contacts_);
    apply_impulses_and_drift(b, solution_, h);

    integrate::StepStats stats;
    stats.contacts = static_cast<std::int64_t>(found.size());
    stats.overlaps = problem.overlaps;
    stats.max_overlap = problem.max_overlap;
    stats.work = work_counters(solution_);
    return stats;
}

// A sphere's distance is exact: nothing is shrunk, and the margin only sets the envelope and
// the recovery speed (step_scales), as a fraction of the smallest sphere as it is of the
// smallest inradius for polyhedra.
void NscStepper::refresh_sphere_margin(const Bodies& b) {
    if (config_.margin > 0.0) {
        margin_ = config_.margin;
        return;
    }
    const double smallest = smallest_sphere_radius(b);
    margin_ = std::isfinite(smallest) ? auto_margin_fraction * smallest : 0.0;
}

} // namespace rubble::polyhedra
