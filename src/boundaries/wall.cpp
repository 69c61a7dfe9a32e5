// SPDX-License-Identifier: MIT
#include "rubble/boundaries/wall.hpp"

#include "rubble/boundaries/finite_cylinder.hpp"

namespace rubble::boundaries {

WallGap wall_gap(const Wall& w, const Vec3& p, const Vec3& x, double r) {
    const Vec3 d = x - p;
    if (w.shape == WallShape::plane) return WallGap{w.normal, d.dot(w.normal) - r};
    if (w.length > 0.0) return finite_cylinder_gap(w, d, r);
    const Vec3 q = d - d.dot(w.normal) * w.normal; // from the axis, perpendicular to it
    const double rho = q.norm();
    const Vec3 out = rho > 0.0 ? Vec3(q / rho) : w.normal.unitOrthogonal();
    if (w.inside) return WallGap{-out, w.radius - r - rho};
    return WallGap{out, rho - w.radius - r};
}

Vec3 surface_velocity(const Wall& w, const Vec3& p, const Vec3& at) {
    if (w.angular_velocity == 0.0) return w.velocity;
    return w.velocity + w.angular_velocity * w.normal.cross(at - p);
}

std::vector<Wall> box_walls(const Vec3& lo, const Vec3& hi, const Vec3& velocity,
                            const std::string& name) {
    static const char* const face[] = {"-x", "+x", "-y", "+y", "-z", "+z"};
    std::vector<Wall> out;
    for (int axis = 0; axis < 3; ++axis) {
        for (int side = 0; side < 2; ++side) {
            Wall w;
            w.shape = WallShape::plane;
            w.point = side == 0 ? lo : hi;
            w.normal = Vec3::Zero();
            w.normal[axis] = side == 0 ? 1.0 : -1.0; // inwards
            w.velocity = velocity;
            w.name = name + " (box, face " + face[2 * axis + side] + ")";
            out.push_back(w);
        }
    }
    return out;
}

} // namespace rubble::boundaries
