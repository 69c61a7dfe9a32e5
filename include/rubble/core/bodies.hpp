// SPDX-License-Identifier: MIT
#pragma once
// Rigid bodies and their shapes, each a structure of arrays described once by its field list
// (core/fields.hpp), which storage, removal, HDF5 write and read, resume and the Python reader
// all follow.
//
// A body is what the integrator moves: mass, centre of mass, velocity, orientation, angular
// velocity, and the inertia tensor as principal moments plus the rotation from the principal
// frame to the body frame. Its shapes are what gravity and contacts see: either spheres (a body
// link, an offset in the body frame, a radius and a mass) or one convex polyhedron (a body
// link and a shape in a catalogue shared by all bodies, docs/polyhedra.md). A free sphere is a
// body with one sphere at zero offset, whose mass and radius are the body's; rigid aggregates
// are bodies with several spheres (docs/architecture.md); a polyhedral grain is a body with one
// hull, whose shape's vertices are in the body frame about the centre of mass.
//
// Ids are stable; array positions are not (merges remove bodies), so nothing may keep an index
// across steps: index_of(id) finds a body's row.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "rubble/core/fields.hpp"
#include "rubble/core/polyhedron.hpp"
#include "rubble/core/types.hpp"

namespace rubble {

/// The spheres of all bodies, grouped by body (a body's spheres are consecutive rows, in body
/// order). For gravity every sphere is a mass point at its centre; for contacts, a sphere.
struct Spheres {
    std::vector<std::int64_t> body; ///< row of the body in Bodies (kept right when rows go)
    std::vector<Vec3> offset;       ///< m, centre in the body frame, from the centre of mass
    std::vector<double> radius;     ///< m
    std::vector<double> mass;       ///< kg

    static const auto& fields() {
        static const auto f = std::make_tuple(
            TableField<Spheres, std::int64_t>{"body", "", "row of the body this sphere belongs to",
                                              &Spheres::body, -1},
            TableField<Spheres, Vec3>{"offset", "m", "centre in the body frame", &Spheres::offset,
                                      Vec3::Zero()},
            TableField<Spheres, double>{"radius", "m", "sphere radius", &Spheres::radius, 0.0},
            TableField<Spheres, double>{"mass", "kg", "sphere mass", &Spheres::mass, 0.0});
        return f;
    }
    [[nodiscard]] std::size_t size() const { return body.size(); }
};

/// The polyhedral bodies' hulls, one row per such body, in body order. For gravity each is a
/// mass point at its body's centre of mass; for contacts, the catalogue shape it names.
struct Hulls {
    std::vector<std::int64_t> body;  ///< row of the body in Bodies (kept right when rows go)
    std::vector<std::int64_t> shape; ///< index into Bodies::hull_shapes()
    std::vector<double> mass;        ///< kg

    static const auto& fields() {
        static const auto f = std::make_tuple(
            TableField<Hulls, std::int64_t>{"body", "", "row of the body this hull belongs to",
                                            &Hulls::body, -1},
            TableField<Hulls, std::int64_t>{"shape", "", "index into the file's hull shapes",
                                            &Hulls::shape, -1},
            TableField<Hulls, double>{"mass", "kg", "hull mass", &Hulls::mass, 0.0});
        return f;
    }
    [[nodiscard]] std::size_t size() const { return body.size(); }
};

/// The shapes polyhedral bodies name, each a convex polyhedron with its centroid at the origin.
/// Shared by every copy of a Bodies (a snapshot, the copy a long step keeps to undo itself),
/// since shapes never change during a run.
using HullShapes = std::vector<shapes::Polyhedron>;

struct Bodies {
    std::vector<std::int64_t> id;     ///< stable identifier, unique
    std::vector<double> mass;         ///< kg
    std::vector<double> radius;       ///< m, bounding radius about the centre of mass
    std::vector<Vec3> pos;            ///< m, centre of mass, inertial frame
    std::vector<Vec3> vel;            ///< m/s, inertial frame
    std::vector<Vec3> spin;           ///< rad/s, angular velocity in the inertial frame
    std::vector<Quat> orientation;    ///< body frame -> inertial frame, unit quaternion
    std::vector<Vec3> inertia;        ///< kg m^2, principal moments
    std::vector<Quat> principal_axes; ///< principal frame -> body frame, unit quaternion
    /// m travelled since the body's last collision (+inf before its first): the state of the
    /// f_crit rule against inelastic collapse, kept with the body so a resumed run continues
    /// exactly (docs/collisions.md).
    std::vector<double> free_path;

    Spheres spheres; ///< the spheres of the bodies made of spheres
    Hulls hulls;     ///< the hulls of the polyhedral bodies

    static const auto& fields() {
        static const auto f = std::make_tuple(
            TableField<Bodies, std::int64_t>{"id", "", "stable body identifier", &Bodies::id, -1},
            TableField<Bodies, double>{"mass", "kg", "body mass", &Bodies::mass, 0.0},
            TableField<Bodies, double>{"radius", "m", "bounding radius about the centre of mass",
                                       &Bodies::radius, 0.0},
            TableField<Bodies, Vec3>{"position", "m", "centre of mass, inertial frame",
                                     &Bodies::pos, Vec3::Zero()},
            TableField<Bodies, Vec3>{"velocity", "m/s", "velocity, inertial frame", &Bodies::vel,
                                     Vec3::Zero()},
            TableField<Bodies, Vec3>{"spin", "rad/s", "angular velocity, inertial frame",
                                     &Bodies::spin, Vec3::Zero()},
            TableField<Bodies, Quat>{"orientation", "",
                                     "unit quaternion (w, x, y, z), body frame to inertial frame",
                                     &Bodies::orientation, Quat::Identity()},
            TableField<Bodies, Vec3>{"inertia", "kg m^2", "principal moments of inertia",
                                     &Bodies::inertia, Vec3::Zero()},
            TableField<Bodies, Quat>{"principal_axes", "",
                                     "unit quaternion (w, x, y, z), principal frame to body frame",
                                     &Bodies::principal_axes, Quat::Identity()},
            TableField<Bodies, double>{
                "free_path", "m", "distance travelled since the last collision (inf: none yet)",
                &Bodies::free_path, std::numeric_limits<double>::infinity()});
        return f;
    }

