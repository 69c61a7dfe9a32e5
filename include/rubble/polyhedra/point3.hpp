// SPDX-License-Identifier: MIT
#pragma once
// Three doubles with the vector algebra the narrow phase needs, for code compiled both for the
// CPU and for CUDA: nvcc never sees Eigen (STYLE.md), so the GJK header and its callers on
// either side exchange points as this plain struct (C++17, as the CUDA build).
#include <cmath>

#include "rubble/core/hostdevice.hpp"

namespace rubble::polyhedra {

struct Point3 {
    double x = 0.0, y = 0.0, z = 0.0;
};

RUBBLE_HD RUBBLE_INLINE Point3 operator+(const Point3& a, const Point3& b) {
    return Point3{a.x + b.x, a.y + b.y, a.z + b.z};
}
RUBBLE_HD RUBBLE_INLINE Point3 operator-(const Point3& a, const Point3& b) {
    return Point3{a.x - b.x, a.y - b.y, a.z - b.z};
}
RUBBLE_HD RUBBLE_INLINE Point3 operator-(const Point3& a) {
    return Point3{-a.x, -a.y, -a.z};
}
RUBBLE_HD RUBBLE_INLINE Point3 operator*(double s, const Point3& a) {
    return Point3{s * a.x, s * a.y, s * a.z};
}
RUBBLE_HD RUBBLE_INLINE double dot(const Point3& a, const Point3& b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
RUBBLE_HD RUBBLE_INLINE Point3 cross(const Point3& a, const Point3& b) {
    return Point3{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
RUBBLE_HD RUBBLE_INLINE double norm2(const Point3& a) {
    return dot(a, a);
}

} // namespace rubble::polyhedra
