// SPDX-License-Identifier: MIT
// Project Chrono's NSC (ChSystemNSC, its default PSOR solver, Bullet collision) on the cases
// issue 21 names for the polyhedral stepper, for a side-by-side run with rubble
// (bench/peers/chrono_box_pile.sh; docs/polyhedra.md, "Box pile benchmark"). Written against
// Chrono's own API as its demos use it; nothing of rubble is compiled in.
//
//   pile     the box pile of bench/polyhedra_pile_bench.cpp: 1000 random convex hulls of 16
//            points on an ellipsoid of semi-axes 1 : 0.7 : 0.5, each jittered radially by
//            +-10 %, scaled to a circumradius of 5 cm about its centroid, 2500 kg/m^3, dropped
//            from a 10 x 10 x 10 lattice (spacing 11 cm, random speeds up to 0.1 m/s and spins
//            up to 2 rad/s, random orientations) into a box 1.1 m wide (floor and four sides:
//            fixed Chrono box bodies); g = 9.81 m/s^2, dt = 2 ms, mu = 0.5, e = 0, envelope =
//            margin = 1 mm, max recovery speed 0.1 m/s, one thread. Filled with PSOR at
//            --fill-iterations until every grain is below 2 cm/s and the mean kinetic energy
//            per mass below 2e-6 J/kg for 25 steps in a row (or --max-steps); then for each
//            --iterations value: --switch-steps unmeasured steps, --settled-steps timed steps
//            (wall clock of DoStepDynamics), contacts per step, and |Fz| / W: the vertical
//            contact force of the five walls on the grains (minus the walls' GetContactForce)
//            over the grains' weight, averaged over the last 100 steps.
//   incline  a 1 m box (2000 kg/m^3), Chrono's box primitive or the hull of its corners, on a
//            level fixed floor under g tilted by theta, or on a fixed tilted slab under g (the
//            incline of tests/validation/polyhedra/nsc_box_test.cpp: mu = 0.5, dt = 2 ms,
//            envelope 1 cm, margin 2 cm, recovery 0.1 m/s), PSOR 100 iterations, 2 s: above
//            the friction angle (+1 deg, 30 and 40 deg) the acceleration along the slope
//            against g (sin - mu cos), below it (15 deg, friction angle - 1 deg) the
//            displacement; the drift along the normal.
//   bounce   a hull of 200 random points on a sphere of radius 0.5 m (2000 kg/m^3), turned by
//            1 rad about (1, 2, 3), and a 1 m box (flat), each dropped from 0.3 m on the floor
//            with e = 0.5, dt = 1 ms, envelope 1 cm, margin 2 cm, PSOR 100 iterations, min
//            bounce speed 1e-3 m/s: the measured restitution at the main contact point (the
//            lowest vertex: normal velocity after / before the impact, whose steps are those
//            in which the floor pushes) and of the centre of mass.
// Chrono's defaults otherwise: PSOR with tolerance 0 (all iterations run), no warm start
// (--warm-start turns it on), the Euler implicit linearized stepper, Bullet narrow phase.
// Each result is one line starting with "RESULT" (key=value pairs), for a table.
//
// Usage: chrono_box_pile [pile] [incline] [bounce] [--iterations 50,100] [--fill-iterations N]
//            [--max-steps N] [--switch-steps N] [--settled-steps N] [--seed N] [--warm-start]
//            [--print-every N]       (no case named: all three)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "chrono/ChVersion.h"
#include "chrono/collision/ChCollisionModel.h"
#include "chrono/physics/ChBodyEasy.h"
#include "chrono/physics/ChContactMaterialNSC.h"
#include "chrono/physics/ChSystemNSC.h"
#include "chrono/solver/ChIterativeSolverVI.h"

using namespace chrono;

