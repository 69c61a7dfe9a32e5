// SPDX-License-Identifier: MIT
#pragma once
// Host-side conversions between the narrow phase's Point3 (point3.hpp: no Eigen, so that the
// GJK and EPA headers compile for the device) and rubble's Eigen Vec3.
#include "rubble/core/types.hpp"
#include "rubble/polyhedra/point3.hpp"

namespace rubble::polyhedra {

[[nodiscard]] inline Point3 to_point3(const Vec3& x) {
    return Point3{x.x(), x.y(), x.z()};
}

[[nodiscard]] inline Vec3 to_vec3(const Point3& p) {
    return Vec3(p.x, p.y, p.z);
}

} // namespace rubble::polyhedra
