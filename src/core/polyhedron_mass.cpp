// SPDX-License-Identifier: MIT
#include "rubble/core/polyhedron_mass.hpp"

#include <algorithm>

#include <Eigen/Eigenvalues>

namespace rubble::shapes {
namespace {

struct Moments {
    double volume = 0.0;
    Vec3 first = Vec3::Zero();  ///< integral of (x - o) dV
    Mat3 second = Mat3::Zero(); ///< integral of (x - o)(x - o)^T dV
};

Vec3 vertex_mean(const ConvexHull& h) {
    Vec3 o = Vec3::Zero();
    for (const Vec3& v : h.vertices)
        o += v;
    return o / static_cast<double>(h.vertices.size());
}

// Every tetrahedron from the vertex mean (inside a convex hull) to a face has positive volume,
// so the sums add like terms.
Moments moments_about(const ConvexHull& h, const Vec3& o) {
    Moments m;
    for (const auto& f : h.faces) {
        const Vec3 a = h.vertices[static_cast<std::size_t>(f[0])] - o;
        const Vec3 b = h.vertices[static_cast<std::size_t>(f[1])] - o;
        const Vec3 c = h.vertices[static_cast<std::size_t>(f[2])] - o;
        const double v = a.dot(b.cross(c)) / 6.0;
        const Vec3 s = a + b + c;
        m.volume += v;
        m.first += v / 4.0 * s;
        m.second += v / 20.0 *
                    (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
    }
    return m;
}

} // namespace

double polyhedron_volume(const ConvexHull& hull) {
    return moments_about(hull, vertex_mean(hull)).volume;
}

Vec3 polyhedron_centroid(const ConvexHull& hull) {
    const Vec3 o = vertex_mean(hull);
    const Moments m = moments_about(hull, o);
    return o + m.first / m.volume;
}

MassProperties polyhedron_mass_properties(const ConvexHull& hull, double rho) {
    const Vec3 o = vertex_mean(hull);
    const Moments m = moments_about(hull, o);
    MassProperties p;
    p.mass = rho * m.volume;
    const Vec3 d = m.first / m.volume; // centroid - o
    p.centre = o + d;
    const Mat3 c = rho * (m.second - m.volume * d * d.transpose()); // about the centroid
    p.inertia = c.trace() * Mat3::Identity() - c;
    const Eigen::SelfAdjointEigenSolver<Mat3> eigen(p.inertia);
    p.moments = eigen.eigenvalues();
    Mat3 axes = eigen.eigenvectors();
    if (axes.determinant() < 0.0) axes.col(2) = -axes.col(2); // a rotation, not a reflection
    p.axes = Quat(axes).normalized();
    for (const Vec3& v : hull.vertices)
        p.bounding_radius = std::max(p.bounding_radius, (v - p.centre).norm());
    return p;
}

} // namespace rubble::shapes
