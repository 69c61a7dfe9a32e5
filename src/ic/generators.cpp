// SPDX-License-Identifier: MIT
#include "rubble/ic/generators.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "rubble/core/error.hpp"
#include "rubble/core/polyhedron.hpp"
#include "rubble/core/rigid_body.hpp"
#include "sphere_grid.hpp"

namespace rubble::ic {
namespace {

// Random sequential addition stops trying one sphere after this many rejected positions; by
// then the volume fraction is close to the jamming limit (~0.38 for equal spheres, Feder 1980).
constexpr int max_attempts_per_sphere = 20000;
// And the whole cloud after this many per sphere on average, so that no input can keep it
// placing for hours: each sphere can fail just short of the per-sphere limit. Filling to the
// volume fraction config::max_cloud_volume_fraction = 0.3 takes about 50 per sphere on average
// (2e4 equal spheres, sphere or cube), 4 for a power law of radii 0.5 to 3.
constexpr double max_mean_attempts = 1000.0;

Vec3 random_centre(const CloudConfig& c, double r, Rng& rng) {
    if (c.region == Region::sphere) return rng.in_ball(c.size - r);
    if (c.region == Region::annulus) {
        // Uniform in area: rho^2 uniform between the squared radii the centre may reach.
        const double a = c.inner_radius + r, b = c.size - r;
        const double rho = std::sqrt(rng.uniform(a * a, b * b)), phi = rng.uniform(0.0, 2 * pi);
        const double h = 0.5 * c.height - r;
        return {rho * std::cos(phi), rho * std::sin(phi), rng.uniform(-h, h)};
    }
    const double h = 0.5 * c.size - r;
    return {rng.uniform(-h, h), rng.uniform(-h, h), rng.uniform(-h, h)};
}

double region_volume(const CloudConfig& c) {
    if (c.region == Region::annulus)
        return pi * (c.size * c.size - c.inner_radius * c.inner_radius) * c.height;
    return c.region == Region::sphere ? 4.0 / 3.0 * pi * c.size * c.size * c.size
                                      : c.size * c.size * c.size;
}

} // namespace

double region_room(const CloudConfig& c) {
    if (c.region == Region::annulus) return 0.5 * std::min(c.size - c.inner_radius, c.height);
    return c.region == Region::sphere ? c.size : 0.5 * c.size;
}

namespace {} // namespace

double draw_radius(const RadiusSpec& spec, Rng& rng) {
    switch (spec.distribution) {
    case RadiusDistribution::fixed:
        return spec.radius;
    case RadiusDistribution::uniform:
        return rng.uniform(spec.radius_min, spec.radius_max);
    case RadiusDistribution::power_law: {
        // Inverse CDF of p(R) ~ R^-q on [a, b]: with k = 1 - q,
        // R = (a^k + u (b^k - a^k))^(1/k); k = 0 is the logarithmic case R = a (b/a)^u.
        const double a = spec.radius_min, b = spec.radius_max, u = rng.uniform();
        const double k = 1.0 - spec.q;
        if (std::abs(k) < 1e-12) return a * std::pow(b / a, u);
        const double ak = std::pow(a, k);
        return std::clamp(std::pow(ak + u * (std::pow(b, k) - ak), 1.0 / k), a, b);
    }
    }
    return spec.radius;
}

Bodies make_cloud(const CloudConfig& c, Rng& rng) {
    const auto n = static_cast<std::size_t>(c.n);
    std::vector<double> radii(n);
    for (auto& r : radii)
        r = draw_radius(c.radii, rng);
    // Largest first: big grains find room while the region is still empty.
    std::sort(radii.begin(), radii.end(), std::greater<>());
    std::vector<std::vector<SpherePart>> grains;
    std::vector<shapes::Polyhedron> polyhedra;
    const bool polyhedral = c.grain.model == GrainModel::polyhedron;
    if (polyhedral) {
        // Each grain the hull itself at its drawn circumradius, which is its bounding radius
        // about its centroid (the centre of mass at one density).
        polyhedra.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            polyhedra.push_back(shapes::make_polyhedron(make_grain_hull(c.grain, radii[i], rng)));
    } else if (c.grain.kind != GrainKind::sphere) {
        // Each grain is built at its drawn size; its bounding sphere about its centre of mass
        // (within the drawn circumradius, a matched fill a little beyond) is what placement
        // keeps apart.
        grains.reserve(n);
        std::vector<SpherePart> unit;
        if (same_shape_at_every_size(c.grain)) unit = make_grain(c.grain, 1.0, c.density, rng);
        for (std::size_t i = 0; i < n; ++i) {
            grains.push_back(unit.empty() ? make_grain(c.grain, radii[i], c.density, rng)
                                          : scaled_grain(unit, radii[i]));
            radii[i] = mass_properties(grains.back()).bounding_radius;
        }
    }
    Bodies b;
    b.reserve(n);
    place_in_region(c, radii, rng, [&](std::size_t i, const Vec3& p) {
        const auto id = static_cast<std::int64_t>(i);
        if (polyhedral)
            add_polyhedron(b, id, b.add_hull_shape(polyhedra[i]), c.density, p, Vec3::Zero(),
                           Vec3::Zero(), random_orientation(rng));
        else if (grains.empty())
            b.add_sphere(id, sphere_mass(c.density, radii[i]), radii[i], p, Vec3::Zero(),
                         Vec3::Zero());
        else
            add_rigid_body(b, id, grains[i], p, Vec3::Zero(), Vec3::Zero(),
                           random_orientation(rng));
    });
    return b;
}

void place_in_region(const CloudConfig& c, const std::vector<double>& radii, Rng& rng,
                     const std::function<void(std::size_t, const Vec3&)>& placed_at) {
    const std::size_t n = radii.size();
    if (n == 0) return;
    const double r_max = *std::max_element(radii.begin(), radii.end());
    if (r_max >= region_room(c)) {
        throw InputError("ic.cloud: the largest grain (radius " + std::to_string(r_max) +
                         " m) does not fit in a " + std::string(enum_name(region_names, c.region)) +
                         " of size " + std::to_string(c.size) + " m");
    }
    double volume = 0.0;
    for (double r : radii)
        volume += 4.0 / 3.0 * pi * r * r * r;
    const double fraction = volume / region_volume(c);

    std::vector<Vec3> centres;
    centres.reserve(n);
    SphereGrid grid(2.0 * r_max);
    const double budget = max_mean_attempts * static_cast<double>(n);
    double attempts = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const double r = radii[i];
        bool placed = false;
        for (int attempt = 0; attempt < max_attempts_per_sphere && !placed && attempts < budget;
             ++attempt) {
            attempts += 1.0;
            const Vec3 p = random_centre(c, r, rng);
            bool free = true;
            grid.for_each_near(p, [&](std::size_t j) {
                const double s = r + radii[j];
                if (free && (p - centres[j]).squaredNorm() < s * s) free = false;
            });
            if (!free) continue;
            grid.insert(i, p);
            centres.push_back(p);
            placed_at(i, p);
            placed = true;
        }
        if (!placed) {
            throw InputError("ic.cloud: placed only " + std::to_string(i) + " of " +
                             std::to_string(n) + " grains in " +
                             std::to_string(static_cast<long long>(attempts)) +
                             " attempts: the volume fraction " + std::to_string(fraction) +
                             " is too close to the random-packing limit (~0.38 for equal "
                             "spheres); increase ic.cloud.size or decrease ic.cloud.n");
        }
    }
}

