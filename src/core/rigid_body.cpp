// SPDX-License-Identifier: MIT
#include "rubble/core/rigid_body.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include <Eigen/Eigenvalues>

#include "rubble/core/polyhedron_mass.hpp"

namespace rubble {

MassProperties mass_properties(const std::vector<SpherePart>& parts) {
    if (parts.empty()) throw std::invalid_argument("a rigid body needs at least one sphere");
    MassProperties p;
    Vec3 moment = Vec3::Zero();
    for (const SpherePart& s : parts) {
        if (!(s.mass > 0.0) || !(s.radius > 0.0))
            throw std::invalid_argument("a sphere of a rigid body needs mass > 0 and radius > 0");
        p.mass += s.mass;
        moment += s.mass * s.centre;
    }
    p.centre = moment / p.mass;
    p.inertia.setZero();
    for (const SpherePart& s : parts) {
        const Vec3 rho = s.centre - p.centre;
        p.inertia += solid_sphere_inertia(s.mass, s.radius) * Mat3::Identity() +
                     s.mass * (rho.squaredNorm() * Mat3::Identity() - rho * rho.transpose());
        p.bounding_radius = std::max(p.bounding_radius, rho.norm() + s.radius);
    }
    const Eigen::SelfAdjointEigenSolver<Mat3> eigen(p.inertia);
    p.moments = eigen.eigenvalues();
    Mat3 axes = eigen.eigenvectors();
    if (axes.determinant() < 0.0) axes.col(2) = -axes.col(2); // a rotation, not a reflection
    p.axes = Quat(axes).normalized();
    return p;
}

void add_rigid_body(Bodies& b, std::int64_t id, const std::vector<SpherePart>& parts, const Vec3& x,
                    const Vec3& v, const Vec3& w, const Quat& q) {
    const MassProperties p = mass_properties(parts);
    const std::size_t k = b.size();
    resize_table(b, k + 1); // the body row only: its spheres are appended below
    b.id[k] = id;
    b.radius[k] = p.bounding_radius;
    b.pos[k] = x;
    b.vel[k] = v;
    b.spin[k] = w;
    b.orientation[k] = q.normalized();
    b.inertia[k] = p.moments;
    b.principal_axes[k] = p.axes;
    double mass = 0.0; // summed in row order, as check_consistent() sums the spheres
    for (const SpherePart& s : parts) {
        b.spheres.body.push_back(static_cast<std::int64_t>(k));
        b.spheres.offset.push_back(s.centre - p.centre);
        b.spheres.radius.push_back(s.radius);
        b.spheres.mass.push_back(s.mass);
        mass += s.mass;
    }
    b.mass[k] = mass;
}

void add_polyhedron(Bodies& b, std::int64_t id, std::int64_t shape, double rho, const Vec3& x,
                    const Vec3& v, const Vec3& w, const Quat& q) {
    const HullShapes& shapes = b.hull_shapes();
    if (shape < 0 || shape >= static_cast<std::int64_t>(shapes.size()))
        throw std::invalid_argument("add_polyhedron: shape " + std::to_string(shape) +
                                    " is not in the catalogue of " + std::to_string(shapes.size()));
    if (!(rho > 0.0) || !std::isfinite(rho))
        throw std::invalid_argument("add_polyhedron: density " + std::to_string(rho) +
                                    " kg/m^3 is not positive");
    const shapes::Polyhedron& p = shapes[static_cast<std::size_t>(shape)];
    const MassProperties m = shapes::polyhedron_mass_properties(p.hull, rho);
    const std::size_t k = b.size();
    resize_table(b, k + 1); // the body row only: its hull is appended below
    b.id[k] = id;
    b.mass[k] = m.mass;
    b.radius[k] = shapes::circumradius(p);
    b.pos[k] = x;
    b.vel[k] = v;
    b.spin[k] = w;
    b.orientation[k] = q.normalized();
    b.inertia[k] = m.moments;
    b.principal_axes[k] = m.axes;
    b.hulls.body.push_back(static_cast<std::int64_t>(k));
    b.hulls.shape.push_back(shape);
    b.hulls.mass.push_back(m.mass);
}

Mat3 inertia_tensor(const Bodies& b, std::size_t k) {
    const Mat3 r = principal_to_inertial(b, k).toRotationMatrix();
    return r * b.inertia[k].asDiagonal() * r.transpose();
}

} // namespace rubble
