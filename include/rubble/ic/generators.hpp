// SPDX-License-Identifier: MIT
#pragma once
// Initial-condition generators. Each returns bodies with ids 0..N-1; the caller validates
// (no overlaps) and optionally moves them to the centre-of-mass frame.
#include <cstdint>
#include <functional>
#include <vector>

#include "rubble/core/bodies.hpp"
#include "rubble/core/enum_names.hpp"
#include "rubble/core/random.hpp"
#include "rubble/ic/aggregates.hpp"

namespace rubble::ic {

enum class Region { sphere, cube, annulus };
enum class RadiusDistribution { fixed, uniform, power_law };

/// ic.cloud.shape's names.
inline constexpr EnumNames<Region, 3> region_names{
    {{"sphere", Region::sphere}, {"cube", Region::cube}, {"annulus", Region::annulus}}};
/// ic.cloud.radius_distribution's names.
inline constexpr EnumNames<RadiusDistribution, 3> radius_distribution_names{
    {{"fixed", RadiusDistribution::fixed},
     {"uniform", RadiusDistribution::uniform},
     {"power_law", RadiusDistribution::power_law}}};

// The initialisers of these structs are the defaults of the ic.* keys that set them (the
// parameter table binds each key to its member, config/parameter_specs.cpp).

struct RadiusSpec {
    RadiusDistribution distribution = RadiusDistribution::fixed;
    double radius = 10.0;     ///< m (fixed)
    double radius_min = 5.0;  ///< m (uniform, power_law)
    double radius_max = 20.0; ///< m (uniform, power_law)
    double q = 3.5;           ///< dN/dR ~ R^-q (power_law)
};

struct CloudConfig {
    std::int64_t n = 1000; ///< grains (spheres or aggregates)
    Region region = Region::sphere;
    /// m: radius of the sphere, edge of the cube, outer radius of the annulus
    double size = 1000.0;
    double inner_radius = 0.0; ///< m, annulus: inner radius (0: a full cylinder)
    double height = 0.0;       ///< m, annulus: extent along z, centred on the origin
    RadiusSpec radii; ///< grain sizes: sphere radius, hull circumradius, layout bounding radius
    double density = 2000.0; ///< kg/m^3, of every sphere (match_hull: of the hull)
    GrainConfig grain;       ///< spheres (default) or rigid aggregates (ic/aggregates.hpp)
};

struct LatticeConfig {
    std::int64_t nx = 10, ny = 10, nz = 10;
    double spacing = 2.0;    ///< m, centre to centre
    double radius = 1.0;     ///< m
    double density = 2000.0; ///< kg/m^3
};

struct MotionConfig {
    double v0 = 0.0;    ///< m/s, random isotropic direction per body
    double w0 = 0.0;    ///< rad/s, random isotropic spin axis per body
    double omega = 0.0; ///< rad/s, solid-body rotation about +z through the centre of mass
};

struct TwoBodyConfig {
    double m1 = 1.0e12, m2 = 1.0e9;       ///< kg
    double radius1 = 50.0, radius2 = 5.0; ///< m
    double a = 1000.0;                    ///< m, semi-major axis of the relative orbit
    double e = 0.0;                       ///< eccentricity, in [0, 1)
};

/// The largest radius (m, exclusive) of a sphere that fits in the cloud's region.
[[nodiscard]] double region_room(const CloudConfig& config);

/// Draws one radius (m) from the distribution.
[[nodiscard]] double draw_radius(const RadiusSpec& spec, Rng& rng);

/// N non-overlapping grains placed uniformly at random (random sequential addition, largest
/// first) entirely inside the region (a sphere or a cube centred on the origin, or an annulus
/// about the z axis: inner_radius <= rho <= size, |z| <= height / 2, the gap of a
/// Taylor-Couette cell), at rest. O(N) expected: overlap tests use a hash grid.
/// Grains are free spheres, or rigid aggregates (config.grain) built by make_grain at the
/// drawn size, randomly oriented, kept apart by their bounding spheres about their centres of
/// mass. Throws InputError when the grains cannot be placed (volume fraction near jamming).
[[nodiscard]] Bodies make_cloud(const CloudConfig& config, Rng& rng);

/// make_cloud's placement: for each radius in order (callers sort them, largest first) a
/// uniformly random centre in the region that keeps the sphere of that radius inside it and off
/// the spheres placed before; `placed_at(i, centre)` is called as each is placed (it may draw
/// from rng: the sequence is the one make_cloud has always drawn). Throws InputError when the
/// largest does not fit or the grains cannot be placed (near jamming).
void place_in_region(const CloudConfig& config, const std::vector<double>& radii, Rng& rng,
                     const std::function<void(std::size_t, const Vec3&)>& placed_at);

/// Simple-cubic block of touching or separated spheres centred on the origin, at rest.
[[nodiscard]] Bodies make_lattice(const LatticeConfig& config);

/// Two spheres on a Keplerian orbit in the x-y plane, starting at periapsis, in the
/// centre-of-mass frame. G in m^3 kg^-1 s^-2.
[[nodiscard]] Bodies make_two_body(const TwoBodyConfig& config, double G);

/// Adds random velocities (v0), random spins (w0) and a solid-body rotation omega z x r about
/// the centre of mass: the rotating-frame initial condition of Ferrari et al. 2017 (sec. 4).
void apply_motion(Bodies& b, const MotionConfig& motion, Rng& rng);

} // namespace rubble::ic