namespace {

constexpr double g = 9.81; // m/s^2

struct Options {
    bool pile = false, incline = false, bounce = false;
    std::vector<int> iterations{50, 100}; // the measured PSOR iterations
    int fill_iterations = 50;
    int max_steps = 4000;
    int switch_steps = 50;
    int settled_steps = 200;
    unsigned long seed = 1;
    bool warm_start = false; // Chrono's default: off
    int print_every = 100;
};

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "pile") {
            o.pile = true;
        } else if (a == "incline") {
            o.incline = true;
        } else if (a == "bounce") {
            o.bounce = true;
        } else if (a == "--iterations") {
            o.iterations.clear();
            std::stringstream s(value());
            std::string item;
            while (std::getline(s, item, ','))
                o.iterations.push_back(std::atoi(item.c_str()));
        } else if (a == "--fill-iterations") {
            o.fill_iterations = std::atoi(value().c_str());
        } else if (a == "--max-steps") {
            o.max_steps = std::atoi(value().c_str());
        } else if (a == "--switch-steps") {
            o.switch_steps = std::atoi(value().c_str());
        } else if (a == "--settled-steps") {
            o.settled_steps = std::atoi(value().c_str());
        } else if (a == "--seed") {
            o.seed = std::strtoul(value().c_str(), nullptr, 10);
        } else if (a == "--warm-start") {
            o.warm_start = true;
        } else if (a == "--print-every") {
            o.print_every = std::atoi(value().c_str());
        } else {
            std::fprintf(stderr,
                         "usage: %s [pile] [incline] [bounce] [--iterations 50,100] "
                         "[--fill-iterations N] [--max-steps N] [--switch-steps N] "
                         "[--settled-steps N] [--seed N] [--warm-start] [--print-every N]\n",
                         argv[0]);
            std::exit(2);
        }
    }
    if (!o.pile && !o.incline && !o.bounce) o.pile = o.incline = o.bounce = true;
    return o;
}

// Chrono's PSOR (the NSC default) with a fixed number of iterations: tolerance 0 never stops
// it early (Chrono's default tolerance).
void set_psor(ChSystemNSC& sys, int iterations, bool warm_start) {
    sys.SetSolverType(ChSolver::Type::PSOR);
    auto solver = sys.GetSolver()->AsIterative();
    solver->SetMaxIterations(iterations);
    solver->SetTolerance(0.0);
    solver->EnableWarmStart(warm_start);
}

std::shared_ptr<ChBody> fixed_box(ChSystemNSC& sys, const ChVector3d& size,
                                  const ChVector3d& centre,
                                  std::shared_ptr<ChContactMaterialNSC> mat) {
    auto b = chrono_types::make_shared<ChBodyEasyBox>(size.x(), size.y(), size.z(), 1000.0, false,
                                                      true, mat);
    b->SetPos(centre);
    b->SetFixed(true);
    sys.Add(b);
    return b;
}

ChVector3d unit_vector(std::mt19937_64& rng) {
    std::normal_distribution<double> n;
    ChVector3d u;
    do {
        u = ChVector3d(n(rng), n(rng), n(rng));
    } while (u.Length() < 1e-12);
    return u / u.Length();
}

// The vertices of a random grain: the hull of 16 points on the ellipsoid 1 : 0.7 : 0.5, each at a
// uniform random direction, jittered radially by +-10 %, moved to its centroid and scaled to
// circumradius r. Chrono computes the hull (and its centroid, ChBodyEasyConvexHull).
std::vector<ChVector3d> grain_vertices(double r, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> jitter(-0.1, 0.1);
    std::vector<ChVector3d> p;
    for (int k = 0; k < 16; ++k) {
        const ChVector3d u = unit_vector(rng);
        p.push_back((1.0 + jitter(rng)) * ChVector3d(1.0 * u.x(), 0.7 * u.y(), 0.5 * u.z()));
    }
    ChBodyEasyConvexHull probe(p, 1.0, false, false); // vertices about the centroid
    std::vector<ChVector3d> v = probe.GetMesh()->GetCoordsVertices();
    double reach = 0.0;
    for (const auto& x : v)
        reach = std::max(reach, x.Length());
    for (auto& x : v)
        x *= r / reach;
    return v;
}

