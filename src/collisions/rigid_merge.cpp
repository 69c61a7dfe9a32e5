// SPDX-License-Identifier: MIT
#include "rubble/collisions/rigid_merge.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "rubble/collisions/merge.hpp"
#include "rubble/core/rigid_body.hpp"

namespace rubble::collisions {
namespace {

// Rows [first, last) of b.spheres that belong to body row k (spheres are grouped by body).
std::pair<std::size_t, std::size_t> sphere_rows(const Bodies& b, std::size_t k) {
    const auto row = static_cast<std::int64_t>(k);
    const auto [lo, hi] = std::equal_range(b.spheres.body.begin(), b.spheres.body.end(), row);
    return {static_cast<std::size_t>(lo - b.spheres.body.begin()),
            static_cast<std::size_t>(hi - b.spheres.body.begin())};
}

// Appends body k's spheres, centred at x_k (m) instead of b.pos[k], as parts in the frame that
// `to_frame` maps the inertial frame into, relative to the point `origin` (inertial).
void add_parts(const Bodies& b, std::size_t k, const Vec3& x_k, const Vec3& origin,
               const Mat3& to_frame, std::vector<SpherePart>& parts) {
    const auto [first, last] = sphere_rows(b, k);
    const Mat3 r = b.orientation[k].toRotationMatrix();
    for (std::size_t s = first; s < last; ++s) {
        const Vec3 centre = x_k + r * b.spheres.offset[s];
        parts.push_back({to_frame * (centre - origin), b.spheres.radius[s], b.spheres.mass[s]});
    }
}

// Replaces body k's rows of the spheres table with `parts` shifted by -centre.
void replace_spheres(Bodies& b, std::size_t k, const std::vector<SpherePart>& parts,
                     const Vec3& centre) {
    const auto [first, last] = sphere_rows(b, k);
    Spheres t;
    reserve_table(t, b.spheres.size() - (last - first) + parts.size());
    for (std::size_t s = 0; s < first; ++s)
        append_row(t, b.spheres, s);
    resize_table(t, first + parts.size()); // new rows: every field's fill, then ours
    for (std::size_t p = 0; p < parts.size(); ++p) {
        t.body[first + p] = static_cast<std::int64_t>(k);
        t.offset[first + p] = parts[p].centre - centre;
        t.radius[first + p] = parts[p].radius;
        t.mass[first + p] = parts[p].mass;
    }
    for (std::size_t s = last; s < b.spheres.size(); ++s)
        append_row(t, b.spheres, s);
    b.spheres = std::move(t);
}

} // namespace

StickOutcome stick_bodies(Bodies& b, std::size_t i, std::size_t j,
                          std::vector<std::uint8_t>& removed, const Vec3& shift) {
    if (i == j || i >= b.size() || j >= b.size() || removed.size() != b.size())
        throw std::invalid_argument("stick_bodies: needs two distinct rows and one flag per body");
    const bool keep_i = first_survives(b.mass[i], b.id[i], b.mass[j], b.id[j]);
    const std::size_t k = keep_i ? i : j, gone = keep_i ? j : i;
    const Vec3 xi = b.pos[i], xj = b.pos[j] + shift; // both in i's image

    const double m = b.mass[i] + b.mass[j];
    const Vec3 x = (b.mass[i] * xi + b.mass[j] * xj) / m;
    const Vec3 v = (b.mass[i] * b.vel[i] + b.mass[j] * b.vel[j]) / m;
    const Mat3 inertia_i = inertia_tensor(b, i), inertia_j = inertia_tensor(b, j);
    const Vec3 l = b.mass[i] * (xi - x).cross(b.vel[i] - v) +
                   b.mass[j] * (xj - x).cross(b.vel[j] - v) + inertia_i * b.spin[i] +
                   inertia_j * b.spin[j];
    const double kinetic_before =
        0.5 * (b.mass[i] * b.mass[j] / m) * (b.vel[j] - b.vel[i]).squaredNorm() +
        0.5 * b.spin[i].dot(inertia_i * b.spin[i]) + 0.5 * b.spin[j].dot(inertia_j * b.spin[j]);

    // The union in the survivor's body frame, about the new centre of mass.
    const Quat q = b.orientation[k];
    const Mat3 to_body = q.toRotationMatrix().transpose();
    std::vector<SpherePart> parts;
    add_parts(b, k, keep_i ? xi : xj, x, to_body, parts);
    add_parts(b, gone, keep_i ? xj : xi, x, to_body, parts);
    const MassProperties props = mass_properties(parts);

    replace_spheres(b, k, parts, props.centre);
    double mass = 0.0; // summed in row order, as check_consistent() sums the spheres
    for (const SpherePart& s : parts)
        mass += s.mass;
    b.mass[k] = mass;
    b.radius[k] = props.bounding_radius;
    // props.centre is X up to round-off; the spheres keep their inertial positions exactly
    // as far as the offsets allow.
    b.pos[k] = x + q * props.centre - (keep_i ? Vec3::Zero() : shift);
    b.vel[k] = v;
    b.inertia[k] = props.moments;
    b.principal_axes[k] = props.axes;
    const Mat3 r = principal_to_inertial(b, k).toRotationMatrix();
    b.spin[k] = r * (r.transpose() * l).cwiseQuotient(props.moments);
    b.free_path[k] = 0.0;
    removed[gone] = 1;
    return StickOutcome{k, gone, kinetic_before - 0.5 * l.dot(b.spin[k])};
}

} // namespace rubble::collisions
