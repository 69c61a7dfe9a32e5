// SPDX-License-Identifier: MIT
// A pile of polyhedra settling in a box under the NSC stepper (issue 21, items 8 and 9;
// docs/polyhedra.md, "Box pile benchmark"): 1,000 random convex hulls of 16 jittered points on
// an ellipsoid (Ferrari et al. 2020), 0.1 m across, density 2,500 kg/m^3, dropped from a loose
// 10 x 10 x 10 lattice into a box of five fixed planes (floor and four sides) under g = 9.81
// m/s^2, dt = 2 ms, mu = 0.5, no restitution, on one thread. It runs until the pile has
// settled, then a while longer, and prints per phase (falling, settled) the wall-clock time
// per step, the contacts per step and the solver's iterations, residual and converged
// fraction; in the settled phase also the force balance: the vertical force of the walls on
// the grains over the pile's weight, averaged over the last steps. Targets (issue 21): at most
// 10 ms per settled step with about 6,000 contacts, and |Fz| / W = 1 within 0.5 %.
//
// Usage: rubble_polyhedra_pile_bench [--pgs] [--seed N] [--fill-iterations N] [--iterations N]
//            [--ccps N] [--tolerance X] [--switch-steps N] [--settled-steps N] [--max-steps N]
//            [--print-every N] [--save-pile FILE] [--load-pile FILE] [--threads N]
// The pile is filled with the solver capped (--fill-iterations per CCP, two Coulomb passes;
// 0: uncapped, hours on one core), then the solver switches to the measured options (the
// defaults unless --iterations, --ccps, --tolerance), the first --switch-steps steps rebuild
// the warm start unmeasured, and --settled-steps steps are measured. --save-pile writes the
// bodies' state (raw doubles) when the fill ends (settled, or at --max-steps); --load-pile
// starts from such a file (same --seed: the same shapes) at the switch, so that variants of
// the stepper are measured on the same pile without refilling it. --threads sets the OpenMP
// threads (1 by default: the measure).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <omp.h>

#include "rubble/boundaries/wall.hpp"
#include "rubble/core/polyhedron.hpp"
#include "rubble/core/random.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/gravity/no_gravity.hpp"
#include "rubble/ic/aggregates.hpp"
#include "rubble/integrate/simulation.hpp"
#include "rubble/polyhedra/nsc_stepper.hpp"

using namespace rubble;

namespace {

constexpr double g = 9.81;             // m/s^2, along -z
constexpr double dt = 2e-3;            // s
constexpr double rho = 2500.0;         // kg/m^3
constexpr double r_grain = 0.05;       // m, circumradius of a grain (0.1 m across)
constexpr int side = 10;               // grains along each side of the lattice
constexpr int layers = 10;             // lattice layers
constexpr double spacing = 0.11;       // m, lattice spacing: 1 cm between circumspheres
constexpr double box = side * spacing; // m, inner width of the box
constexpr double margin = 1e-3;        // m, 1 % of the grain's size
constexpr double v_random = 0.1;       // m/s, the grains' random initial speeds
constexpr double w_random = 2.0;       // rad/s, and spins
// Settled: every grain's drift velocity below settled_speed and the mean kinetic energy per
// mass below settled_energy (an rms speed of 2 mm/s), for settled_hold steps in a row. The
// fill's capped solver leaves the grains a jitter of about a centimetre per second at most.
constexpr double settled_speed = 2e-2;  // m/s
constexpr double settled_energy = 2e-6; // J/kg
constexpr int settled_hold = 25;
constexpr int balance_steps = 100; // the force balance's average: the last this many steps

struct Options {
    bool pgs = false;
    std::uint64_t seed = 1;
    int fill_iterations = 50; // the fill's solver: iterations per CCP (0: the measured one's)
    int max_iterations = 0;   // the measured solver's iterations per CCP (0: the default)
    int ccps = 0;             // its Coulomb passes at most (0: the default)
    double tolerance = 0.0;   // and its tolerances (0: the defaults)
    int switch_steps = 50;    // steps after the switch of solvers not measured
    int settled_steps = 200;  // settled steps measured
    int max_steps = 5000;     // steps of the fill at most
    int print_every = 50;     // progress lines every this many steps (0: none)
    std::string save_pile;    // the settled state's file to write ("": none)
    std::string load_pile;    // a settled state to start from ("": fill the box)
    int threads = 1;          // OpenMP threads
};

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&]() -> double {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s needs a value\n", a.c_str());
                std::exit(2);
            }
            return std::strtod(argv[++i], nullptr);
        };
        if (a == "--pgs") {
            o.pgs = true;
        } else if (a == "--seed") {
            o.seed = static_cast<std::uint64_t>(value());
        } else if (a == "--fill-iterations") {
            o.fill_iterations = static_cast<int>(value());
        } else if (a == "--iterations") {
            o.max_iterations = static_cast<int>(value());
        } else if (a == "--ccps") {
            o.ccps = static_cast<int>(value());
        } else if (a == "--tolerance") {
            o.tolerance = value();
        } else if (a == "--switch-steps") {
            o.switch_steps = static_cast<int>(value());
        } else if (a == "--settled-steps") {
            o.settled_steps = static_cast<int>(value());
        } else if (a == "--max-steps") {
            o.max_steps = static_cast<int>(value());
        } else if (a == "--print-every") {
            o.print_every = static_cast<int>(value());
        } else if (a == "--threads") {
            o.threads = static_cast<int>(value());
        } else if (a == "--save-pile" && i + 1 < argc) {
            o.save_pile = argv[++i];
        } else if (a == "--load-pile" && i + 1 < argc) {
            o.load_pile = argv[++i];
        } else {
            std::fprintf(
                stderr,
                "usage: %s [--pgs] [--seed N] [--fill-iterations N] [--iterations N] "
                "[--ccps N] [--tolerance X] [--switch-steps N] [--settled-steps N] [--max-steps N] "
                "[--print-every N] [--save-pile FILE] [--load-pile FILE] [--threads N]\n",
                argv[0]);
            std::exit(2);
        }
    }
    return o;
}

