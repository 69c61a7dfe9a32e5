// SPDX-License-Identifier: MIT
#include "rubble/ic/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "rubble/core/error.hpp"
#include "rubble/core/polyhedron.hpp"
#include "rubble/core/polyhedron_mass.hpp"
#include "rubble/core/rigid_body.hpp"

namespace rubble::ic {

Scenario make_scenario(const CloudConfig& config, Rng& rng) {
    if (!is_hull_kind(config.grain.kind))
        throw InputError("scenario: the grains must be hulls (ic.cloud.grain = cube, box, "
                         "tetrahedron, hull or vertices): each grain model is derived from them");
    const auto n = static_cast<std::size_t>(config.n);
    std::vector<double> radii(n);
    for (auto& r : radii)
        r = draw_radius(config.radii, rng);
    std::sort(radii.begin(), radii.end(), std::greater<>()); // largest first, as make_cloud
    GrainConfig matched = config.grain;
    matched.match_hull = true;
    Scenario s;
    s.density = config.density;
    s.grains.resize(n);
    std::vector<double> reach(n);
    for (std::size_t i = 0; i < n; ++i) {
        ScenarioGrain& g = s.grains[i];
        g.hull = make_grain_hull(config.grain, radii[i], rng); // centroid at the origin
        g.aggregate = grain_of_hull(matched, g.hull, radii[i], config.density);
        g.sphere_radius = std::cbrt(3.0 * shapes::polyhedron_volume(g.hull) / (4.0 * pi));
        g.reach =
            std::max({radii[i], mass_properties(g.aggregate).bounding_radius, g.sphere_radius});
        reach[i] = g.reach;
    }
    place_in_region(config, reach, rng, [&](std::size_t i, const Vec3& p) {
        s.grains[i].position = p;
        s.grains[i].orientation = random_orientation(rng);
    });
    return s;
}

Bodies represent(const Scenario& s, Representation model) {
    Bodies b;
    b.reserve(s.grains.size());
    for (std::size_t i = 0; i < s.grains.size(); ++i) {
        const ScenarioGrain& g = s.grains[i];
        const auto id = static_cast<std::int64_t>(i);
        switch (model) {
        case Representation::polyhedron:
            add_polyhedron(b, id, b.add_hull_shape(shapes::make_polyhedron(g.hull)), s.density,
                           g.position, Vec3::Zero(), Vec3::Zero(), g.orientation);
            break;
        case Representation::aggregate:
            add_rigid_body(b, id, g.aggregate, g.position, Vec3::Zero(), Vec3::Zero(),
                           g.orientation);
            break;
        case Representation::sphere:
            // The hull's mass (its volume at the density) in a sphere of that volume.
            b.add_sphere(id, shapes::polyhedron_mass_properties(g.hull, s.density).mass,
                         g.sphere_radius, g.position, Vec3::Zero(), Vec3::Zero());
            break;
        }
    }
    return b;
}

} // namespace rubble::ic
