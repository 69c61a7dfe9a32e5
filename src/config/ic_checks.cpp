// SPDX-License-Identifier: MIT
// Feasibility of the initial conditions, judged before any body is made (from the parameters;
// an initial-condition file is read for it): memory, placement, and the physical scales the
// run will form from them.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <unistd.h>

#include "rubble/config/run_checks.hpp"
#include "rubble/core/types.hpp"
#include "rubble/ic/body_table.hpp"
#include "rubble/ic/generators.hpp"
#include "rubble/runfile/run_file.hpp"

namespace rubble::config {
namespace {

// As a double, so that nx * ny * nz cannot overflow.
double planned_bodies(const RunConfig& c) {
    switch (c.ic.type) {
    case ic::IcType::cloud:
    case ic::IcType::scenario:
        return static_cast<double>(c.ic.cloud.n);
    case ic::IcType::lattice:
        return static_cast<double>(c.ic.lattice.nx) * static_cast<double>(c.ic.lattice.ny) *
               static_cast<double>(c.ic.lattice.nz);
    case ic::IcType::two_body:
        return 2.0;
    case ic::IcType::file:
    case ic::IcType::table:
        break;
    }
    return 0.0; // bounded by the file's size
}

void check_memory(const ParameterSet& p, const RunConfig& c) {
    const double n = planned_bodies(c);
    const double need = n * bytes_per_body;
    const double have = available_memory();
    if (have <= 0.0 || need <= have) return;
    const std::string what = approx_text(n) + " bodies need about " + approx_text(need / 1e9) +
                             " GB of memory (" + approx_text(bytes_per_body) + " B per body) but " +
                             approx_text(have / 1e9) + " GB are available";
    if (c.ic.type == ic::IcType::cloud || c.ic.type == ic::IcType::scenario)
        throw p.error("ic.cloud.n", what);
    throw p.error("ic.lattice.nx", "with " + p.described("ic.lattice.ny") + " and " +
                                       p.described("ic.lattice.nz") + ": " + what);
}

bool fixed_radius(const ic::CloudConfig& c) {
    return c.radii.distribution == ic::RadiusDistribution::fixed;
}
std::string radius_key(const ic::CloudConfig& c) {
    return fixed_radius(c) ? "ic.cloud.radius" : "ic.cloud.radius_max";
}
double largest_radius(const ic::CloudConfig& c) {
    return fixed_radius(c) ? c.radii.radius : c.radii.radius_max;
}
std::string region_name(const ic::CloudConfig& c) {
    return std::string(enum_name(ic::region_names, c.region));
}

// Mean of (R / scale)^3 over the generator's own radius sampler: exact for fixed radii and
// within a few percent from 4096 draws otherwise, whatever the distribution. The ratio to the
// region's size keeps the volume fraction free of overflow for any size.
double mean_cubed_radius(const ic::CloudConfig& c, double scale) {
    const int draws = fixed_radius(c) ? 1 : 4096;
    Rng rng(1);
    double sum = 0.0;
    for (int i = 0; i < draws; ++i)
        sum += std::pow(ic::draw_radius(c.radii, rng) / scale, 3);
    return sum / draws;
}

double volume_fraction(const ic::CloudConfig& c) {
    // n <R^3> 4/3 pi / V, with R in units of size: V / size^3 is 4/3 pi, 1, or
    // pi (1 - (inner / size)^2) height / size for the annulus.
    double shape = c.region == ic::Region::sphere ? 1.0 : 4.0 / 3.0 * pi;
    if (c.region == ic::Region::annulus) {
        const double hole = c.inner_radius / c.size;
        shape = 4.0 / 3.0 / ((1.0 - hole * hole) * (c.height / c.size));
    }
    return static_cast<double>(c.n) * shape * mean_cubed_radius(c, c.size);
}

// Refuses what random sequential placement cannot do in reasonable time: spheres larger than
// the region, or more volume than it can fill (1e7 spheres of 5 m in 1 km: 1.25).
void check_cloud(const ParameterSet& p, const ic::CloudConfig& c) {
    if (c.region == ic::Region::annulus) {
        if (!(c.height > 0.0))
            throw p.error("ic.cloud.height", "an annulus needs a height > 0 (m) along z");
        if (!(c.inner_radius < c.size))
            throw p.error("ic.cloud.inner_radius",
                          "must be < the annulus' outer radius " + p.described("ic.cloud.size"));
    }
    if (!(largest_radius(c) < ic::region_room(c)))
        throw p.error(radius_key(c), "a sphere this large does not fit in the " + region_name(c) +
                                         " of " + p.described("ic.cloud.size"));
    const double f = volume_fraction(c);
    if (!(f <= max_cloud_volume_fraction))
        throw p.error("ic.cloud.n",
                      "spheres of " + p.described(radius_key(c)) +
                          " would fill a volume fraction " + approx_text(f) + " of the " +
                          region_name(c) + " of " + p.described("ic.cloud.size") +
                          "; random placement cannot exceed " +
                          approx_text(max_cloud_volume_fraction) +
                          " (it jams near 0.38): increase ic.cloud.size or decrease ic.cloud.n");
}

// The few numbers of the initial bodies from which the run's scales follow.
struct PlannedSystem {
    double mass = 0.0;       ///< kg, total
    double radius = 0.0;     ///< m, extent about the centre (periapsis for two bodies)
    double density = 0.0;    ///< kg m^-3, largest
    double speed = 0.0;      ///< m/s, largest
    double spin_speed = 0.0; ///< m/s, largest surface speed of a spin
    std::string mass_key, speed_key, spin_key; ///< the parameters each comes from
};

double sphere_volume(double r) {
    return 4.0 / 3.0 * pi * r * r * r;
}

void add_motion(PlannedSystem& s, const RunConfig& c, double body_radius) {
    const double rotation = std::abs(c.ic.motion.omega) * s.radius;
    s.speed = c.ic.motion.v0 + rotation;
    s.speed_key = c.ic.motion.v0 >= rotation ? "ic.motion.v0" : "ic.motion.omega";
    s.spin_speed = c.ic.motion.w0 * body_radius;
    s.spin_key = "ic.motion.w0";
}

PlannedSystem planned_system(const RunConfig& c) {
    PlannedSystem s;
    if (c.ic.type == ic::IcType::cloud || c.ic.type == ic::IcType::scenario) {
        const auto& k = c.ic.cloud;
        s.radius = k.region == ic::Region::sphere ? k.size : 0.5 * std::sqrt(3.0) * k.size;
        if (k.region == ic::Region::annulus) s.radius = std::hypot(k.size, 0.5 * k.height);
        s.density = k.density;
        s.mass = static_cast<double>(k.n) * k.density * 4.0 / 3.0 * pi * mean_cubed_radius(k, 1.0);
        s.mass_key = "ic.cloud.density";
        add_motion(s, c, largest_radius(k));
    } else if (c.ic.type == ic::IcType::lattice) {
        const auto& l = c.ic.lattice;
        const double n_max = static_cast<double>(std::max({l.nx, l.ny, l.nz}));
        s.radius = 0.5 * l.spacing * n_max * std::sqrt(3.0) + l.radius;
        s.density = l.density;
        s.mass = planned_bodies(c) * l.density * sphere_volume(l.radius);
        s.mass_key = "ic.lattice.density";
        add_motion(s, c, l.radius);
    } else {
        const auto& t = c.ic.two_body;
        s.mass = t.m1 + t.m2;
        s.radius = t.a * (1.0 - t.e);
        s.density = std::max(t.m1 / sphere_volume(t.radius1), t.m2 / sphere_volume(t.radius2));
        s.speed = std::sqrt(c.G * s.mass * (1.0 + t.e) / s.radius); // as make_two_body
        s.mass_key = "ic.two_body.m1";
        s.speed_key = "units.G";
    }
    return s;
}

bool finite_positive(double x) {
    return std::isfinite(x) && x > 0.0;
}

std::string system_text(const PlannedSystem& s) {
    return " (total mass M = " + approx_text(s.mass) + " kg, size R = " + approx_text(s.radius) +
           " m, largest density rho = " + approx_text(s.density) + " kg/m^3)";
}

// Gravity's scales: escape speed^2 G M/R, binding energy G M^2/R, free-fall rate G rho and
// the softened distance^3 of the pair kernel. Any of them infinite or zero turns the state
// into NaN or freezes it (units.G = 1e308, gravity.softening = 1e308).
void check_gravity_scales(const ParameterSet& p, const RunConfig& c, const PlannedSystem& s) {
    const double G = c.G;
    const auto require = [&](double x, const std::string& what) {
        if (!finite_positive(x))
            throw p.error("units.G", what + " = " + approx_text(x) + system_text(s) +
                                         " is not finite and non-zero in double precision; "
                                         "choose units in which it is");
    };
    require(G * s.mass / s.radius, "the escape speed^2 G M/R");
    require(G * s.mass / s.radius * s.mass, "the binding energy G M^2/R");
    require(G * s.density, "the free-fall rate^2 G rho");
    const double eps = c.gravity.softening;
    const double d2 = s.radius * s.radius + eps * eps;
    if (!std::isfinite(d2 * std::sqrt(d2)))
        throw p.error(
            "gravity.softening",
            "(R^2 + softening^2)^(3/2) with the system size R = " + approx_text(s.radius) +
                " m overflows double precision; a softening comparable to the body "
                "radii is usual");
}

// The same numbers from bodies read from a file (ic.file.path or ic.table.path: `key`), or
// nothing when a value is not finite and positive where it must be: validation then names the
// body that has it.
std::optional<PlannedSystem> system_of(const Bodies& b, const char* key) {
    for (std::size_t i = 0; i < b.size(); ++i) {
        if (!(finite_positive(b.mass[i]) && finite_positive(b.radius[i]) && b.pos[i].allFinite() &&
              b.vel[i].allFinite() && b.spin[i].allFinite()))
            return std::nullopt;
    }
    PlannedSystem s;
    s.mass = total_mass(b);
    s.density = max_density(b);
    Vec3 centre = Vec3::Zero(), drift = Vec3::Zero();
    for (std::size_t i = 0; i < b.size(); ++i) {
        centre += b.mass[i] / s.mass * b.pos[i];
        drift += b.mass[i] / s.mass * b.vel[i];
    }
    for (std::size_t i = 0; i < b.size(); ++i) {
        s.radius = std::max(s.radius, (b.pos[i] - centre).norm() + b.radius[i]);
        s.speed = std::max(s.speed, (b.vel[i] - drift).norm());
        s.spin_speed = std::max(s.spin_speed, b.spin[i].norm() * b.radius[i]);
    }
    s.mass_key = s.speed_key = s.spin_key = key;
    return s;
}

std::optional<PlannedSystem> loaded_system(const ParameterSet& p, const RunConfig& c) {
    if (c.ic.type == ic::IcType::table) {
        try { // (its contents: said with the key that named the file)
            return system_of(ic::read_body_table(c.ic.table.path), "ic.table.path");
        } catch (const InputError& e) {
            throw p.error("ic.table.path", e.what());
        }
    }
    runfile::Snapshot snap;
    try {
        snap = runfile::read_snapshot(c.ic.file.path, c.ic.file.snapshot);
    } catch (const InputError& e) {
        throw p.error("ic.file.path", e.what());
    }
    if (snap.bodies.size() == 0)
        throw p.error("ic.file.path", "its snapshot " + std::to_string(snap.index) +
                                          " holds no bodies: an initial state needs at least one");
    return system_of(snap.bodies, "ic.file.path");
}

void check_scales(const ParameterSet& p, const RunConfig& c, const PlannedSystem& s) {
    if (!finite_positive(s.mass) || !finite_positive(s.radius))
        throw p.error(s.mass_key, "the initial bodies' total mass or size" + system_text(s) +
                                      " is not finite in double precision");
    if (!std::isfinite(0.5 * s.mass * s.speed * s.speed))
        throw p.error(s.speed_key, "the kinetic energy M v^2/2 with the largest speed v = " +
                                       approx_text(s.speed) + " m/s" + system_text(s) +
                                       " overflows double precision");
    if (!std::isfinite(s.mass * s.spin_speed * s.spin_speed))
        throw p.error(s.spin_key, "the spin energy with surface speeds up to " +
                                      approx_text(s.spin_speed) + " m/s" + system_text(s) +
                                      " overflows double precision");
    if (c.gravity.backend != gravity::Backend::none) check_gravity_scales(p, c, s);
}

} // namespace

double available_memory() {
    std::ifstream in("/proc/meminfo");
    std::string key, unit;
    double kib = 0.0;
    while (in >> key >> kib) {
        std::getline(in, unit);
        if (key == "MemAvailable:") return kib * 1024.0;
    }
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0.0;
}

void check_initial_conditions(const ParameterSet& p, const RunConfig& c) {
    if (c.ic.type == ic::IcType::file || c.ic.type == ic::IcType::table) {
        // Read once more here, so that the refusal can name where units.G was set.
        if (const auto s = loaded_system(p, c)) check_scales(p, c, *s);
        return;
    }
    if (c.ic.type == ic::IcType::cloud || c.ic.type == ic::IcType::scenario)
        check_cloud(p, c.ic.cloud);
    check_memory(p, c);
    check_scales(p, c, planned_system(c));
}

void check_new_run(const ParameterSet& p, const RunConfig& c, const std::string& params_path) {
    check_run_files(p, c, params_path);
    check_initial_conditions(p, c);
}

} // namespace rubble::config