    [[nodiscard]] std::size_t size() const { return id.size(); }
    [[nodiscard]] bool empty() const { return id.empty(); }

    /// n bodies; new ones are free spheres of zero mass and radius (set both with
    /// set_free_sphere) at rest.
    void resize(std::size_t n);
    void reserve(std::size_t n);
    /// Appends a free, homogeneous solid sphere (I = 2/5 m R^2) at rest orientation.
    void add_sphere(std::int64_t body_id, double body_mass, double body_radius, const Vec3& p,
                    const Vec3& v, const Vec3& w);
    /// Makes body k, which has one sphere, a homogeneous solid sphere of mass m and radius r
    /// at its centre: the body's mass, radius and moments, and its sphere's.
    void set_free_sphere(std::size_t k, double m, double r);
    /// The catalogue of hull shapes (empty when there are none).
    [[nodiscard]] const HullShapes& hull_shapes() const;
    /// The catalogue itself (null when there are no shapes), for a cache that must know
    /// whether the shapes are still the ones it was made from: holding it keeps them alive, so
    /// the same pointer means the same shapes.
    [[nodiscard]] std::shared_ptr<const HullShapes> hull_shapes_shared() const {
        return hull_shapes_;
    }
    /// Adds a shape to the catalogue, moved so that its centroid (its centre of mass at any
    /// uniform density) is at the origin, and returns its index. Copies the catalogue first
    /// when another Bodies shares it.
    std::int64_t add_hull_shape(const shapes::Polyhedron& shape);
    /// Replaces the catalogue (a file's, read back as it was written).
    void set_hull_shapes(HullShapes shapes);
    /// The bodies at `rows`, in that order, with their spheres and hulls (links rewritten),
    /// sharing this catalogue of hull shapes: a subset to send to another rank or to write.
    /// O(rows + spheres + hulls).
    [[nodiscard]] Bodies select(std::span<const std::size_t> rows) const;
    /// Appends the bodies, spheres and hulls of `more` (its links moved past this one's rows).
    /// Hulls name shapes by index, so both must share one catalogue (both select()s of one
    /// Bodies, or no shapes at all); throws std::logic_error otherwise.
    void append(const Bodies& more);
    /// True when gravity sees every body as one mass point at its centre of mass (free spheres
    /// and polyhedra): no torques. O(N).
    [[nodiscard]] bool gravity_at_centres() const;

    /// True when every body is a free sphere: one sphere each, at zero offset, row k of
    /// `spheres` belonging to body k (the layout the hard-sphere engine and the fast gravity
    /// path rely on). O(N).
    [[nodiscard]] bool all_free_spheres() const;
    /// For each body, 1 when it is a free sphere (one sphere, at zero offset), else 0 (an
    /// aggregate, or a polyhedron). Spheres must be grouped by body. O(N + spheres).
    [[nodiscard]] std::vector<std::uint8_t> free_sphere_flags() const;
    /// The row of the body with this id, if any. Amortised O(1): the id map is rebuilt when
    /// rows were added, removed or reordered since it was made.
    [[nodiscard]] std::optional<std::size_t> index_of(std::int64_t body_id) const;
    /// Throws std::logic_error naming the first violation of the storage invariants: columns
    /// of one length, unique ids, spheres and hulls grouped by body, each body owning either
    /// spheres or one hull (not both, not neither), a body's mass the sum of its spheres' or
    /// its hull's, a free sphere's radius its sphere's, a polyhedron's radius its shape's
    /// circumradius, a hull's shape in the catalogue.
    void check_consistent() const;

private:
    mutable std::unordered_map<std::int64_t, std::size_t> index_; // id -> row (a cache)
    std::shared_ptr<HullShapes> hull_shapes_;                     // shared between copies
};

/// Removes the bodies with remove[i] != 0 and their spheres and hulls, keeping the order of the
/// others (and every sphere's body link right).
void remove_flagged(Bodies& b, const std::vector<std::uint8_t>& remove);

/// Row k of `spheres` belongs to body k and sits at its centre of mass, for k < b.size(): the
/// spheres table of n free spheres (made after the bodies' own mass and radius columns).
void make_free_spheres(Bodies& b);

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

/// Centre of mass (m): sum m_i x_i / M in body order; the origin when there is no mass.
[[nodiscard]] Vec3 centre_of_mass(const Bodies& b);

/// Velocity of the centre of mass (m/s): sum m_i v_i / M; zero when there is no mass.
[[nodiscard]] Vec3 centre_of_mass_velocity(const Bodies& b);

/// Largest bulk density m / (4/3 pi R^3) over all bodies (kg/m^3; R the bounding radius, so a
/// lower bound for aggregates); 0 for no bodies.
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
