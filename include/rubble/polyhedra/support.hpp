// SPDX-License-Identifier: MIT
#pragma once
// Support functions of placed convex shapes for the GJK distance (gjk.hpp), host and device:
// the point of the shape farthest along a direction d, max over x in the shape of d . x.
#include "rubble/polyhedra/point3.hpp"

namespace rubble::polyhedra {

/// A convex polytope given by its vertices in its body frame, placed in the world by the
/// rotation `rot` (row-major 3 x 3, body -> world) and the position `pos` of its frame's origin.
/// The vertices stay owned by the caller.
struct PolytopeSupport {
    const Point3* vertices = nullptr;
    int count = 0;
    double rot[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    Point3 pos;

    /// The farthest vertex along d (world frame), and its index in `id`. A linear scan of the
    /// vertices (a grain has about 10; hill climbing on the vertex graph pays above some tens).
    /// Ties go to the lowest index, so the answer does not depend on the caller.
    RUBBLE_HD Point3 operator()(const Point3& d, int& id) const {
        // d in the body frame: R^T d.
        const Point3 b{rot[0] * d.x + rot[3] * d.y + rot[6] * d.z,
                       rot[1] * d.x + rot[4] * d.y + rot[7] * d.z,
                       rot[2] * d.x + rot[5] * d.y + rot[8] * d.z};
        int best = 0;
        double reach = dot(vertices[0], b);
        for (int k = 1; k < count; ++k) {
            const double r = dot(vertices[k], b);
            if (r > reach) {
                reach = r;
                best = k;
            }
        }
        id = best;
        return to_world(vertices[best]);
    }

    /// A body-frame point in the world: pos + R v.
    RUBBLE_HD Point3 to_world(const Point3& v) const {
        return Point3{pos.x + rot[0] * v.x + rot[1] * v.y + rot[2] * v.z,
                      pos.y + rot[3] * v.x + rot[4] * v.y + rot[5] * v.z,
                      pos.z + rot[6] * v.x + rot[7] * v.y + rot[8] * v.z};
    }
};

} // namespace rubble::polyhedra
