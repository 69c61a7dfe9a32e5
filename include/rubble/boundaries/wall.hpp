// SPDX-License-Identifier: MIT
#pragma once
// Walls: fixed surfaces of infinite mass that spheres collide with inside the event-driven drift
// (docs/collisions.md, "Walls"). A wall is an infinite plane or a circular cylinder: infinite
// (bodies inside or outside it) or finite (a closed can, a post, an open tube:
// finite_cylinder.hpp); a closed box is six planes facing inwards (box_walls). Each
// may translate at a constant velocity and turn about its own axis (a plane about its normal,
// a cylinder about its axis, through `point`). Turning does not change a plane's or a
// cylinder's shape, so it enters only the velocity of the wall's surface at a contact; a
// translation moves the surface, so predictions use the velocity relative to the wall.
#include <string>
#include <vector>

#include "rubble/core/types.hpp"

namespace rubble::boundaries {

enum class WallShape {
    plane,    ///< bodies on the side `normal` points to
    cylinder, ///< bodies inside (radial distance + R <= radius) or outside it; finite if length > 0
};

struct Wall {
    WallShape shape = WallShape::plane;
    Vec3 point = Vec3::Zero();   ///< m, at t = 0: a point of the plane, or of the axis
    Vec3 normal = Vec3::UnitZ(); ///< unit; plane: towards the bodies; cylinder: the axis
    double radius = 0.0;         ///< m, cylinder
    bool inside = true;          ///< cylinder: bodies inside (true) or outside (false)
    double length = 0.0; ///< m, cylinder: 0 = infinite, else from point to point + length normal
    bool caps = false;   ///< finite cylinder: closed by two end discs (can, post) or open (tube)
    Vec3 velocity = Vec3::Zero();  ///< m/s, translation
    double angular_velocity = 0.0; ///< rad/s about `normal` through `point` (right-handed)
    std::string name;              ///< for messages: "walls[2]", "walls[0] (box, face -x)"
};

/// The wall's point at time t (s, absolute): point + velocity t.
[[nodiscard]] inline Vec3 wall_point_at(const Wall& w, double t) {
    return w.point + t * w.velocity;
}

/// Where a sphere stands against a wall: `normal` is the unit normal of the wall's surface at
/// the point nearest the sphere, pointing from the wall to the sphere's centre (into the
/// region bodies live in); `gap` (m) is the distance between the sphere's surface and the
/// wall, negative when the sphere overlaps it by -gap.
struct WallGap {
    Vec3 normal;
    double gap;
};

/// The gap between a sphere of radius r (m) centred at x (m) and wall w whose point is at p
/// (m, wall_point_at for the same time). A sphere centred on a cylinder's axis gets some unit
/// normal perpendicular to the axis.
[[nodiscard]] WallGap wall_gap(const Wall& w, const Vec3& p, const Vec3& x, double r);

/// Velocity (m/s) of wall w's surface at the point `at` (m) when its point is at p:
/// velocity + angular_velocity normal x (at - p).
[[nodiscard]] Vec3 surface_velocity(const Wall& w, const Vec3& p, const Vec3& at);

/// A closed box [lo, hi] (m, at t = 0) as six planes facing inwards, in the order -x, +x, -y,
/// +y, -z, +z, named "<name> (box, face -x)" etc., all moving with `velocity` (m/s).
[[nodiscard]] std::vector<Wall> box_walls(const Vec3& lo, const Vec3& hi, const Vec3& velocity,
                                          const std::string& name);

} // namespace rubble::boundaries
