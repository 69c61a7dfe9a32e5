// SPDX-License-Identifier: MIT
#include "rubble/config/run_config.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "rubble/config/wall_config.hpp"
#include "rubble/core/error.hpp"

namespace rubble::config {
namespace {

// A tiny dt would make the step count overflow int64 (it printed -9223372036854775808 steps).
void check_step_count(const ParameterSet& p, const RunConfig& c) {
    const double steps = c.t_end / c.dt;
    if (c.t_end > 0.0 && !(steps <= max_steps)) {
        throw p.error("integrator.dt",
                      "integrator.t_end = " + to_toml_text(p.value("integrator.t_end")) +
                          " s (from " + p.source("integrator.t_end") +
                          ") / integrator.dt = " + to_toml_text(steps) + " steps, more than the " +
                          to_toml_text(max_steps) + " a run may have");
    }
}

// As ic.cloud.spheres_per_grain's upper bound (parameter_specs.cpp).
constexpr double max_spheres_per_grain = 10000;

// The aggregate keys of ic.cloud (bound, set by the table already) checked against each other,
// and ic.cloud.grain_file, which no member holds: it is read here (at the edge) into the
// layout or vertex hull, so that a bad file is refused before anything is generated.
void finish_grain_config(const ParameterSet& p, RunConfig& c) {
    ic::GrainConfig& g = c.ic.cloud.grain;
    const std::string file = p.string("ic.cloud.grain_file");
    if (c.ic.type == ic::IcType::scenario) {
        if (!ic::is_hull_kind(g.kind))
            throw p.error("ic.cloud.grain",
                          "ic.type = \"scenario\" draws its grains as hulls, from which each "
                          "grain model is derived: use cube, box, tetrahedron, hull or vertices");
    } else if (c.ic.type != ic::IcType::cloud) {
        return;
    }
    if (g.model == ic::GrainModel::polyhedron && !ic::is_hull_kind(g.kind))
        throw p.error("ic.cloud.grain_model",
                      "\"polyhedron\" needs ic.cloud.grain = cube, box, tetrahedron, hull or "
                      "vertices (now " +
                          p.described("ic.cloud.grain") + ")");
    if (g.model == ic::GrainModel::polyhedron && g.match_hull)
        throw p.error("ic.cloud.match_hull", "matches aggregates to their hulls; polyhedra are "
                                             "their hulls (ic.cloud.grain_model = " +
                                                 p.described("ic.cloud.grain_model") + ")");
    if (!(g.aspect.minCoeff() > 0.0))
        throw p.error("ic.cloud.grain_aspect", "every ratio must be > 0");
    if (g.match_hull && !ic::is_hull_kind(g.kind))
        throw p.error("ic.cloud.match_hull",
                      "needs ic.cloud.grain = cube, box, tetrahedron, hull or vertices (now " +
                          p.described("ic.cloud.grain") + ")");
    if (g.kind == ic::GrainKind::vertices) {
        if (file.empty())
            throw p.error("ic.cloud.grain_file", "must name a vertex file when ic.cloud.grain = "
                                                 "\"vertices\"");
        try {
            g.vertex_hull = ic::read_hull_vertices(file);
        } catch (const InputError& e) {
            throw p.error("ic.cloud.grain_file", e.what());
        }
    } else if (g.kind == ic::GrainKind::file) {
        if (file.empty())
            throw p.error("ic.cloud.grain_file", "must name a layout file when ic.cloud.grain = "
                                                 "\"file\"");
        try {
            g.layout = ic::read_layout(file, c.ic.cloud.density);
        } catch (const InputError& e) {
            throw p.error("ic.cloud.grain_file", e.what());
        }
    } else if (!file.empty()) {
        throw p.error("ic.cloud.grain_file",
                      "is read only when ic.cloud.grain = \"file\" or \"vertices\" (now " +
                          p.described("ic.cloud.grain") + ")");
    }
    // A grain of circumradius R holds at most its circumsphere's volume over (2r)^3 spheres.
    const double r_max = c.ic.cloud.radii.distribution == ic::RadiusDistribution::fixed
                             ? c.ic.cloud.radii.radius
                             : c.ic.cloud.radii.radius_max;
    const double most = pi / 6.0 * std::pow(r_max / g.sphere_radius, 3);
    if (g.kind != ic::GrainKind::sphere && g.sphere_radius > 0.0 && most > max_spheres_per_grain)
        throw p.error("ic.cloud.sphere_radius",
                      "grains up to " + to_toml_text(r_max) + " m would hold up to " +
                          to_toml_text(std::round(most)) + " spheres each, more than " +
                          to_toml_text(max_spheres_per_grain) + "; use larger spheres");
    if (g.kind == ic::GrainKind::sphere && g.sphere_radius > 0.0)
        throw p.error("ic.cloud.sphere_radius",
                      "fills aggregates; for spheres set ic.cloud.radius (ic.cloud.grain = " +
                          p.described("ic.cloud.grain") + ")");
}

} // namespace

RunConfig make_run_config(const ParameterSet& p) {
    RunConfig c;
    // Every bound key (parameter_specs.cpp) sets its member; what no member holds (where
    // ic.file.path came from, the file ic.cloud.grain_file names) and [[walls]] follow by hand.
    for (const ParamSpec& s : parameter_specs()) {
        if (s.binding && !s.binding.set(c, p.value(s.key)))
            throw p.error(s.key, "must be " + s.range_text());
    }
    if ((c.t_end > 0.0) == (c.n_steps > 0)) {
        throw p.error("integrator.n_steps", "set exactly one of integrator.t_end (now " +
                                                to_toml_text(p.value("integrator.t_end")) +
                                                ", from " + p.source("integrator.t_end") +
                                                ") and integrator.n_steps");
    }
    check_step_count(p, c);
    c.gravity.G = c.G;

    collisions::CollisionConfig& k = c.collisions;
    // The table checked each key's range; this checks what involves several (mu and eps_t).
    try {
        collisions::check_collision_config(k);
        polyhedra::check_polyhedral_contact_config(c.polyhedra);
    } catch (const KeyError& e) {
        throw p.error(e.key(), e.reason());
    }
    c.polyhedra.solver.coulomb_tolerance = c.polyhedra.solver.tolerance;
    if (k.periodic_box > 0.0 && c.gravity.backend != gravity::Backend::none)
        throw p.error("collisions.periodic_box",
                      "a periodic box needs gravity.backend = \"none\" (now \"" +
                          p.string("gravity.backend") + "\", from " + p.source("gravity.backend") +
                          "): rubble has no periodic gravity");
    if (k.periodic_box > 0.0 && !c.collisions_enabled)
        throw p.error("collisions.periodic_box", "needs collisions.enabled = true");
    k.walls = make_walls(p, &c.wall_sources);
    c.polyhedra.fixed_hulls = make_fixed_hulls(p, &c.fixed_hull_sources);
    if ((!k.walls.empty() || !c.polyhedra.fixed_hulls.empty()) && !c.collisions_enabled)
        throw p.wall_error(0, "",
                           "walls need collisions.enabled = true (now " +
                               p.described("collisions.enabled") +
                               "): they are partners of the event-driven drift");
    if ((!k.walls.empty() || !c.polyhedra.fixed_hulls.empty()) && k.periodic_box > 0.0)
        throw p.error("collisions.periodic_box",
                      "walls in a periodic box are not supported; use a box wall instead");

    if (c.output.file.empty()) throw p.error("output.file", "must not be empty");

    if ((c.ic.type == ic::IcType::cloud || c.ic.type == ic::IcType::scenario) &&
        c.ic.cloud.radii.distribution != ic::RadiusDistribution::fixed &&
        !(c.ic.cloud.radii.radius_min < c.ic.cloud.radii.radius_max)) {
        throw p.error("ic.cloud.radius_min", "must be < ic.cloud.radius_max = " +
                                                 to_toml_text(c.ic.cloud.radii.radius_max) + " m");
    }

    finish_grain_config(p, c);

    if (c.ic.type == ic::IcType::lattice && c.ic.lattice.spacing < 2.0 * c.ic.lattice.radius) {
        throw p.error("ic.lattice.spacing", "must be >= 2 * ic.lattice.radius = " +
                                                to_toml_text(2.0 * c.ic.lattice.radius) +
                                                " m, or the spheres overlap");
    }

    c.ic.table.source = p.source("ic.table.path");
    if (c.ic.type == ic::IcType::table && c.ic.table.path.empty())
        throw p.error("ic.table.path", "must name a table of bodies when ic.type = \"table\"");
    c.ic.file.source = p.source("ic.file.path");
    if (c.ic.type == ic::IcType::file && c.ic.file.path.empty())
        throw p.error("ic.file.path", "must name a rubble HDF5 file when ic.type = \"file\"");

    if (c.settle.window > 0.0 && c.output.snapshot_interval <= 0.0)
        throw p.error("stop.settled_window",
                      "settling is checked at each snapshot: set output.snapshot_interval "
                      "(now " +
                          p.described("output.snapshot_interval") + ")");
    if (c.settle.window > 0.0 && c.settle.window < c.output.snapshot_interval)
        throw p.error("stop.settled_window", "must span at least one snapshot interval (" +
                                                 p.described("output.snapshot_interval") + ")");
    return c;
}

std::int64_t total_steps(const RunConfig& c, double t_start) {
    if (c.n_steps > 0) return c.n_steps;
    const double steps = (c.t_end - t_start) / c.dt;
    if (!(steps > 0.0)) {
        throw InputError("integrator.t_end = " + to_toml_text(c.t_end) +
                         ": must be after the start time " + to_toml_text(t_start) + " s");
    }
    if (!(steps <= max_steps)) {
        throw InputError(
            "integrator.t_end = " + to_toml_text(c.t_end) + " s: " + to_toml_text(steps) +
            " steps of integrator.dt = " + to_toml_text(c.dt) + " s from the start time " +
            to_toml_text(t_start) + " s, more than " + to_toml_text(max_steps));
    }
    return static_cast<std::int64_t>(std::ceil(steps * (1.0 - 1e-9)));
}

std::int64_t interval_steps(double interval, double dt) {
    if (interval <= 0.0) return 0;
    const double steps = interval / dt;
    // llround of a value beyond int64 is undefined; such an interval is longer than any run.
    if (!(steps <= max_steps)) return std::numeric_limits<std::int64_t>::max();
    return std::max<std::int64_t>(1, std::llround(steps));
}

} // namespace rubble::config
