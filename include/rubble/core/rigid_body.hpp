// SPDX-License-Identifier: MIT
#pragma once
// A rigid body made of spheres: its mass properties from its spheres, and the frames in which
// its state is kept (Richardson, "N rigid-body dynamics", PiTP lectures; Richardson et al. 2009,
// P&SS 57, 183). Each sphere is a homogeneous solid sphere; overlaps between spheres are not
// subtracted here (the aggregates issue states and tests its convention).
#include <cstdint>
#include <vector>

#include "rubble/core/bodies.hpp"

namespace rubble {

/// One sphere of a body, placed in the body's own frame (any origin).
struct SpherePart {
    Vec3 centre;   ///< m
    double radius; ///< m
    double mass;   ///< kg
};

/// Mass properties of a set of spheres about their centre of mass, in the frame they are given.
struct MassProperties {
    double mass = 0.0;          ///< kg
    Vec3 centre = Vec3::Zero(); ///< m, centre of mass
    Mat3 inertia;               ///< kg m^2, tensor about the centre of mass
    Vec3 moments;               ///< kg m^2, principal moments, ascending
    Quat axes;                  ///< principal frame -> given frame (columns: principal axes)
    double bounding_radius = 0; ///< m, largest |c_i - centre| + R_i
};

/// I = sum_i [2/5 m_i R_i^2 1 + m_i (|rho_i|^2 1 - rho_i rho_i^T)], rho_i = c_i - centre of mass,
/// diagonalised with Eigen's SelfAdjointEigenSolver. Throws std::invalid_argument for no
/// spheres or a sphere without positive mass and radius.
[[nodiscard]] MassProperties mass_properties(const std::vector<SpherePart>& parts);

/// Appends a rigid body of `parts` (given in its body frame) whose centre of mass is at x with
/// velocity v and angular velocity w (inertial frame), oriented by q (body -> inertial). Its
/// spheres are stored with offsets from the centre of mass, in the body frame.
void add_rigid_body(Bodies& b, std::int64_t id, const std::vector<SpherePart>& parts, const Vec3& x,
                    const Vec3& v, const Vec3& w, const Quat& q = Quat::Identity());

/// Appends a polyhedral body: catalogue shape `shape` of b (Bodies::add_hull_shape) filled with
/// density rho (kg/m^3), its centre of mass at x with velocity v and angular velocity w
/// (inertial frame), oriented by q (body -> inertial). Mass and inertia by exact polyhedral
/// integration (core/polyhedron_mass.hpp), radius the shape's circumradius. Throws
/// std::invalid_argument for a shape not in the catalogue or a density that is not positive.
void add_polyhedron(Bodies& b, std::int64_t id, std::int64_t shape, double rho, const Vec3& x,
                    const Vec3& v, const Vec3& w, const Quat& q = Quat::Identity());

/// The inertia tensor of body k in the inertial frame: R diag(I) R^T with R the rotation from
/// its principal frame to the inertial frame (orientation * principal_axes).
[[nodiscard]] Mat3 inertia_tensor(const Bodies& b, std::size_t k);

/// The inverse inertia tensor in the inertial frame, R diag(1/I) R^T, of principal moments I
/// (kg m^2) turned by `principal` (principal frame -> inertial frame).
[[nodiscard]] inline Mat3 inverse_inertia_tensor(const Quat& principal, const Vec3& moments) {
    const Mat3 r = principal.toRotationMatrix();
    return r * moments.cwiseInverse().asDiagonal() * r.transpose();
}

/// Rotation from body k's principal frame to the inertial frame (orientation * principal axes;
/// the orientation itself, bit for bit, when the principal axes are the body axes).
[[nodiscard]] inline Quat principal_to_inertial(const Bodies& b, std::size_t k) {
    const Quat& p = b.principal_axes[k];
    return p.w() == 1.0 ? b.orientation[k] : b.orientation[k] * p;
}

/// Centre of sphere s in the inertial frame: x_body + R(q) offset.
[[nodiscard]] inline Vec3 sphere_centre(const Bodies& b, std::size_t s) {
    const auto k = static_cast<std::size_t>(b.spheres.body[s]);
    return b.pos[k] + b.orientation[k] * b.spheres.offset[s];
}

} // namespace rubble
