// SPDX-License-Identifier: MIT
#include "rubble/collisions/world_shapes.hpp"

#include "rubble/core/rigid_body.hpp"
#include "rubble/polyhedra/point3_eigen.hpp"

namespace rubble::collisions {

WorldShapes place_world_shapes(const Bodies& b) {
    WorldShapes s;
    s.spheres = b.spheres.size();
    const std::size_t n = s.spheres + b.hulls.size();
    s.centre.resize(n);
    s.radius.resize(n);
    s.body.resize(n);
    for (std::size_t k = 0; k < s.spheres; ++k) {
        s.centre[k] = sphere_centre(b, k);
        s.radius[k] = b.spheres.radius[k];
        s.body[k] = static_cast<std::size_t>(b.spheres.body[k]);
    }
    if (b.hulls.size() == 0) return s;
    const HullShapes& catalogue = b.hull_shapes();
    for (std::size_t h = 0; h < b.hulls.size(); ++h) {
        const auto k = static_cast<std::size_t>(b.hulls.body[h]);
        s.centre[s.spheres + h] = b.pos[k];
        s.radius[s.spheres + h] = b.radius[k];
        s.body[s.spheres + h] = k;
        const Mat3 rot = b.orientation[k].toRotationMatrix();
        for (const Vec3& v : catalogue[static_cast<std::size_t>(b.hulls.shape[h])].hull.vertices)
            s.vertices.push_back(polyhedra::to_point3(b.pos[k] + rot * v));
        s.first.push_back(s.vertices.size());
    }
    return s;
}

} // namespace rubble::collisions