void pile(const Options& o) {
    constexpr double dt = 2e-3, rho = 2500.0, r_grain = 0.05, spacing = 0.11, box = 1.1;
    constexpr double margin = 1e-3;
    constexpr int side = 10, layers = 10;
    constexpr double settled_speed = 2e-2, settled_energy = 2e-6;
    constexpr int settled_hold = 25, balance_steps = 100;

    ChSystemNSC sys;
    sys.SetCollisionSystemType(ChCollisionSystem::Type::BULLET);
    sys.SetGravitationalAcceleration(ChVector3d(0, 0, -g));
    sys.SetNumThreads(1, 1, 1);
    sys.SetMaxPenetrationRecoverySpeed(0.1);
    ChCollisionModel::SetDefaultSuggestedEnvelope(margin);
    ChCollisionModel::SetDefaultSuggestedMargin(margin);
    set_psor(sys, o.fill_iterations, o.warm_start);

    auto mat = chrono_types::make_shared<ChContactMaterialNSC>();
    mat->SetFriction(0.5f);
    mat->SetRestitution(0.0f);

    // Floor and four sides (inner box [0, 1.1]^2, floor at z = 0), 0.2 m thick, 2.2 m high.
    const double t = 0.2, h = 2.2;
    std::vector<std::shared_ptr<ChBody>> walls;
    walls.push_back(
        fixed_box(sys, {box + 2 * t, box + 2 * t, t}, {0.5 * box, 0.5 * box, -0.5 * t}, mat));
    walls.push_back(fixed_box(sys, {t, box + 2 * t, h}, {-0.5 * t, 0.5 * box, 0.5 * h - t}, mat));
    walls.push_back(
        fixed_box(sys, {t, box + 2 * t, h}, {box + 0.5 * t, 0.5 * box, 0.5 * h - t}, mat));
    walls.push_back(fixed_box(sys, {box, t, h}, {0.5 * box, -0.5 * t, 0.5 * h - t}, mat));
    walls.push_back(fixed_box(sys, {box, t, h}, {0.5 * box, box + 0.5 * t, 0.5 * h - t}, mat));

    std::mt19937_64 rng(o.seed);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    std::vector<std::shared_ptr<ChBody>> grains;
    double mass = 0.0;
    std::size_t vertices = 0;
    for (int k = 0; k < layers; ++k)
        for (int j = 0; j < side; ++j)
            for (int i = 0; i < side; ++i) {
                const auto v = grain_vertices(r_grain, rng);
                vertices += v.size();
                auto b = chrono_types::make_shared<ChBodyEasyConvexHull>(v, rho, false, true, mat);
                b->SetPos(ChVector3d((i + 0.5) * spacing, (j + 0.5) * spacing,
                                     (k + 0.5) * spacing + 0.01));
                const double angle = CH_PI * uniform(rng);
                b->SetRot(QuatFromAngleAxis(angle, unit_vector(rng)));
                b->SetPosDt(0.1 * uniform(rng) * unit_vector(rng));
                b->SetAngVelParent(2.0 * uniform(rng) * unit_vector(rng));
                sys.Add(b);
                grains.push_back(b);
                mass += b->GetMass();
            }
    const double weight = mass * g;
    std::printf(
        "chrono pile: %zu grains (%.1f hull vertices each), %.4g kg, W = %.2f N, box %.3g m, "
        "dt %g s, mu 0.5, envelope = margin = %g m, recovery 0.1 m/s, PSOR (fill %d "
        "iterations), warm start %s, 1 thread\n",
        grains.size(), double(vertices) / grains.size(), mass, weight, box, dt, margin,
        o.fill_iterations, o.warm_start ? "on" : "off");

    const auto walls_fz = [&]() { // N, the walls' vertical force on the grains
        double fz = 0.0;
        for (const auto& w : walls)
            fz -= w->GetContactForce().z();
        return fz;
    };
    const auto timed_step = [&]() {
        const auto t0 = std::chrono::steady_clock::now();
        sys.DoStepDynamics(dt);
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };

    // Fill.
    int calm = 0, step = 0;
    bool settled = false;
    double fill_seconds = 0.0, fill_contacts = 0.0;
    for (; step < o.max_steps && !settled; ++step) {
        fill_seconds += timed_step();
        fill_contacts += sys.GetNumContacts();
        double fastest = 0.0, energy = 0.0;
        for (const auto& b : grains) {
            const double v2 = b->GetPosDt().Length2();
            fastest = std::max(fastest, std::sqrt(v2));
            energy += 0.5 * b->GetMass() * v2;
        }
        energy /= mass;
        calm = fastest < settled_speed && energy < settled_energy ? calm + 1 : 0;
        settled = calm >= settled_hold;
        if (o.print_every > 0 && (step % o.print_every == 0 || settled))
            std::printf(
                "fill step %5d t %.3f s  %7.2f ms (collision %.2f, solver %.2f)  contacts %6u  "
                "max speed %.2e m/s  KE/M %.2e J/kg  Fz/W %.4f%s\n",
                step, sys.GetChTime(), 1e3 * sys.GetTimerStep(), 1e3 * sys.GetTimerCollision(),
                1e3 * sys.GetTimerLSsolve(), sys.GetNumContacts(), fastest, energy,
                walls_fz() / weight, settled ? "  settled" : "");
        std::fflush(stdout);
    }
    std::printf(
        "RESULT case=chrono_pile_fill settled=%s steps=%d t=%.3f ms_per_step=%.2f contacts=%.0f "
        "psor_iterations=%d\n",
        settled ? "yes" : "no", step, step * dt, 1e3 * fill_seconds / std::max(step, 1),
        fill_contacts / std::max(step, 1), o.fill_iterations);

    // Measured phases, one per iteration count, one after another on the same pile.
    for (const int iterations : o.iterations) {
        set_psor(sys, iterations, o.warm_start);
        for (int s = 0; s < o.switch_steps; ++s)
            timed_step();
        double seconds = 0.0, slowest = 0.0, contacts = 0.0, collision = 0.0, solve = 0.0;
        std::vector<double> fz;
        double fastest = 0.0;
        for (int s = 0; s < o.settled_steps; ++s) {
            const double dt_wall = timed_step();
            seconds += dt_wall;
            slowest = std::max(slowest, dt_wall);
            contacts += sys.GetNumContacts();
            collision += sys.GetTimerCollision();
            solve += sys.GetTimerLSsolve();
            fz.push_back(walls_fz());
        }
        for (const auto& b : grains)
            fastest = std::max(fastest, b->GetPosDt().Length());
        const std::size_t m = std::min<std::size_t>(fz.size(), balance_steps);
        double mean = 0.0, lo = 1e300, hi = -1e300;
        for (std::size_t k = fz.size() - m; k < fz.size(); ++k) {
            mean += fz[k];
            lo = std::min(lo, fz[k]);
            hi = std::max(hi, fz[k]);
        }
        mean /= double(m);
        const double n = o.settled_steps;
        std::printf("RESULT case=chrono_pile_settled psor_iterations=%d steps=%d ms_per_step=%.2f "
                    "slowest_ms=%.2f collision_ms=%.2f solver_ms=%.2f contacts=%.0f fz_over_w=%.5f "
                    "fz_over_w_min=%.4f fz_over_w_max=%.4f max_speed=%.3e\n",
                    iterations, o.settled_steps, 1e3 * seconds / n, 1e3 * slowest,
                    1e3 * collision / n, 1e3 * solve / n, contacts / n, std::abs(mean) / weight,
                    lo / weight, hi / weight, fastest);
        std::fflush(stdout);
    }
}

