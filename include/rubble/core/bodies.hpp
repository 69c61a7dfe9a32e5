// SPDX-License-Identifier: MIT
#pragma once
// Body storage as a structure of arrays (one array per field).
//
// Design note: a "body" is what the integrator moves (centre of mass, velocity, orientation,
// angular velocity, principal moments). Today every body is a free sphere; rigid aggregates
// will set `aggregate` to the id of the rigid body a sphere belongs to, and polyhedra will add a
// shape index, without changing the arrays below. Ids are stable; array positions are not (a
// later tree sort reorders the arrays), so nothing may keep an index across steps.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "rubble/core/types.hpp"

namespace rubble {

struct Bodies {
    std::vector<std::int64_t> id;        ///< stable identifier, unique
    std::vector<double> mass;            ///< kg
    std::vector<double> radius;          ///< m (sphere radius)
    std::vector<Vec3> pos;               ///< m, centre of mass, inertial frame
    std::vector<Vec3> vel;               ///< m/s, inertial frame
    std::vector<Vec3> spin;              ///< rad/s, angular velocity in the inertial frame
    std::vector<Quat> orientation;       ///< body frame -> inertial frame, unit quaternion
    std::vector<Vec3> inertia;           ///< kg m^2, principal moments in the body frame
    std::vector<std::int64_t> aggregate; ///< rigid aggregate id, -1 for a free body
    /// m travelled since the body's last collision (+inf before its first): the state of the
    /// f_crit rule against inelastic collapse, kept with the body so a resumed run continues
    /// exactly (docs/collisions.md).
    std::vector<double> free_path;

    [[nodiscard]] std::size_t size() const { return id.size(); }
    [[nodiscard]] bool empty() const { return id.empty(); }

    void resize(std::size_t n);
    void reserve(std::size_t n);
    /// Appends a free, homogeneous solid sphere (I = 2/5 m R^2) at rest orientation.
    void add_sphere(std::int64_t body_id, double body_mass, double body_radius, const Vec3& p,
                    const Vec3& v, const Vec3& w);
    /// Throws std::logic_error if the arrays disagree in length (an internal invariant).
    void check_consistent() const;
};

/// Removes the bodies with remove[i] != 0, keeping the order of the others.
void remove_flagged(Bodies& b, const std::vector<std::uint8_t>& remove);

/// Moment of inertia of a homogeneous solid sphere about a diameter: I = 2/5 m R^2.
[[nodiscard]] inline double solid_sphere_inertia(double m, double r) {
    return 0.4 * m * r * r;
}

/// Mass of a homogeneous sphere of density rho (kg/m^3) and radius r (m).
[[nodiscard]] inline double sphere_mass(double rho, double r) {
    return rho * (4.0 / 3.0) * pi * r * r * r;
}

/// Total mass (kg).
[[nodiscard]] double total_mass(const Bodies& b);

/// Largest bulk density m / (4/3 pi R^3) over all bodies (kg/m^3); 0 for no bodies.
[[nodiscard]] double max_density(const Bodies& b);

/// A body holding a value that is not a finite number.
struct NonFiniteValue {
    std::size_t index; ///< array position
    const char* field; ///< "position", "velocity", ...
};
/// The first body (in array order) with a non-finite mass, radius, position, velocity, spin,
/// orientation or moment of inertia; nothing when every value is finite. O(N), in parallel.
[[nodiscard]] std::optional<NonFiniteValue> first_non_finite(const Bodies& b);

/// Shifts positions and velocities so the centre of mass is at rest at the origin.
void move_to_centre_of_mass_frame(Bodies& b);

} // namespace rubble
