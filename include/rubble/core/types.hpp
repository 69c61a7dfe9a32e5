// SPDX-License-Identifier: MIT
#pragma once
// Vector and rotation types used at every interface (SI units throughout).
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace rubble {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Quat = Eigen::Quaterniond;

/// Newtonian constant of gravitation, CODATA 2018 (m^3 kg^-1 s^-2).
inline constexpr double G_SI = 6.67430e-11;
inline constexpr double pi = 3.14159265358979323846;

} // namespace rubble
