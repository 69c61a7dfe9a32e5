// SPDX-License-Identifier: MIT
#pragma once
// Support functions of placed convex shapes for the GJK distance (gjk.hpp), host and device:
// the point of the shape farthest along a direction d, max over x in the shape of d . x.
#include "rubble/polyhedra/point3.hpp"

namespace rubble::polyhedra {

namespace detail {

// One step of a running maximum and its index, with a mask rather than a branch: whether a
// vertex is farther is a coin toss that a branch predictor loses, and GCC makes plain ifs into
// branches or selects depending on the code around them.
RUBBLE_HD RUBBLE_INLINE void keep_farther(double r, int k, double& reach, int& best) {
    const int up = -static_cast<int>(r > reach);
    best = (k & up) | (best & ~up);
    reach = r > reach ? r : reach;
}

} // namespace detail

/// The index of the vertex of `vertices[0..count)` farthest along d (count >= 1), ties to the
/// lowest index. The running maximum is one chain of dependent compares (4 cycles each on x86),
/// which bounded the scan; here each step first takes the larger of a pair (off the chain,
/// ties to the first), so the chain has half the steps and the answer is a plain scan's.
RUBBLE_HD RUBBLE_INLINE int farthest_vertex(const Point3* vertices, int count, const Point3& d) {
    int best = 0;
    double reach = dot(vertices[0], d);
    int k = 1;
    for (; k + 1 < count; k += 2) {
        const double r0 = dot(vertices[k], d), r1 = dot(vertices[k + 1], d);
        detail::keep_farther(r1 > r0 ? r1 : r0, k + static_cast<int>(r1 > r0), reach, best);
    }
    if (k < count) detail::keep_farther(dot(vertices[k], d), k, reach, best);
    return best;
}

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
        id = farthest_vertex(vertices, count, b);
        return to_world(vertices[id]);
    }

    /// Vertex `id` in the world (gjk_distance starts from vertex 0 of each shape for free).
    RUBBLE_HD Point3 vertex(int id) const { return to_world(vertices[id]); }

    /// A body-frame point in the world: pos + R v.
    RUBBLE_HD Point3 to_world(const Point3& v) const {
        return Point3{pos.x + rot[0] * v.x + rot[1] * v.y + rot[2] * v.z,
                      pos.y + rot[3] * v.x + rot[4] * v.y + rot[5] * v.z,
                      pos.z + rot[6] * v.x + rot[7] * v.y + rot[8] * v.z};
    }
};

/// A convex polytope given by its vertices already in the world frame (owned by the caller),
/// for a caller that places each shape's vertices once per step and queries it against several
/// neighbours: each support then saves PolytopeSupport's two rotations (R^T d before the scan
/// and R v after it), which weigh most at few vertices (docs/polyhedra.md).
struct WorldPolytopeSupport {
    const Point3* vertices = nullptr;
    int count = 0;

    /// The farthest vertex along d, and its index in `id`; ties go to the lowest index.
    RUBBLE_HD Point3 operator()(const Point3& d, int& id) const {
        id = farthest_vertex(vertices, count, d);
        return vertices[id];
    }

    /// Vertex `id`.
    RUBBLE_HD Point3 vertex(int id) const { return vertices[id]; }
};

} // namespace rubble::polyhedra
