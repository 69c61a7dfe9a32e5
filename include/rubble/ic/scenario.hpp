// SPDX-License-Identifier: MIT
#pragma once
// One cloud, three grain models (issue 22, item 1; docs/campaigns.md): the grains are drawn
// once as convex hulls and placed once, and each grain model is derived from the same grains:
//   - polyhedron: the hull itself;
//   - aggregate: the lattice fill of the hull matched to its mass and inertia tensor
//     (ic::match_hull: its centre of mass on the hull's, its principal moments the hull's to
//     round-off, its principal axes turned onto the hull's);
//   - sphere: one sphere of the hull's mass and density (its volume), whose inertia is a
//     sphere's, not the hull's.
// Same centres of mass, orientations (the aggregate's layout is in the hull's frame), masses
// (to round-off), and, after apply_motion with the same generator state, the same velocities
// and spins. Placement keeps apart spheres of each grain's largest bounding radius over the
// three models (the hull's circumradius, or a matched fill's reach a little beyond it), so no
// model starts with overlaps.
#include <cstdint>
#include <vector>

#include "rubble/core/bodies.hpp"
#include "rubble/core/enum_names.hpp"
#include "rubble/ic/generators.hpp"

namespace rubble::ic {

/// The grain models a scenario is represented in.
enum class Representation { polyhedron, aggregate, sphere };

inline constexpr EnumNames<Representation, 3> representation_names{
    {{"polyhedron", Representation::polyhedron},
     {"aggregate", Representation::aggregate},
     {"sphere", Representation::sphere}}};

/// One grain, body frame centred on its centre of mass (the hull's centroid).
struct ScenarioGrain {
    shapes::ConvexHull hull;           ///< m
    std::vector<SpherePart> aggregate; ///< the matched fill, same frame
    double sphere_radius = 0.0;        ///< m, of the sphere of the hull's volume
    double reach = 0.0;                ///< m, the largest bounding radius of the three
    Vec3 position = Vec3::Zero();      ///< m
    Quat orientation = Quat::Identity();
};

struct Scenario {
    std::vector<ScenarioGrain> grains; ///< largest first (the placement order)
    double density = 0.0;              ///< kg/m^3, of the hulls
};

/// Draws config.n grains of config.grain's hull kind (is_hull_kind; a random hull by default)
/// at sizes from config.radii (the hull's circumradius), builds each one's three models (the
/// aggregate from config.grain's spheres_per_grain or sphere_radius, always matched to the
/// hull), and places them at random in config's region (make_cloud's placement, by reach),
/// randomly oriented. Throws InputError for a kind that is not a hull, and as make_cloud and
/// match_hull do (no room, fills that cannot be matched).
[[nodiscard]] Scenario make_scenario(const CloudConfig& config, Rng& rng);

/// The scenario's grains as bodies of one grain model, ids 0..N-1 in placement order, at rest.
[[nodiscard]] Bodies represent(const Scenario& s, Representation model);

} // namespace rubble::ic
