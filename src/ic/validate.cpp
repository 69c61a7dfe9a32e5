// SPDX-License-Identifier: MIT
#include "rubble/ic/validate.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <unordered_set>
#include <vector>

#include "rubble/collisions/find_overlaps.hpp"
#include "rubble/collisions/shape_overlaps.hpp"
#include "rubble/core/error.hpp"

namespace rubble::ic {
namespace {

bool finite(const Vec3& v) {
    return v.allFinite();
}

std::string body_error(const std::string& origin, std::int64_t id, const std::string& what) {
    return origin + ": body id " + std::to_string(id) + ": " + what;
}

std::string vec_text(const Vec3& v) {
    std::ostringstream os;
    os << "(" << v.x() << ", " << v.y() << ", " << v.z() << ")";
    return os.str();
}

} // namespace

void validate_bodies(const Bodies& b, const std::string& origin, double overlap_tolerance) {
    b.check_consistent();
    if (b.empty()) throw InputError(origin + ": no bodies");
    std::unordered_set<std::int64_t> ids;
    ids.reserve(b.size());
    for (std::size_t i = 0; i < b.size(); ++i) {
        const std::int64_t id = b.id[i];
        if (!ids.insert(id).second) throw InputError(body_error(origin, id, "duplicate id"));
        if (!(std::isfinite(b.mass[i]) && b.mass[i] > 0.0))
            throw InputError(
                body_error(origin, id, "mass = " + std::to_string(b.mass[i]) + ": must be > 0"));
        if (!(std::isfinite(b.radius[i]) && b.radius[i] > 0.0))
            throw InputError(body_error(
                origin, id, "radius = " + std::to_string(b.radius[i]) + ": must be > 0"));
        if (!finite(b.pos[i]))
            throw InputError(
                body_error(origin, id, "position " + vec_text(b.pos[i]) + " is not finite"));
        if (!finite(b.vel[i]))
            throw InputError(
                body_error(origin, id, "velocity " + vec_text(b.vel[i]) + " is not finite"));
        if (!finite(b.spin[i]))
            throw InputError(
                body_error(origin, id, "spin " + vec_text(b.spin[i]) + " is not finite"));
        if (!(b.inertia[i].allFinite() && b.inertia[i].minCoeff() > 0.0))
            throw InputError(body_error(
                origin, id, "inertia " + vec_text(b.inertia[i]) + " must be finite and > 0"));
        if (!(std::abs(b.orientation[i].norm() - 1.0) < 1e-6))
            throw InputError(body_error(origin, id, "orientation is not a unit quaternion"));
    }
    if (!b.all_free_spheres()) {
        // Aggregates and polyhedra: their shapes, not their bounding spheres, must not overlap
        // (a settled pile's bounding spheres do: collisions/shape_overlaps.hpp).
        const std::vector<collisions::ShapeOverlap> shapes =
            collisions::find_shape_overlaps(b, overlap_tolerance);
        if (shapes.empty()) return;
        // The deepest, as for spheres below and as find_shape_overlaps keeps each pair's.
        const collisions::ShapeOverlap& o =
            *std::max_element(shapes.begin(), shapes.end(),
                              [](const auto& x, const auto& y) { return x.depth < y.depth; });
        std::ostringstream os;
        os << origin << ": " << shapes.size()
           << " pair(s) of bodies whose shapes overlap; deepest: ids "
           << b.id[static_cast<std::size_t>(o.i)] << " and " << b.id[static_cast<std::size_t>(o.j)]
           << " overlap by " << o.depth << " m (" << o.depth / o.scale
           << " of their shapes' radii; collisions.overlap_tolerance = " << overlap_tolerance
           << ")";
        throw InputError(os.str());
    }
    const std::vector<collisions::Overlap> overlaps =
        collisions::find_overlaps(b, overlap_tolerance);
    if (!overlaps.empty()) {
        const collisions::Overlap& o =
            *std::max_element(overlaps.begin(), overlaps.end(),
                              [](const collisions::Overlap& x, const collisions::Overlap& y) {
                                  return x.depth < y.depth;
                              });
        const auto i = static_cast<std::size_t>(o.i), j = static_cast<std::size_t>(o.j);
        std::ostringstream os;
        os << origin << ": " << overlaps.size() << " overlapping pair(s) of spheres; deepest: ids "
           << b.id[i] << " and " << b.id[j] << " overlap by " << o.depth << " m (centre distance "
           << (b.pos[j] - b.pos[i]).norm() << " m, sum of radii " << b.radius[i] + b.radius[j]
           << " m)";
        throw InputError(os.str());
    }
}

} // namespace rubble::ic