// The grains on the lattice, each its own random hull, turned at random, with small random
// velocities and spins.
Bodies make_grains(std::uint64_t seed) {
    Bodies b;
    Rng rng(seed);
    ic::GrainConfig grain;
    grain.kind = ic::GrainKind::hull;
    grain.aspect = Vec3(1.0, 0.7, 0.5); // the fragments' a : b : c (Fujiwara et al. 1978)
    std::int64_t id = 0;
    for (int k = 0; k < layers; ++k)
        for (int j = 0; j < side; ++j)
            for (int i = 0; i < side; ++i) {
                const auto shape = b.add_hull_shape(
                    shapes::make_polyhedron(ic::make_grain_hull(grain, r_grain, rng)));
                const Vec3 x((i + 0.5) * spacing, (j + 0.5) * spacing, (k + 0.5) * spacing + 0.01);
                const Quat q(Eigen::AngleAxisd(rng.uniform(0.0, pi), rng.unit_vector()));
                add_polyhedron(b, id++, shape, rho, x, v_random * rng.uniform() * rng.unit_vector(),
                               w_random * rng.uniform() * rng.unit_vector(), q);
            }
    return b;
}

// The stepper of the measured phases: a run's default solver options (collisions.solver_*)
// unless set; fill: the
// fill's, its iterations capped (and two CCPs of the Coulomb fixed point at most) so that the
// pile forms in minutes.
polyhedra::NscConfig make_config(const Options& o, bool fill) {
    polyhedra::NscConfig c;
    c.mu = 0.5;
    c.eps_n = 0.0;
    c.margin = margin;
    c.envelope = margin;
    c.recovery_speed = 0.1;
    if (o.pgs) c.solver.method = polyhedra::ContactMethod::pgs;
    if (fill && o.fill_iterations > 0) {
        c.solver.max_iterations = o.fill_iterations;
        c.solver.coulomb_max_iterations = 2;
    } else if (!fill) {
        if (o.max_iterations > 0) c.solver.max_iterations = o.max_iterations;
        if (o.ccps > 0) c.solver.coulomb_max_iterations = o.ccps;
        if (o.tolerance > 0) c.solver.tolerance = c.solver.coulomb_tolerance = o.tolerance;
    }
    // Floor and four sides: the box's faces but its lid.
    c.walls = boundaries::box_walls(Vec3::Zero(), Vec3(box, box, 10.0 * box), Vec3::Zero(), "box");
    c.walls.pop_back();
    return c;
}

// One phase's sums.
struct Phase {
    const char* name;
    int steps = 0;
    double seconds = 0.0, slowest = 0.0;
    double contacts = 0.0, wall_contacts = 0.0, iterations = 0.0, ccp = 0.0, converged = 0.0;
    double residual_sum = 0.0, residual_max = 0.0;
    double overlaps = 0.0, max_overlap = 0.0;

