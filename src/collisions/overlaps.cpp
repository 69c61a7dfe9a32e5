// SPDX-License-Identifier: MIT
#include "rubble/collisions/overlaps.hpp"

#include <cstdio>
#include <optional>
#include <string>

#include "rubble/collisions/merge.hpp"
#include "rubble/collisions/resolve.hpp"
#include "rubble/collisions/restitution_law.hpp"
#include "rubble/core/contact_time.hpp"
#include "rubble/core/error.hpp"
#include "sphere_access.hpp"

namespace rubble::collisions {
namespace {

// Moves the pair apart along the line of centres by the overlap depth, each in proportion to
// the other's mass, so the centre of mass stays where it is and velocities are untouched.
void push_apart(Bodies& b, const Overlap& o) {
    const auto i = static_cast<std::size_t>(o.i), j = static_cast<std::size_t>(o.j);
    const Vec3 r = b.pos[j] + o.shift - b.pos[i];
    const double dist = r.norm();
    // Coincident centres have no line of centres; any direction separates them.
    const Vec3 n = dist > 0.0 ? Vec3(r / dist) : Vec3::UnitX();
    const double m = b.mass[i] + b.mass[j];
    const double sep = b.radius[i] + b.radius[j] - dist;
    b.pos[i] -= (b.mass[j] / m) * sep * n;
    b.pos[j] += (b.mass[i] / m) * sep * n;
}

// pkdgrav's back-up (Richardson et al. 2000, Icarus 143, 45, sec. 2.4): carry the pair back in
// time along its relative velocity to the moment it touched, resolve the collision it missed,
// and carry it forward again with the new velocities. Receding or relatively resting pairs
// did not come from a missed collision; they are pushed apart instead.
void trace_back(Bodies& b, const Overlap& o, const CollisionConfig& c) {
    const auto i = static_cast<std::size_t>(o.i), j = static_cast<std::size_t>(o.j);
    const Vec3 r = b.pos[j] + o.shift - b.pos[i];
    const Vec3 v = b.vel[j] - b.vel[i];
    const double sigma = b.radius[i] + b.radius[j];
    // The contact root of the prediction (predict.hpp), negative for an overlapping pair: how
    // long ago it touched. (D > 0 for an overlapping pair; a negative D from round-off of a
    // grazing one is pushed apart too.)
    const std::optional<double> touched =
        r.dot(v) < 0.0 && v.squaredNorm() > 0.0 ? touching_time(r, v, sigma) : std::nullopt;
    if (!touched) {
        push_apart(b, o);
        return;
    }
    const double back = *touched;
    b.pos[i] += back * b.vel[i];
    b.pos[j] += back * b.vel[j];
    const SphereState si = sphere_of(b, i, Vec3::Zero()), sj = sphere_of(b, j, o.shift);
    const Vec3 n = (sj.pos - si.pos).normalized();
    const auto out = resolve_collision(si, sj, restitution_for(c, -v.dot(n), false));
    b.vel[i] = out.vel1;
    b.vel[j] = out.vel2;
    b.spin[i] = out.spin1;
    b.spin[j] = out.spin2;
    b.pos[i] -= back * b.vel[i];
    b.pos[j] -= back * b.vel[j];
}

// Equal and opposite impulses along the line of centres (a central force: momentum and
// angular momentum kept) setting the pair's normal relative speed to depth / dt outward, so
// the overlap is gone after one step.
void repulse(Bodies& b, const Overlap& o, double dt) {
    const auto i = static_cast<std::size_t>(o.i), j = static_cast<std::size_t>(o.j);
    const Vec3 r = b.pos[j] + o.shift - b.pos[i];
    const double dist = r.norm();
    const Vec3 n = dist > 0.0 ? Vec3(r / dist) : Vec3::UnitX();
    const double m = b.mass[i] + b.mass[j];
    const double du = o.depth / dt - (b.vel[j] - b.vel[i]).dot(n);
    if (du <= 0.0) return; // already separating fast enough
    b.vel[i] -= (b.mass[j] / m) * du * n;
    b.vel[j] += (b.mass[i] / m) * du * n;
}

[[noreturn]] void abort_run(const Bodies& b, const std::vector<Overlap>& overlaps, double time) {
    std::string msg = std::to_string(overlaps.size()) + " overlapping pair(s) at t = ";
    char buf[160];
    std::snprintf(buf, sizeof buf, "%.9g s", time);
    msg += buf;
    const std::size_t shown = std::min<std::size_t>(overlaps.size(), 5);
    for (std::size_t k = 0; k < shown; ++k) {
        const Overlap& o = overlaps[k];
        const auto i = static_cast<std::size_t>(o.i), j = static_cast<std::size_t>(o.j);
        std::snprintf(buf, sizeof buf, "%s bodies %lld and %lld overlap by %.3e m (%.3e of R1+R2)",
                      k == 0 ? ":" : ";", static_cast<long long>(b.id[i]),
                      static_cast<long long>(b.id[j]), o.depth,
                      o.depth / (b.radius[i] + b.radius[j]));
        msg += buf;
    }
    if (shown < overlaps.size()) msg += "; ...";
    msg += ". collisions.overlaps = \"abort\" (or \"auto\", which aborts for free spheres); choose "
           "trace_back, push_apart, merge or repulse "
           "to handle them (docs/collisions.md)";
    throw PhysicsError(msg);
}

} // namespace

void handle_overlaps(Bodies& b, const std::vector<Overlap>& overlaps, const CollisionConfig& c,
                     double dt, double time, std::vector<std::uint8_t>& removed) {
    if (overlaps.empty()) return;
    if (effective_overlaps(c.overlaps, false) == OverlapStrategy::abort)
        abort_run(b, overlaps, time);
    for (const Overlap& o : overlaps) {
        const auto i = static_cast<std::size_t>(o.i), j = static_cast<std::size_t>(o.j);
        if (removed[i] || removed[j]) continue; // one of them already merged away
        switch (c.overlaps) {
        case OverlapStrategy::trace_back:
            trace_back(b, o, c);
            break;
        case OverlapStrategy::push_apart:
            push_apart(b, o);
            break;
        case OverlapStrategy::repulse:
            repulse(b, o, dt);
            break;
        case OverlapStrategy::merge: {
            const bool keep_i = first_survives(b.mass[i], b.id[i], b.mass[j], b.id[j]);
            const SphereState m =
                merge_spheres(sphere_of(b, i, Vec3::Zero()), sphere_of(b, j, o.shift));
            if (keep_i) {
                store_merged(b, i, m, Vec3::Zero());
                removed[j] = 1;
            } else {
                store_merged(b, j, m, o.shift);
                removed[i] = 1;
            }
            break;
        }
        case OverlapStrategy::automatic:
        case OverlapStrategy::abort:
            break;
        }
    }
}

} // namespace rubble::collisions