Bodies make_lattice(const LatticeConfig& c) {
    Bodies b;
    b.reserve(static_cast<std::size_t>(c.nx * c.ny * c.nz));
    const double m = sphere_mass(c.density, c.radius);
    const auto offset = [&](std::int64_t i, std::int64_t n) {
        return c.spacing * (static_cast<double>(i) - 0.5 * static_cast<double>(n - 1));
    };
    std::int64_t next_id = 0;
    for (std::int64_t k = 0; k < c.nz; ++k)
        for (std::int64_t j = 0; j < c.ny; ++j)
            for (std::int64_t i = 0; i < c.nx; ++i)
                b.add_sphere(next_id++, m, c.radius,
                             Vec3(offset(i, c.nx), offset(j, c.ny), offset(k, c.nz)), Vec3::Zero(),
                             Vec3::Zero());
    return b;
}

Bodies make_two_body(const TwoBodyConfig& c, double G) {
    // Start at periapsis r_p = a (1 - e) with the vis-viva speed v_p = sqrt(G M (1+e)/r_p)
    // (Murray & Dermott 1999, eq. 2.36), split about the centre of mass.
    const double m_total = c.m1 + c.m2;
    const double rp = c.a * (1.0 - c.e);
    const double vp = std::sqrt(G * m_total * (1.0 + c.e) / rp);
    Bodies b;
    b.add_sphere(0, c.m1, c.radius1, Vec3(-c.m2 / m_total * rp, 0, 0),
                 Vec3(0, -c.m2 / m_total * vp, 0), Vec3::Zero());
    b.add_sphere(1, c.m2, c.radius2, Vec3(c.m1 / m_total * rp, 0, 0),
                 Vec3(0, c.m1 / m_total * vp, 0), Vec3::Zero());
    return b;
}

void apply_motion(Bodies& b, const MotionConfig& motion, Rng& rng) {
    const Vec3 centre = centre_of_mass(b);
    const Vec3 omega(0.0, 0.0, motion.omega);
    for (std::size_t i = 0; i < b.size(); ++i) {
        // Draw both directions for every body so v0 = 0 and w0 > 0 give the same spins as
        // v0 > 0 with the same seed.
        const Vec3 v_dir = rng.unit_vector();
        const Vec3 w_dir = rng.unit_vector();
        b.vel[i] += motion.v0 * v_dir + omega.cross(b.pos[i] - centre);
        b.spin[i] += motion.w0 * w_dir;
    }
}

} // namespace rubble::ic