    void add(double s, const integrate::StepStats& st, std::size_t walls) {
        ++steps;
        seconds += s;
        slowest = std::max(slowest, s);
        contacts += static_cast<double>(st.contacts);
        wall_contacts += static_cast<double>(walls);
        iterations += integrate::work_counter(st, "contact_iterations");
        ccp += integrate::work_counter(st, "contact_ccp_solves");
        converged += integrate::work_counter(st, "contact_converged");
        const double res = integrate::work_counter(st, "contact_residual");
        residual_sum += res;
        residual_max = std::max(residual_max, res);
        overlaps += static_cast<double>(st.overlaps);
        max_overlap = std::max(max_overlap, st.max_overlap);
    }
    void print() const {
        if (steps == 0) {
            std::printf("%-8s no steps\n", name);
            return;
        }
        const double n = steps;
        std::printf("%-8s steps %5d  ms/step %7.2f (slowest %7.2f)  contacts/step %7.0f (walls "
                    "%5.0f)  iterations/step %7.1f  CCPs/step %5.2f  residual mean %.2e max "
                    "%.2e  converged %5.1f %%  overlaps/step %6.1f  max overlap %.2e\n",
                    name, steps, 1e3 * seconds / n, 1e3 * slowest, contacts / n, wall_contacts / n,
                    iterations / n, ccp / n, residual_sum / n, residual_max, 100.0 * converged / n,
                    overlaps / n, max_overlap);
    }
};

// The walls' vertical force on the grains in the last step (N) and their contacts.
std::pair<double, std::size_t> wall_force(const integrate::Simulation& sim) {
    const auto& stepper = dynamic_cast<const polyhedra::NscStepper&>(sim.stepper());
    double impulse_z = 0.0;
    std::size_t walls = 0;
    for (const polyhedra::NscContact& c : stepper.contacts())
        if (c.b < 0) {
            impulse_z += c.impulse.z();
            ++walls;
        }
    return {impulse_z / dt, walls};
}

// The bodies' state (positions, velocities, orientations, spins) as raw doubles.
void save_pile(const Bodies& b, const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    bool ok = f != nullptr;
    for (std::size_t k = 0; ok && k < b.size(); ++k) {
        const double row[13] = {b.pos[k].x(),         b.pos[k].y(),         b.pos[k].z(),
                                b.vel[k].x(),         b.vel[k].y(),         b.vel[k].z(),
                                b.orientation[k].w(), b.orientation[k].x(), b.orientation[k].y(),
                                b.orientation[k].z(), b.spin[k].x(),        b.spin[k].y(),
                                b.spin[k].z()};
        ok = std::fwrite(row, sizeof row, 1, f) == 1;
    }
    if (f != nullptr && std::fclose(f) != 0) ok = false;
    if (!ok) {
        std::fprintf(stderr, "cannot write %s\n", path.c_str());
        std::exit(1);
    }
}

