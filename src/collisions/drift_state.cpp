// SPDX-License-Identifier: MIT
// The drift state's rigid-body paths and bookkeeping (drift_state.hpp): bodies made of several
// spheres turn along their rotor paths (integrate/rotor_path.hpp, docs/aggregates.md). A drift
// of free spheres only sets aggregates = false here and runs none of the rest.
#include "rubble/collisions/drift_state.hpp"

#include <cstdio>
#include <string>

#include "rubble/collisions/rigid_merge.hpp"
#include "rubble/collisions/rigid_wall_predict.hpp"
#include "rubble/core/error.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/core/sphere_ranges.hpp"
#include "rubble/integrate/leapfrog.hpp"

namespace rubble::collisions::detail {

void DriftState::start_rigid(const Bodies& b, double drift) {
    const std::size_t n = b.size();
    // Polyhedra are moved by the non-smooth contact stepper (docs/polyhedra.md); this engine
    // predicts contacts of spheres only.
    if (b.hulls.size() > 0)
        throw InputError("the hard-sphere collision engine does not take polyhedral bodies (" +
                         std::to_string(b.hulls.size()) + " in this run)");
    const bool sticking = outcome.rigid_pairs();
    aggregates = !b.all_free_spheres() || sticking;
    if (!aggregates) return;
    // A run refuses these combinations at start-up, before its output exists
    // (run::check_stepper_supports); these guards are for callers that use the engine directly.
    if (sticking) {
        if (config.periodic_box > 0.0)
            throw InputError("collisions.outcome = \"stick\" does not yet take a periodic box "
                             "(collisions.periodic_box)");
        joined.resize(n);
        for (std::size_t k = 0; k < n; ++k)
            joined[k] = static_cast<std::int32_t>(k);
    }
    for (const boundaries::Wall& w : config.walls)
        if (!rigid_bodies_meet(w))
            throw InputError("collisions: " + w.name +
                             ": finite cylinders (length > 0) do not yet take bodies made of "
                             "several spheres (aggregates); use planes, a box or an infinite "
                             "cylinder (docs/aggregates.md, \"Walls\")");
    if (outcome.merges())
        throw InputError("collisions.outcome = \"merge\" makes one sphere of two and does not "
                         "take bodies made of several spheres (aggregates); use \"stick\" "
                         "(one rigid aggregate of both) or \"bounce\"");
    free = b.free_sphere_flags();
    parts_begin = sphere_starts(b);
    parts.resize(b.spheres.size());
    rotor.resize(n);
    reach.resize(n);
    segment.assign(n, 0.0);
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t first = parts_begin[k], count_k = parts_begin[k + 1] - first;
        const Quat axes = b.principal_axes[k].conjugate();
        for (std::size_t s = first; s < first + count_k; ++s)
            parts[s] = PartSphere{axes * b.spheres.offset[s], b.spheres.radius[s]};
        reach[k] = reach_of(parts_of(k));
        rotor[k] =
            integrate::RotorPath(principal_to_inertial(b, k), b.spin[k], b.inertia[k], drift);
    }
}

void DriftState::turn(Bodies& b, std::int32_t i, double t) {
    const auto k = static_cast<std::size_t>(i);
    Rigid& r = rigid[k];
    if (t <= r.turned) return;
    b.orientation[k] = integrate::rotate_by_spin(b.orientation[k], r.spin, t - r.turned);
    r.turned = t;
}

void DriftState::restart_path(Bodies& b, std::size_t k, const Quat& principal, const Vec3& spin,
                              double t) {
    b.orientation[k] = (principal * b.principal_axes[k].conjugate()).normalized();
    rigid[k].spin = spin;
    rigid[k].turned = t;
    rotor[k] = integrate::RotorPath(principal, spin, b.inertia[k], h - t);
    segment[k] = t;
}

void DriftState::finish_rigid(Bodies& b, std::size_t k, double drift) {
    const integrate::RotorPath& path = rotor[k];
    const double t = drift - segment[k];
    // At its segment's end the path is bitwise turn_free_rotor's, as the plain drift's.
    const Quat q = path.principal_at(t);
    b.orientation[k] = (q * b.principal_axes[k].conjugate()).normalized();
    rigid[k].spin = t >= path.duration() ? path.end_spin() : path.spin_for(q);
    rigid[k].turned = drift;
}

void DriftState::join_stuck(Bodies& b, DriftStats& stats) const {
    // Every group of bodies joined in this drift becomes one aggregate (stick_bodies: mass,
    // momentum and angular momentum kept; no sphere moves).
    const std::size_t n = b.size();
    std::vector<std::uint8_t> removed(n, 0);
    std::vector<std::int64_t> holder(n, -1); // the row holding each group's union so far
    bool any = false;
    for (std::size_t k = 0; k < n; ++k) {
        const auto r = static_cast<std::size_t>(joined_root(static_cast<std::int32_t>(k)));
        if (holder[r] < 0) {
            holder[r] = static_cast<std::int64_t>(k);
            continue;
        }
        const StickOutcome o = stick_bodies(b, static_cast<std::size_t>(holder[r]), k, removed);
        holder[r] = static_cast<std::int64_t>(o.survivor);
        ++stats.merges;
        any = true;
    }
    if (any) remove_flagged(b, removed); // the lists are rebuilt at the next drift
}

void DriftState::check_collision_count(const Bodies& b, std::size_t k, double time) const {
    if (count[k] == absorbed || count[k] <= static_cast<std::uint64_t>(config.max_per_body)) return;
    // A ghost's count also counts its owner's changes; its owner checks its collisions.
    if (ghost != nullptr && ghost[k] != 0) return;
    char buf[256];
    std::snprintf(buf, sizeof buf, "%.9g s", time);
    throw PhysicsError("inelastic collapse: body " + std::to_string(b.id[k]) +
                       " collided more than " + std::to_string(config.max_per_body) +
                       " times in the drift ending near t = " + buf +
                       " (collisions.max_per_body); set collisions.v_min or collisions.f_crit, "
                       "or raise collisions.eps_n (docs/collisions.md)");
}

} // namespace rubble::collisions::detail
