// SPDX-License-Identifier: MIT
// The one table of run parameters. Add a parameter here and it appears in the TOML reader, the
// command line, `rubble run --help`, the HDF5 record and docs/parameters.md. A string option's
// allowed values come from its table of names beside its enum (core/enum_names.hpp).
#include <algorithm>
#include <charconv>
#include <cstddef>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "rubble/config/parameters.hpp"
#include "rubble/config/run_config.hpp"
#include "rubble/gravity/gravity_solver.hpp"

namespace rubble::config {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
// Tree leaves and walk groups beyond this many bodies only make the tree a slow direct sum;
// the bound also keeps the sizes well inside the solvers' int.
constexpr double max_tree_group = 65536;

// The value of the member at the end of a pointer-to-member path from `o`.
template <class Obj, class M> decltype(auto) member(Obj& o, M m) {
    return (o.*m);
}
template <class Obj, class M, class... Ms> decltype(auto) member(Obj& o, M m, Ms... ms) {
    return member(o.*m, ms...);
}

template <class T> ParamValue to_value(const T& x) {
    if constexpr (std::is_same_v<T, bool>)
        return x;
    else if constexpr (std::is_floating_point_v<T>)
        return static_cast<double>(x);
    else if constexpr (std::is_integral_v<T>)
        return static_cast<std::int64_t>(x);
    else if constexpr (std::is_same_v<T, std::string>)
        return x;
    else
        return ParamVector{x[0], x[1], x[2]}; // Vec3
}

template <class T> void from_value(T& x, const ParamValue& v) {
    if constexpr (std::is_same_v<T, bool>)
        x = std::get<bool>(v);
    else if constexpr (std::is_floating_point_v<T>)
        x = std::get<double>(v);
    else if constexpr (std::is_integral_v<T>)
        x = static_cast<T>(std::get<std::int64_t>(v));
    else if constexpr (std::is_same_v<T, std::string>)
        x = std::get<std::string>(v);
    else {
        const ParamVector& a = std::get<ParamVector>(v);
        x = T(a[0], a[1], a[2]); // Vec3
    }
}

// The binding of a key to the member at the end of `path` from RunConfig.
template <class... Ms> ParamBinding at(Ms... path) {
    return {[=](const RunConfig& c) { return to_value(member(c, path...)); },
            [=](RunConfig& c, const ParamValue& v) {
                from_value(member(c, path...), v);
                return true;
            }};
}

// The same for a string option: the member holds the value of its name in `names`.
template <class E, std::size_t N, class... Ms>
ParamBinding at_enum(const EnumNames<E, N>& names, Ms... path) {
    const EnumNames<E, N>* table = &names;
    return {[=](const RunConfig& c) {
                return ParamValue(std::string(enum_name(*table, member(c, path...))));
            },
            [=](RunConfig& c, const ParamValue& v) {
                const std::optional<E> e = enum_value(*table, std::get<std::string>(v));
                if (e) member(c, path...) = *e;
                return e.has_value();
            }};
}

// The configuration at its defaults, the struct initialisers that bound keys take theirs from.
const RunConfig& defaults() {
    static const RunConfig c;
    return c;
}

// A real as a default is written: the shortest text that reads back as the same double, with
// a decimal point or an exponent (a TOML float) and no exponent padding ("1e-8", not "1e-08").
std::string shortest(double x) {
    char buf[40];
    std::string s(buf, std::to_chars(buf, buf + sizeof buf, x).ptr);
    const auto e = s.find('e');
    if (e == std::string::npos) return s.find('.') == std::string::npos ? s + ".0" : s;
    std::string exponent = s.substr(e + 1);
    std::string sign;
    if (exponent[0] == '-' || exponent[0] == '+') {
        sign = exponent[0] == '-' ? "-" : "";
        exponent = exponent.substr(1);
    }
    exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
    return s.substr(0, e + 1) + sign + exponent;
}

std::string default_text(const ParamValue& v) {
    if (const auto* d = std::get_if<double>(&v)) return shortest(*d);
    if (const auto* x = std::get_if<ParamVector>(&v)) {
        // (Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "[" + a temporary.)
        std::string out("[");
        out.append(shortest((*x)[0])).append(", ").append(shortest((*x)[1])).append(", ");
        return out.append(shortest((*x)[2])).append("]");
    }
    return to_toml_text(v);
}

// A key's default: written out (a key make_run_config reads by hand), or a binding, whose
// member's initialiser is the default.
struct Def {
    std::string text;
    ParamBinding binding;
    Def(const char* t) : text(t) {}            // NOLINT: implicit on purpose
    Def(std::string t) : text(std::move(t)) {} // NOLINT
    Def(ParamBinding b) : text(default_text(b.get(defaults()))), binding(std::move(b)) {} // NOLINT
};

ParamSpec with(ParamSpec s, Def def) {
    s.default_text = std::move(def.text);
    s.binding = std::move(def.binding);
    return s;
}

ParamSpec real(std::string key, std::string unit, Def def, std::string help, double lo, double hi,
               bool lo_open, bool hi_open = true) {
    return with(ParamSpec{std::move(key),
                          ParamType::real,
                          std::move(unit),
                          "",
                          std::move(help),
                          lo,
                          hi,
                          lo_open,
                          hi_open,
                          {},
                          {}},
                std::move(def));
}
ParamSpec positive(std::string key, std::string unit, Def def, std::string help) {
    return real(std::move(key), std::move(unit), std::move(def), std::move(help), 0.0, inf, true);
}
ParamSpec non_negative(std::string key, std::string unit, Def def, std::string help) {
    return real(std::move(key), std::move(unit), std::move(def), std::move(help), 0.0, inf, false);
}
ParamSpec integer(std::string key, Def def, std::string help, double lo, double hi = inf) {
    return with(ParamSpec{std::move(key),
                          ParamType::integer,
                          "",
                          "",
                          std::move(help),
                          lo,
                          hi,
                          false,
                          hi == inf,
                          {},
                          {}},
                std::move(def));
}
ParamSpec boolean(std::string key, Def def, std::string help) {
    return with(ParamSpec{std::move(key),
                          ParamType::boolean,
                          "",
                          "",
                          std::move(help),
                          -inf,
                          inf,
                          false,
                          false,
                          {},
                          {}},
                std::move(def));
}
ParamSpec vec(std::string key, std::string unit, Def def, std::string help) {
    return with(ParamSpec{std::move(key),
                          ParamType::vector,
                          std::move(unit),
                          "",
                          std::move(help),
                          -inf,
                          inf,
                          false,
                          false,
                          {},
                          {}},
                std::move(def));
}
ParamSpec text(std::string key, Def def, std::string help, std::vector<std::string> choices = {}) {
    return with(ParamSpec{std::move(key),
                          ParamType::string,
                          "",
                          "",
                          std::move(help),
                          -inf,
                          inf,
                          false,
                          false,
                          std::move(choices),
                          {}},
                std::move(def));
}

std::vector<ParamSpec> make_specs() {
    return {
        positive("units.G", "m^3 kg^-1 s^-2", at(&RunConfig::G),
                 "Gravitational constant; SI by default, set it to use any consistent units"),
        positive("integrator.dt", "s", at(&RunConfig::dt),
                 "Leapfrog time step; keep it below 1/(2 sqrt(G rho_max)) (docs/integrator.md)"),
        non_negative("integrator.t_end", "s", at(&RunConfig::t_end),
                     "Simulated time at which the run ends; 0: use integrator.n_steps"),
        integer("integrator.n_steps", at(&RunConfig::n_steps),
                "Number of steps to run; 0: use integrator.t_end", 0, max_steps),
        text("gravity.backend",
             at_enum(gravity::backend_names, &RunConfig::gravity, &gravity::GravityConfig::backend),
             "Gravity solver: direct = O(N^2) pairwise sum; tree = Barnes-Hut octree with "
             "multipoles, O(N log N); auto = tree from " +
                 std::to_string(gravity::auto_tree_threshold) +
                 " bodies, direct below (gpu-tree from " +
                 std::to_string(gravity::auto_gpu_threshold) +
                 " bodies when a CUDA GPU is present); none = no self-gravity; gpu-direct, "
                 "gpu-tree = the same on a CUDA GPU (docs/gpu.md)",
             enum_names(gravity::backend_names)),
        text("gravity.aggregates",
             at_enum(gravity::aggregate_gravity_names, &RunConfig::gravity,
                     &gravity::GravityConfig::aggregates),
             "Mass points of an aggregate: spheres = each of its spheres (the field's gradient "
             "turns it); centres = its whole mass at its centre of mass, as polyhedra and as "
             "Ferrari et al. 2017 take every grain (docs/aggregates.md, \"Gravity\")",
             enum_names(gravity::aggregate_gravity_names)),
        real("gravity.theta", "", at(&RunConfig::gravity, &gravity::GravityConfig::theta),
             "Tree opening angle: a node is used whole when its size < theta x its distance "
             "(docs/tree.md)",
             0.0, 1.0, true, true),
        with(ParamSpec{"gravity.multipole_order",
                       ParamType::integer,
                       "",
                       "",
                       "Tree multipoles: 1 monopole, 2 quadrupole, 3 octupole, 4 hexadecapole",
                       1.0,
                       4.0,
                       false,
                       false,
                       {},
                       {}},
             at(&RunConfig::gravity, &gravity::GravityConfig::multipole_order)),
        integer("gravity.bucket_size",
                at(&RunConfig::gravity, &gravity::GravityConfig::bucket_size),
                "Bodies per tree leaf", 1, max_tree_group),
        integer("gravity.group_size", at(&RunConfig::gravity, &gravity::GravityConfig::group_size),
                "CPU tree: the walk builds one interaction list per group, the largest nodes of "
                "at most this many bodies (at most bucket_size: one list per leaf; docs/tree.md)",
                1, max_tree_group),
        text("gravity.gpu_precision",
             at_enum(gravity::gpu_precision_names, &RunConfig::gravity,
                     &gravity::GravityConfig::gpu_mixed_precision),
             "gpu-tree arithmetic: double = double precision throughout; mixed = multipole "
             "(far-field) terms in single precision from double offsets, body-body terms and "
             "sums in double (docs/gpu.md)",
             enum_names(gravity::gpu_precision_names)),
        integer("gravity.check_samples", at(&RunConfig::gravity_check_samples),
                "Check the gravity backend against direct summation on this many random bodies "
                "at the first step and print the error percentiles; 0: no check",
                0),
        non_negative("gravity.softening", "m",
                     at(&RunConfig::gravity, &gravity::GravityConfig::softening),
                     "Plummer softening length; 0 for Newtonian point masses"),
        vec("gravity.uniform_g", "m/s^2", at(&RunConfig::uniform_g),
            "Uniform external gravity field [gx, gy, gz] added to every body beside (or with "
            "backend = none, instead of) self-gravity, its energy -m g.x in the diagnostics; "
            "on the command line as gx,gy,gz"),
        boolean("collisions.enabled", at(&RunConfig::collisions_enabled),
                "Hard-sphere collisions, event-driven inside each drift (docs/collisions.md)"),
        text("collisions.stepper",
             at_enum(collisions::stepper_names, &RunConfig::collisions,
                     &collisions::CollisionConfig::stepper),
             "The contact engine: event_driven = exact hard-sphere collisions inside each drift "
             "(spheres, aggregates); nsc = non-smooth contact time stepping with Coulomb friction "
             "(mu), resting contacts held, for every grain model (docs/collisions.md, \"Resting "
             "contacts\"); auto: event_driven for spheres and aggregates, nsc for polyhedra",
             enum_names(collisions::stepper_names)),
        text("collisions.outcome",
             at_enum(collisions::outcome_names, &RunConfig::collisions,
                     &collisions::CollisionConfig::outcome),
             "What a contact does: bounce = restitution with spin; merge = one sphere; stick = "
             "the two bodies become one rigid aggregate of their spheres when they meet at or "
             "below collisions.stick_speed, else bounce (pkdgrav's sticky aggregates, "
             "docs/aggregates.md)",
             enum_names(collisions::outcome_names)),
        non_negative("collisions.stick_speed", "m/s",
                     at(&RunConfig::collisions, &collisions::CollisionConfig::stick_speed),
                     "outcome = stick: normal impact speeds at or below this stick, faster ones "
                     "bounce (0: every contact sticks)"),
        real("collisions.eps_n", "",
             at(&RunConfig::collisions, &collisions::CollisionConfig::eps_n),
             "Normal coefficient of restitution: u_n' = -eps_n u_n (1: elastic)", 0.0, 1.0, false,
             false),
        real("collisions.eps_t", "",
             at(&RunConfig::collisions, &collisions::CollisionConfig::eps_t),
             "Tangential coefficient of restitution of the contact points: 1 frictionless, 0 "
             "sticking, -1 reversing",
             -1.0, 1.0, false, false),
        non_negative("collisions.mu", "",
                     at(&RunConfig::collisions, &collisions::CollisionConfig::mu),
                     "Coulomb friction coefficient of contacts with rigid aggregates (|J_t| <= mu "
                     "J_n, docs/aggregates.md; 0: the eps_t model; needs eps_t = 1) and of "
                     "polyhedra (docs/polyhedra.md); free-sphere contacts keep eps_t"),
        text("collisions.eps_n_law",
             at_enum(collisions::restitution_law_names, &RunConfig::collisions,
                     &collisions::CollisionConfig::law),
             "eps_n against impact speed: constant; power_law = min(eps_n, (u_n/eps_n_v_ref)^-"
             "eps_n_exponent) (Bridges et al. 1984)",
             enum_names(collisions::restitution_law_names)),
        positive("collisions.eps_n_v_ref", "m/s",
                 at(&RunConfig::collisions, &collisions::CollisionConfig::v_ref),
                 "power_law: impact speed below which eps_n reaches its cap"),
        non_negative("collisions.eps_n_exponent", "",
                     at(&RunConfig::collisions, &collisions::CollisionConfig::exponent),
                     "power_law exponent (the default: ice, Bridges et al. 1984)"),
        non_negative("collisions.v_min", "m/s",
                     at(&RunConfig::collisions, &collisions::CollisionConfig::v_min),
                     "Impacts with normal speed below this are elastic (inelastic-collapse guard; "
                     "0: off)"),
        non_negative("collisions.f_crit", "",
                     at(&RunConfig::collisions, &collisions::CollisionConfig::f_crit),
                     "A collision is fully elastic if either body moved less than f_crit x its "
                     "radius since its last one (inelastic-collapse guard; 0: off)"),
        text("collisions.overlaps",
             at_enum(collisions::overlap_strategy_names, &RunConfig::collisions,
                     &collisions::CollisionConfig::overlaps),
             "Pairs overlapping at the start of a drift: abort with a report; trace_back to "
             "touching and collide; push_apart along the line of centres; merge; repulse with "
             "an impulse that undoes the overlap in one step; auto: abort for free spheres, "
             "repulse with aggregates (docs/aggregates.md)",
             enum_names(collisions::overlap_strategy_names)),
        non_negative("collisions.overlap_tolerance", "",
                     at(&RunConfig::collisions, &collisions::CollisionConfig::overlap_tolerance),
                     "Overlaps shallower than this fraction of R1 + R2 count as contact "
                     "(round-off)"),
        non_negative("collisions.skin", "",
                     at(&RunConfig::collisions, &collisions::CollisionConfig::skin),
                     "Neighbourhood margin in units of each radius: how far a body moves before "
                     "its neighbours are searched again; larger means longer lists, fewer "
                     "searches; 0: chosen each drift from the mean free path (0.2 to 2); never "
                     "changes the collisions, only their cost"),
        integer("collisions.max_per_body",
                at(&RunConfig::collisions, &collisions::CollisionConfig::max_per_body),
                "Collisions of one body within one drift before the run stops as an inelastic "
                "collapse (counts are 32-bit: at most 1e9)",
                1, 1e9),
        non_negative("collisions.periodic_box", "m",
                     at(&RunConfig::collisions, &collisions::CollisionConfig::periodic_box),
                     "Side of a periodic cube centred at the origin (requires gravity.backend = "
                     "none); 0: open space"),
        non_negative("collisions.margin", "m",
                     at(&RunConfig::polyhedra, &polyhedra::PolyhedralContactConfig::margin),
                     "NSC stepper: collision margin, the rounding of every hull (cores shrunk by "
                     "it meet in shallow contacts, Ferrari et al. 2017); 0: 1/100 of the "
                     "smallest inradius (spheres are not shrunk: it sets the defaults of "
                     "envelope and recovery_speed, 0: 1/100 of the smallest sphere radius)"),
        non_negative("collisions.envelope", "m",
                     at(&RunConfig::polyhedra, &polyhedra::PolyhedralContactConfig::envelope),
                     "NSC stepper: gaps up to this (plus the approach in a step) are contacts; "
                     "0: the margin"),
        non_negative("collisions.recovery_speed", "m/s",
                     at(&RunConfig::polyhedra, &polyhedra::PolyhedralContactConfig::recovery_speed),
                     "NSC stepper: the largest speed at which an overlap is pushed apart; 0: one "
                     "margin per 10 steps"),
        text("collisions.solver",
             at_enum(polyhedra::contact_method_names, &RunConfig::polyhedra,
                     &polyhedra::PolyhedralContactConfig::solver,
                     &polyhedra::ContactSolverOptions::method),
             "NSC stepper: contact impulse solver, apgd (accelerated projected gradient, Mazhar "
             "et al. 2015) or pgs (projected Gauss-Seidel)",
             enum_names(polyhedra::contact_method_names)),
        integer("collisions.solver_iterations",
                at(&RunConfig::polyhedra, &polyhedra::PolyhedralContactConfig::solver,
                   &polyhedra::ContactSolverOptions::max_iterations),
                "NSC stepper: APGD steps or PGS sweeps per cone complementarity problem", 1, 1e9),
        integer("collisions.solver_passes",
                at(&RunConfig::polyhedra, &polyhedra::PolyhedralContactConfig::solver,
                   &polyhedra::ContactSolverOptions::coulomb_max_iterations),
                "NSC stepper: passes per step at most for Coulomb's law (apgd: one cone "
                "complementarity problem per pass, De Saxce's fixed point; pgs takes each "
                "contact's friction shift as it sweeps, so its first pass solves Coulomb's law "
                "and the next ones continue it)",
                1, 1000),
        positive("collisions.solver_tolerance", "",
                 at(&RunConfig::polyhedra, &polyhedra::PolyhedralContactConfig::solver,
                    &polyhedra::ContactSolverOptions::tolerance),
                 "NSC stepper: residual of the contact conditions, relative to the fastest "
                 "contact speed, at which the solver stops"),
        text("collisions.solver_metric",
             at_enum(polyhedra::pgs_metric_names, &RunConfig::polyhedra,
                     &polyhedra::PolyhedralContactConfig::solver,
                     &polyhedra::ContactSolverOptions::metric),
             "NSC stepper, pgs: the metric of each contact's step: uniform (one step for its "
             "three directions, Tasora & Anitescu 2011) or diagonal (each direction its own, "
             "the projection on the friction cone in that metric; a deep pile holds with "
             "fewer sweeps: docs/collisions.md, \"Deep piles\")",
             enum_names(polyhedra::pgs_metric_names)),
        real("collisions.solver_relaxation", "",
             at(&RunConfig::polyhedra, &polyhedra::PolyhedralContactConfig::solver,
                &polyhedra::ContactSolverOptions::sor),
             "NSC stepper, pgs: over-relaxation omega of each update (projected SOR); with "
             "the uniform metric above 1 makes up part of a sphere contact's normal step, with "
             "the diagonal one keep 1 (docs/collisions.md, \"Deep piles\")",
             0.0, 2.0, true, true),
        non_negative("collisions.mu_roll", "",
                     at(&RunConfig::polyhedra, &polyhedra::PolyhedralContactConfig::mu_roll),
                     "NSC stepper, spheres and aggregates: rolling resistance, the largest "
                     "torque against rolling over the normal force times the contact's rolling "
                     "radius R_a R_b / (R_a + R_b) (a wall: R); needs solver = \"pgs\"; 0: "
                     "none (docs/collisions.md, \"Rolling and twisting resistance\")"),
        non_negative("collisions.mu_twist", "",
                     at(&RunConfig::polyhedra, &polyhedra::PolyhedralContactConfig::mu_twist),
                     "NSC stepper, spheres and aggregates: twisting resistance, the largest "
                     "torque about the normal over the normal force times the rolling radius; "
                     "needs solver = \"pgs\"; 0: none"),
        boolean("collisions.speculative_faces",
                at(&RunConfig::polyhedra, &polyhedra::PolyhedralContactConfig::speculative_faces),
                "Polyhedra: an edge or vertex contact also gets the points of the faces within "
                "25 degrees of its normal, clipped as a face contact, as speculative contacts: "
                "a grain turning about one point cannot swing a face into the other grain "
                "within the step (experimental: docs/polyhedra.md, \"A cloud of 1e4 hulls\")"),
        boolean("output.collision_log",
                at(&RunConfig::collisions, &collisions::CollisionConfig::log),
                "Record every collision (time, ids, speeds, impact parameter) in /collisions"),
        text("output.file", at(&RunConfig::output, &OutputConfig::file),
             "HDF5 output file (relative to the working "
             "directory)"),
        boolean("output.shapes", at(&RunConfig::output, &OutputConfig::shapes),
                "Keep the true shapes of aggregates, polyhedra and walls beside the output for "
                "ParaView (RUN.spheres/hulls/walls.xdmf, docs/output-format.md); each snapshot "
                "adds about 40 B per sphere and 1.3 kB per hull of 16 vertices"),
        boolean("output.overwrite", at(&RunConfig::output, &OutputConfig::overwrite),
                "Replace output.file if it exists"),
        non_negative("output.snapshot_interval", "s",
                     at(&RunConfig::output, &OutputConfig::snapshot_interval),
                     "Simulated time between snapshots (rounded to whole steps); 0: only the "
                     "first and last"),
        non_negative("output.diagnostics_interval", "s",
                     at(&RunConfig::output, &OutputConfig::diagnostics_interval),
                     "Simulated time between diagnostics rows (rounded to whole steps); 0: every "
                     "step"),
        non_negative("stop.settled_window", "s", at(&RunConfig::settle, &SettleStopConfig::window),
                     "End the run once the aggregates' membership and spins have stayed "
                     "unchanged for this long, checked at each snapshot (needs "
                     "output.snapshot_interval); 0: run to the end time (docs/campaigns.md)"),
        positive("stop.contact_tolerance", "",
                 at(&RunConfig::settle, &SettleStopConfig::contact_tolerance),
                 "Settling: bodies touch when their surfaces are within this fraction of the "
                 "smaller bounding radius (the analysis' aggregate definition)"),
        positive("stop.spin_tolerance", "",
                 at(&RunConfig::settle, &SettleStopConfig::spin_tolerance),
                 "Settling: an aggregate's spin is unchanged while its angular momentum L and "
                 "rotational energy stay within this fraction of I_m w_d and I_m w_d^2 (I_m its "
                 "mean moment, w_d = sqrt(G M / R^3)); a rigid tumbler is unchanged"),
        text("campaign.id", at(&RunConfig::campaign, &CampaignTag::id),
             "Set by rubble campaign: the campaign this run belongs to (its index's id); empty "
             "for a run of its own"),
        text("campaign.set", at(&RunConfig::campaign, &CampaignTag::set),
             "Set by rubble campaign: the name of this run's initial-condition set"),
        integer("random.seed", at(&RunConfig::seed), "Seed of the random initial conditions", 0),
        text("ic.type", at_enum(ic::ic_type_names, &RunConfig::ic, &ic::IcConfig::type),
             "Initial condition generator (scenario: the grains of ic.cloud, drawn as hulls, in "
             "the grain model ic.scenario.model, docs/campaigns.md; file: a snapshot of a "
             "rubble run, ic.file; table: bodies from a CSV table, ic.table)",
             enum_names(ic::ic_type_names)),
        boolean("ic.centre_of_mass_frame", at(&RunConfig::ic, &ic::IcConfig::centre_of_mass_frame),
                "Move the generated bodies to the centre-of-mass frame (at rest at the origin)"),
        text("ic.scenario.model",
             at_enum(ic::representation_names, &RunConfig::ic, &ic::IcConfig::scenario_model),
             "ic.type = scenario: the grain model of the same grains: the hull itself, the "
             "aggregate of spheres matched to its mass and inertia, or one sphere of its mass "
             "and volume",
             enum_names(ic::representation_names)),
        integer("ic.cloud.n", at(&RunConfig::ic, &ic::IcConfig::cloud, &ic::CloudConfig::n),
                "Number of grains (spheres or aggregates) in the cloud", 1),
        text("ic.cloud.shape",
             at_enum(ic::region_names, &RunConfig::ic, &ic::IcConfig::cloud,
                     &ic::CloudConfig::region),
             "Region filled uniformly, centred on the origin: a sphere, a cube, or an annulus "
             "about the z axis (the gap of a Taylor-Couette cell)",
             enum_names(ic::region_names)),
        positive("ic.cloud.size", "m",
                 at(&RunConfig::ic, &ic::IcConfig::cloud, &ic::CloudConfig::size),
                 "Radius of the sphere, edge of the cube, or outer radius of the annulus"),
        non_negative("ic.cloud.inner_radius", "m",
                     at(&RunConfig::ic, &ic::IcConfig::cloud, &ic::CloudConfig::inner_radius),
                     "annulus: inner radius (< size; 0: a full cylinder)"),
        non_negative("ic.cloud.height", "m",
                     at(&RunConfig::ic, &ic::IcConfig::cloud, &ic::CloudConfig::height),
                     "annulus: height along z, from -height/2 to height/2 (required, > 0)"),
        text("ic.cloud.radius_distribution",
             at_enum(ic::radius_distribution_names, &RunConfig::ic, &ic::IcConfig::cloud,
                     &ic::CloudConfig::radii, &ic::RadiusSpec::distribution),
             "Sphere radii: fixed = ic.cloud.radius; uniform in [radius_min, radius_max]; "
             "power_law dN/dR ~ R^-q in [radius_min, radius_max]",
             enum_names(ic::radius_distribution_names)),
        positive("ic.cloud.radius", "m",
                 at(&RunConfig::ic, &ic::IcConfig::cloud, &ic::CloudConfig::radii,
                    &ic::RadiusSpec::radius),
                 "Radius of every sphere (fixed distribution)"),
        positive("ic.cloud.radius_min", "m",
                 at(&RunConfig::ic, &ic::IcConfig::cloud, &ic::CloudConfig::radii,
                    &ic::RadiusSpec::radius_min),
                 "Smallest radius (uniform, power_law)"),
        positive("ic.cloud.radius_max", "m",
                 at(&RunConfig::ic, &ic::IcConfig::cloud, &ic::CloudConfig::radii,
                    &ic::RadiusSpec::radius_max),
                 "Largest radius (uniform, power_law)"),
        real("ic.cloud.power_law_index", "",
             at(&RunConfig::ic, &ic::IcConfig::cloud, &ic::CloudConfig::radii, &ic::RadiusSpec::q),
             "q in dN/dR ~ R^-q (power_law distribution)", -inf, inf, true),
        positive("ic.cloud.density", "kg m^-3",
                 at(&RunConfig::ic, &ic::IcConfig::cloud, &ic::CloudConfig::density),
                 "Density of every sphere (aggregates: overlaps counted twice; with "
                 "ic.cloud.match_hull, of the hull, docs/aggregates.md)"),
        text("ic.cloud.grain",
             at_enum(ic::grain_kind_names, &RunConfig::ic, &ic::IcConfig::cloud,
                     &ic::CloudConfig::grain, &ic::GrainConfig::kind),
             "Grain shape: sphere = free spheres of the drawn radius; cube, box, tetrahedron, "
             "hull (convex hull of 16 random points on a jittered ellipsoid), vertices (the "
             "convex hull of ic.cloud.grain_file's points) = that shape, its circumradius the "
             "drawn radius, as ic.cloud.grain_model says; file = the sphere layout of "
             "ic.cloud.grain_file scaled to the drawn bounding radius (docs/aggregates.md)",
             enum_names(ic::grain_kind_names)),
        text("ic.cloud.grain_model",
             at_enum(ic::grain_model_names, &RunConfig::ic, &ic::IcConfig::cloud,
                     &ic::CloudConfig::grain, &ic::GrainConfig::model),
             "What a grain of shape cube, box, tetrahedron, hull or vertices is: a rigid "
             "aggregate of spheres filling it (docs/aggregates.md) or the polyhedron itself "
             "(docs/polyhedra.md)",
             enum_names(ic::grain_model_names)),
        integer("ic.cloud.spheres_per_grain",
                at(&RunConfig::ic, &ic::IcConfig::cloud, &ic::CloudConfig::grain,
                   &ic::GrainConfig::spheres_per_grain),
                "Aggregates: spheres of a lattice fill (the closest count the lattice allows); "
                "used when ic.cloud.sphere_radius = 0",
                2, 10000),
        non_negative("ic.cloud.sphere_radius", "m",
                     at(&RunConfig::ic, &ic::IcConfig::cloud, &ic::CloudConfig::grain,
                        &ic::GrainConfig::sphere_radius),
                     "Aggregates: radius of the filling spheres (lattice spacing 2 x it), the "
                     "count following from each grain's size; 0: use ic.cloud.spheres_per_grain"),
        vec("ic.cloud.grain_aspect", "",
            at(&RunConfig::ic, &ic::IcConfig::cloud, &ic::CloudConfig::grain,
               &ic::GrainConfig::aspect),
            "Aggregates: edge ratios of a box, semi-axis ratios of a hull's ellipsoid (each > 0; "
            "scaled to the drawn size)"),
        boolean("ic.cloud.match_hull",
                at(&RunConfig::ic, &ic::IcConfig::cloud, &ic::CloudConfig::grain,
                   &ic::GrainConfig::match_hull),
                "cube, box, tetrahedron, hull: set the spheres' density and stretch their layout "
                "so mass and principal moments match the solid hull's (docs/aggregates.md)"),
        // Not bound: the file is read into GrainConfig::layout or vertex_hull by make_run_config
        // (config/run_config.cpp), which checks it against ic.cloud.grain.
        text("ic.cloud.grain_file", "\"\"",
             "grain = file: text file of the layout, one sphere per line \"x y z r\" (m), "
             "'#' starts a comment, spheres must touch or overlap; grain = vertices: one point "
             "per line \"x y z\" (m), their convex hull the shape"),
        integer("ic.lattice.nx", at(&RunConfig::ic, &ic::IcConfig::lattice, &ic::LatticeConfig::nx),
                "Spheres along x", 1),
        integer("ic.lattice.ny", at(&RunConfig::ic, &ic::IcConfig::lattice, &ic::LatticeConfig::ny),
                "Spheres along y", 1),
        integer("ic.lattice.nz", at(&RunConfig::ic, &ic::IcConfig::lattice, &ic::LatticeConfig::nz),
                "Spheres along z", 1),
        positive("ic.lattice.spacing", "m",
                 at(&RunConfig::ic, &ic::IcConfig::lattice, &ic::LatticeConfig::spacing),
                 "Distance between neighbouring centres (>= 2 radius)"),
        positive("ic.lattice.radius", "m",
                 at(&RunConfig::ic, &ic::IcConfig::lattice, &ic::LatticeConfig::radius),
                 "Radius of every sphere"),
        positive("ic.lattice.density", "kg m^-3",
                 at(&RunConfig::ic, &ic::IcConfig::lattice, &ic::LatticeConfig::density),
                 "Density of every sphere"),
        non_negative("ic.motion.v0", "m/s",
                     at(&RunConfig::ic, &ic::IcConfig::motion, &ic::MotionConfig::v0),
                     "Speed of every body in a random isotropic direction (cloud, lattice)"),
        non_negative("ic.motion.w0", "rad/s",
                     at(&RunConfig::ic, &ic::IcConfig::motion, &ic::MotionConfig::w0),
                     "Spin rate of every body about a random isotropic axis (cloud, lattice)"),
        real("ic.motion.omega", "rad/s",
             at(&RunConfig::ic, &ic::IcConfig::motion, &ic::MotionConfig::omega),
             "Solid-body rotation of the whole set about +z through its centre (cloud, lattice)",
             -inf, inf, true),
        positive("ic.two_body.m1", "kg",
                 at(&RunConfig::ic, &ic::IcConfig::two_body, &ic::TwoBodyConfig::m1),
                 "Mass of the primary"),
        positive("ic.two_body.m2", "kg",
                 at(&RunConfig::ic, &ic::IcConfig::two_body, &ic::TwoBodyConfig::m2),
                 "Mass of the secondary"),
        positive("ic.two_body.radius1", "m",
                 at(&RunConfig::ic, &ic::IcConfig::two_body, &ic::TwoBodyConfig::radius1),
                 "Radius of the primary"),
        positive("ic.two_body.radius2", "m",
                 at(&RunConfig::ic, &ic::IcConfig::two_body, &ic::TwoBodyConfig::radius2),
                 "Radius of the secondary"),
        positive("ic.two_body.a", "m",
                 at(&RunConfig::ic, &ic::IcConfig::two_body, &ic::TwoBodyConfig::a),
                 "Semi-major axis of the relative orbit"),
        real("ic.two_body.e", "",
             at(&RunConfig::ic, &ic::IcConfig::two_body, &ic::TwoBodyConfig::e),
             "Eccentricity of the relative orbit (bodies start at periapsis)", 0.0, 1.0, false,
             true),
        text("ic.file.path", at(&RunConfig::ic, &ic::IcConfig::file, &ic::IcFileConfig::path),
             "rubble HDF5 file to take the bodies from (ic.type = file)"),
        integer("ic.file.snapshot",
                at(&RunConfig::ic, &ic::IcConfig::file, &ic::IcFileConfig::snapshot),
                "Snapshot index in ic.file.path; -1: the last", -1),
        text("ic.table.path", at(&RunConfig::ic, &ic::IcConfig::table, &ic::IcTableConfig::path),
             "Table of bodies to start from (ic.type = table): one row per body, columns "
             "named by its header (docs/parameters.md, \"Bodies from a table\")"),
    };
}

// The keys of one [[walls]] table ("walls.name": the section is "walls"). Which type takes
// which key, and the cross-key checks, are in config/wall_config.cpp.
std::vector<ParamSpec> make_wall_specs() {
    return {
        text("walls.type", "-",
             "plane: an infinite plane, bodies on the side its normal points to; box: a closed "
             "box of six planes facing inwards; cylinder: a circular cylinder, infinite (bodies "
             "inside or outside it) or finite (a closed can, a solid post, an open tube); hull: "
             "a convex polyhedron held in place (a boulder, a slab), for polyhedral grains only",
             {"plane", "box", "cylinder", "hull"}),
        vec("walls.point", "m", "-",
            "plane: a point of the plane; cylinder: a point of the axis, the centre of the first "
            "end of a finite one (at t = 0; it moves with velocity); hull: where the origin of "
            "its vertex file sits"),
        vec("walls.normal", "", "-",
            "plane: normal towards the bodies' side (any length > 0; normalised); the plane "
            "turns about it through point at angular_velocity"),
        vec("walls.min", "m", "-", "box: the corner with the smallest coordinates (at t = 0)"),
        vec("walls.max", "m", "-", "box: the corner with the largest coordinates (each > min's)"),
        vec("walls.axis", "", "-",
            "cylinder: direction of the axis (any length > 0; normalised); angular_velocity "
            "turns the cylinder about it, right-handed; hull: the axis its vertices are turned "
            "about by angle (about the file's origin, before moving it to point)"),
        positive("walls.radius", "m", "-", "cylinder: radius of its surface"),
        text("walls.side", "\"inside\"",
             "cylinder: where the bodies are, inside or outside its surface (an open finite "
             "tube has both: leave it out)",
             {"inside", "outside"}),
        non_negative("walls.length", "m", "0.0",
                     "cylinder: 0 = infinite; > 0: finite, from point to point + length axis, "
                     "with rim edges at both ends"),
        boolean("walls.caps", "false",
                "finite cylinder: closed by two flat end discs (a can with side = inside, a "
                "solid post with side = outside) or open (a thin tube; spheres leave through "
                "its ends); the caps turn with the cylinder"),
        text("walls.vertices", "-",
             "hull: vertex file (one 'x y z' per line in m, # comments, as ic.cloud.grain_file) "
             "whose convex hull is the wall"),
        real("walls.angle", "rad", "0.0",
             "hull: right-handed rotation about axis that orients the hull", -inf, inf, true),
        vec("walls.velocity", "m/s", "[0.0, 0.0, 0.0]",
            "every type: constant velocity at which the wall translates"),
        real("walls.angular_velocity", "rad/s", "0.0",
             "plane, cylinder: rate at which the wall turns about its normal or axis (a drum, "
             "the inner cylinder of a Taylor-Couette cell); its surface drags spheres through "
             "eps_t < 1",
             -inf, inf, true),
    };
}

std::string format_bound(double v) {
    std::ostringstream os;
    os << v;
    return os.str();
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

} // namespace

std::string ParamSpec::section() const {
    const auto dot = key.rfind('.');
    return dot == std::string::npos ? std::string() : key.substr(0, dot);
}

std::string ParamSpec::name() const {
    const auto dot = key.rfind('.');
    return dot == std::string::npos ? key : key.substr(dot + 1);
}

std::string ParamSpec::range_text() const {
    if (!choices.empty()) {
        std::string s = "one of ";
        for (std::size_t i = 0; i < choices.size(); ++i)
            s += (i ? ", " : "") + choices[i];
        return s;
    }
    if (type != ParamType::real && type != ParamType::integer) return "";
    const bool has_lo = lower > -inf, has_hi = upper < inf;
    if (has_lo && has_hi) {
        return "in " + std::string(lower_open ? "(" : "[") + format_bound(lower) + ", " +
               format_bound(upper) + (upper_open ? ")" : "]");
    }
    if (has_lo) return (lower_open ? "> " : ">= ") + format_bound(lower);
    if (has_hi) return (upper_open ? "< " : "<= ") + format_bound(upper);
    return "";
}

namespace {
// A bound key's member must hold the key's type (ParamType lists them in ParamValue's order).
std::vector<ParamSpec> checked(std::vector<ParamSpec> specs) {
    for (const ParamSpec& s : specs) {
        if (s.binding && s.binding.get(defaults()).index() != static_cast<std::size_t>(s.type))
            throw std::logic_error("parameter " + s.key + " is bound to a member of another type");
    }
    return specs;
}
} // namespace

const std::vector<ParamSpec>& parameter_specs() {
    static const std::vector<ParamSpec> specs = checked(make_specs());
    return specs;
}

const ParamSpec* find_spec(const std::string& key) {
    for (const auto& s : parameter_specs()) {
        if (s.key == key) return &s;
    }
    return nullptr;
}

const std::vector<ParamSpec>& wall_specs() {
    static const std::vector<ParamSpec> specs = make_wall_specs();
    return specs;
}

const ParamSpec* find_wall_spec(const std::string& name) {
    for (const auto& s : wall_specs()) {
        if (s.name() == name) return &s;
    }
    return nullptr;
}

std::string closest_wall_key(const std::string& name) {
    constexpr std::size_t longest_typo = 64;
    if (name.size() > longest_typo) return "";
    std::string best;
    std::size_t best_d = name.size() / 2 + 2;
    for (const auto& s : wall_specs()) {
        const std::size_t d = edit_distance(name, s.name());
        if (d < best_d) {
            best_d = d;
            best = s.name();
        }
    }
    return best;
}

std::string closest_key(const std::string& key) {
    // The edit distance costs |key| x |spec key|; a key far longer than any spec is no typo.
    constexpr std::size_t longest_typo = 64;
    if (key.size() > longest_typo) return "";
    std::string best;
    std::size_t best_d = key.size() / 2 + 2; // only suggest reasonably close keys
    for (const auto& s : parameter_specs()) {
        const std::size_t d = edit_distance(key, s.key);
        if (d < best_d) {
            best_d = d;
            best = s.key;
        }
    }
    return best;
}

} // namespace rubble::config