// The incline, as rubble's tests/validation/polyhedra/nsc_box_test.cpp poses it: either a level
// floor (a fixed 40 m x 40 m x 1 m box) under g tilted by theta about y ("tilted_g", downhill
// +x), or g vertical and a fixed slab (40 m x 40 m x 0.5 m) tilted by theta ("slab"). The box
// is Chrono's box primitive (ChBodyEasyBox) or the convex hull of its eight corners
// (ChBodyEasyConvexHull). Measured along the slope's downhill direction d and its normal n.
void incline(const Options& o) {
    constexpr double dt = 2e-3, edge = 1.0, rho = 2000.0, mu = 0.5;
    constexpr int steps = 1000; // 2 s
    const double friction_angle = std::atan(mu) * 180.0 / CH_PI;
    std::vector<ChVector3d> corners;
    for (int i = 0; i < 8; ++i)
        corners.emplace_back((i & 1 ? 0.5 : -0.5) * edge, (i & 2 ? 0.5 : -0.5) * edge,
                             (i & 4 ? 0.5 : -0.5) * edge);
    for (const bool slab : {false, true})
        for (const bool hull : {false, true})
            for (const double degrees :
                 {15.0, friction_angle - 1.0, friction_angle + 1.0, 30.0, 40.0}) {
                const double theta = degrees * CH_PI / 180.0;
                ChSystemNSC sys;
                sys.SetCollisionSystemType(ChCollisionSystem::Type::BULLET);
                sys.SetNumThreads(1, 1, 1);
                sys.SetMaxPenetrationRecoverySpeed(0.1);
                ChCollisionModel::SetDefaultSuggestedEnvelope(0.01 * edge);
                ChCollisionModel::SetDefaultSuggestedMargin(0.02 * edge);
                set_psor(sys, 100, o.warm_start);
                auto mat = chrono_types::make_shared<ChContactMaterialNSC>();
                mat->SetFriction(float(mu));
                mat->SetRestitution(0.0f);
                // The slope's frame: its normal n and downhill direction d, and its tilt.
                const ChQuaterniond tilt = slab ? QuatFromAngleAxis(-theta, ChVector3d(0, 1, 0))
                                                : ChQuaterniond(1, 0, 0, 0);
                const ChVector3d n = tilt.Rotate(ChVector3d(0, 0, 1));
                const ChVector3d d = slab ? -tilt.Rotate(ChVector3d(1, 0, 0)) : ChVector3d(1, 0, 0);
                double base = 0.0; // the slope's surface along n from the origin
                if (slab) {
                    sys.SetGravitationalAcceleration(ChVector3d(0, 0, -g));
                    auto s = fixed_box(sys, {40.0, 40.0, 0.5}, {0, 0, 0}, mat);
                    s->SetRot(tilt);
                    base = 0.25;
                } else {
                    sys.SetGravitationalAcceleration(
                        ChVector3d(g * std::sin(theta), 0, -g * std::cos(theta)));
                    fixed_box(sys, {40.0, 40.0, 1.0}, {0, 0, -0.5}, mat);
                }
                std::shared_ptr<ChBody> b;
                if (hull)
                    b = chrono_types::make_shared<ChBodyEasyConvexHull>(corners, rho, false, true,
                                                                        mat);
                else
                    b = chrono_types::make_shared<ChBodyEasyBox>(edge, edge, edge, rho, false, true,
                                                                 mat);
                b->SetPos((base + 0.5 * edge) * n);
                b->SetRot(tilt);
                sys.Add(b);
                const ChVector3d start = b->GetPos();
                double v_half = 0.0, drift_max = 0.0;
                unsigned contacts = 0;
                for (int k = 1; k <= steps; ++k) {
                    sys.DoStepDynamics(dt);
                    drift_max = std::max(drift_max, std::abs(Vdot(b->GetPos() - start, n)));
                    if (k == steps / 2) v_half = Vdot(b->GetPosDt(), d);
                    contacts = sys.GetNumContacts();
                }
                const double a_exact = g * (std::sin(theta) - mu * std::cos(theta));
                const double v_end = Vdot(b->GetPosDt(), d);
                const double a_second = (v_end - v_half) / (0.5 * steps * dt); // the second second
                const double a_mean = v_end / (steps * dt);
                const ChVector3d moved = b->GetPos() - start;
                const char* setup = slab ? "slab" : "tilted_g";
                const char* shape = hull ? "hull8" : "box";
                if (degrees < friction_angle) {
                    std::printf(
                        "RESULT case=chrono_incline_stick setup=%s shape=%s degrees=%.2f mu=%.2f "
                        "psor_iterations=100 displacement_2s=%.3e along_slope_2s=%+.3e "
                        "normal_drift_max=%.3e contacts=%u\n",
                        setup, shape, degrees, mu, moved.Length(), Vdot(moved, d), drift_max,
                        contacts);
                } else {
                    std::printf(
                        "RESULT case=chrono_incline_slide setup=%s shape=%s degrees=%.2f mu=%.2f "
                        "psor_iterations=100 a_exact=%.5f a_second_second=%.5f rel_err=%+.2e "
                        "a_mean_2s=%.5f rel_err_mean=%+.2e normal_drift_max=%.3e "
                        "normal_drift_end=%+.3e contacts=%u\n",
                        setup, shape, degrees, mu, a_exact, a_second, a_second / a_exact - 1.0,
                        a_mean, a_mean / a_exact - 1.0, drift_max, Vdot(moved, n), contacts);
                }
                std::fflush(stdout);
            }
}