void load_pile(Bodies& b, const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    bool ok = f != nullptr;
    for (std::size_t k = 0; ok && k < b.size(); ++k) {
        double row[13];
        ok = std::fread(row, sizeof row, 1, f) == 1;
        b.pos[k] = Vec3(row[0], row[1], row[2]);
        b.vel[k] = Vec3(row[3], row[4], row[5]);
        b.orientation[k] = Quat(row[6], row[7], row[8], row[9]);
        b.spin[k] = Vec3(row[10], row[11], row[12]);
    }
    if (ok && std::fgetc(f) != EOF) ok = false; // a file of another pile
    if (f != nullptr) std::fclose(f);
    if (!ok) {
        std::fprintf(stderr, "%s: not a pile of %zu grains written by --save-pile\n", path.c_str(),
                     b.size());
        std::exit(1);
    }
}

} // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    std::setvbuf(stdout, nullptr, _IOLBF, 0); // progress lines as they come, also into a pipe
    omp_set_num_threads(std::max(1, o.threads));

    Bodies grains = make_grains(o.seed);
    const bool loaded = !o.load_pile.empty();
    if (loaded) load_pile(grains, o.load_pile);
    integrate::Simulation sim(std::move(grains), std::make_unique<gravity::NoGravity>(), dt);
    sim.set_uniform_field(Vec3(0, 0, -g));
    sim.set_stepper(std::make_unique<polyhedra::NscStepper>(make_config(o, !loaded)));
    const Bodies& b = sim.bodies();
    const std::size_t n = b.size();
    double mass = 0.0;
    for (std::size_t k = 0; k < n; ++k)
        mass += b.mass[k];
    const double weight = mass * g;
    const polyhedra::NscConfig measured = make_config(o, false);
    std::printf(
        "polyhedra pile: %zu grains of 16-point hulls, circumradius %.3g m, %.4g kg in "
        "all, box %.3g m wide, dt %g s, mu 0.5, margin %g m, solver %s (max_iterations "
        "%d, CCPs %d, tolerance %.0e; the fill's: %s), %d thread(s)\n",
        n, r_grain, mass, box, dt, margin, o.pgs ? "pgs" : "apgd", measured.solver.max_iterations,
        measured.solver.coulomb_max_iterations, measured.solver.tolerance,
        o.fill_iterations > 0 ? (std::to_string(o.fill_iterations) + " iterations, 2 CCPs").c_str()
                              : "the same",
        std::max(1, o.threads));

    Phase falling{"falling"}, switched{"switch"}, settled{"settled"};
    std::vector<double> fz;                      // N, the walls' vertical force per settled step
    int calm = 0, settled_at = loaded ? -1 : -2; // -2: filling
    const int total = o.max_steps + o.switch_steps + o.settled_steps;
    for (int s = 0; s < total; ++s) {
        const bool filling = settled_at == -2;
        if (filling && s == o.max_steps) {
            std::printf("not settled after %d steps (%.2f s): measuring anyway\n", s, s * dt);
            settled_at = s - 1;
            // The runs that --load-pile it compare solvers on the same pile, settled or not.
            if (!o.save_pile.empty()) save_pile(b, o.save_pile);
        }
        if (settled_at >= 0 && s == settled_at + 1 &&
            o.fill_iterations > 0) // the measured solver from here on
            sim.set_stepper(std::make_unique<polyhedra::NscStepper>(measured));
        const auto t0 = std::chrono::steady_clock::now();
        sim.step();
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const auto [force_z, walls] = wall_force(sim);
        // The drift velocities: the step's end velocities less the last half kick.
        double fastest = 0.0, energy = 0.0;
        for (std::size_t k = 0; k < n; ++k) {
            const Vec3 v = b.vel[k] - 0.5 * dt * Vec3(0, 0, -g);
            fastest = std::max(fastest, v.norm());
            energy += 0.5 * b.mass[k] * v.squaredNorm();
        }
        energy /= mass;
        const int after = s - settled_at; // steps since the fill ended
        if (settled_at == -2) {
            falling.add(seconds, sim.last_stats(), walls);
            calm = fastest < settled_speed && energy < settled_energy ? calm + 1 : 0;
            if (calm >= settled_hold) {
                settled_at = s;
                if (!o.save_pile.empty()) save_pile(b, o.save_pile);
            }
        } else if (after <= o.switch_steps) {
            switched.add(seconds, sim.last_stats(), walls);
        } else {
            settled.add(seconds, sim.last_stats(), walls);
            fz.push_back(force_z);
        }
        if (o.print_every > 0 && (s % o.print_every == 0 || s == settled_at))
            std::printf(
                "step %5d t %.3f s  %8.2f ms  contacts %6lld  iterations %5.0f  CCPs %2.0f  "
                "residual %.1e  max speed %.2e m/s  KE/M %.2e J/kg  Fz/W %.4f%s\n",
                s, sim.time(), 1e3 * seconds, static_cast<long long>(sim.last_stats().contacts),
                integrate::work_counter(sim.last_stats(), "contact_iterations"),
                integrate::work_counter(sim.last_stats(), "contact_ccp_solves"),
                integrate::work_counter(sim.last_stats(), "contact_residual"), fastest, energy,
                force_z / weight, s == settled_at ? "  settled" : "");
        if (settled.steps >= o.settled_steps) break;
    }
    if (!loaded && falling.steps < o.max_steps)
        std::printf("settled after %d steps (%.3f s)\n", falling.steps, falling.steps * dt);
    falling.print();
    switched.print();
    settled.print();
    if (!fz.empty()) {
        const std::size_t m = std::min<std::size_t>(fz.size(), balance_steps);
        double mean = 0.0, lo = fz.back(), hi = fz.back();
        for (std::size_t k = fz.size() - m; k < fz.size(); ++k) {
            mean += fz[k];
            lo = std::min(lo, fz[k]);
            hi = std::max(hi, fz[k]);
        }
        mean /= static_cast<double>(m);
        std::printf("force balance over the last %zu steps: |Fz| / W = %.5f (%+.3f %%; per step "
                    "%.4f .. %.4f), W = %.2f N\n",
                    m, std::abs(mean) / weight, 100.0 * (std::abs(mean) / weight - 1.0),
                    lo / weight, hi / weight, weight);
    }
    return 0;
}