// The bounce of a faceted near-sphere (200 random points on a sphere of radius 0.5 m).
void bounce(const Options& o) {
    constexpr double dt = 1e-3, rho = 2000.0, e = 0.5, radius = 0.5;
    for (const bool box : {false, true}) {
        ChSystemNSC sys;
        sys.SetCollisionSystemType(ChCollisionSystem::Type::BULLET);
        sys.SetGravitationalAcceleration(ChVector3d(0, 0, -g));
        sys.SetNumThreads(1, 1, 1);
        sys.SetMaxPenetrationRecoverySpeed(0.1);
        sys.SetMinBounceSpeed(1e-3);
        ChCollisionModel::SetDefaultSuggestedEnvelope(0.01);
        ChCollisionModel::SetDefaultSuggestedMargin(0.02);
        set_psor(sys, 100, o.warm_start);
        auto mat = chrono_types::make_shared<ChContactMaterialNSC>();
        mat->SetFriction(0.5f);
        mat->SetRestitution(float(e));
        auto floor = fixed_box(sys, {10.0, 10.0, 1.0}, {0, 0, -0.5}, mat);
        std::shared_ptr<ChBody> b;
        std::vector<ChVector3d> local; // the body's vertices in its frame
        if (box) {                     // a 1 m box (Chrono's primitive) dropped flat
            for (int i = 0; i < 8; ++i)
                local.emplace_back(i & 1 ? 0.5 : -0.5, i & 2 ? 0.5 : -0.5, i & 4 ? 0.5 : -0.5);
            b = chrono_types::make_shared<ChBodyEasyBox>(1.0, 1.0, 1.0, rho, false, true, mat);
            b->SetPos(ChVector3d(0, 0, 0.5 + 0.3));
        } else {
            std::mt19937_64 rng(8);
            std::vector<ChVector3d> points;
            for (int k = 0; k < 200; ++k)
                points.push_back(radius * unit_vector(rng));
            auto hull =
                chrono_types::make_shared<ChBodyEasyConvexHull>(points, rho, false, true, mat);
            local = hull->GetMesh()->GetCoordsVertices();
            b = hull;
            b->SetPos(ChVector3d(0, 0, radius + 0.3));
            b->SetRot(QuatFromAngleAxis(1.0, ChVector3d(1, 2, 3) / std::sqrt(14.0)));
        }
        sys.Add(b);
        // The impact: the steps in which the floor pushes the body up (one, or more where
        // Chrono spreads it). Before it: the free velocity of its first step (the state at the
        // step's start plus its g kick; the body falls without spin); after it: the velocity at
        // the end of its last step less the g kicks of the steps after the first. Both at the
        // centre and at the lowest vertex at the impact's start (the main contact point).
        int impact_steps = 0, first = -1;
        ChVector3d v0, w0, r0, v_end, w_end; // the impact's start, and its last step's end
        for (int k = 0; k < 2000; ++k) {
            const ChVector3d start = b->GetPos(), v_start = b->GetPosDt();
            const ChVector3d w_start = b->GetAngVelParent();
            ChVector3d low = start;
            for (const auto& x : local) {
                const ChVector3d w = b->TransformPointLocalToParent(x);
                if (w.z() < low.z()) low = w;
            }
            sys.DoStepDynamics(dt);
            if (floor->GetContactForce().z() >= 0.0) { // no push on the body (minus the floor's)
                if (first >= 0) break;                 // the impact is over
                continue;
            }
            if (first < 0) {
                first = k;
                v0 = v_start;
                w0 = w_start;
                r0 = low - start;
            }
            ++impact_steps;
            v_end = b->GetPosDt();
            w_end = b->GetAngVelParent();
        }
        const ChVector3d kick(0, 0, -g * dt);
        const ChVector3d v_before = v0 + kick;
        const ChVector3d v_after = v_end - double(impact_steps - 1) * kick;
        const ChVector3d w_after = w_end;
        const double u_before = (v_before + Vcross(w0, r0)).z();
        const double u_after = (v_after + Vcross(w_after, r0)).z();
        const double e_point = -u_after / u_before, e_com = -v_after.z() / v_before.z();
        const double vz_up = v_after.z();
        std::printf(
            "RESULT case=chrono_bounce shape=%s e_set=%.2f psor_iterations=100 e_point=%.4f "
            "e_com=%.4f u_before=%.4f u_after=%.4f vz_after=%.4f impact_steps=%d first_step=%d\n",
            box ? "box" : "hull200", e, e_point, e_com, u_before, u_after, vz_up, impact_steps,
            first);
        std::fflush(stdout);
    }
}

} // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    std::printf("Chrono %s, NSC, PSOR, Bullet collision\n", CHRONO_VERSION);
    if (o.incline) incline(o);
    if (o.bounce) bounce(o);
    if (o.pile) pile(o);
    return 0;
}
