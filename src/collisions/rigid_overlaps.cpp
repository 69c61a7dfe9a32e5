// SPDX-License-Identifier: MIT
#include "rubble/collisions/rigid_overlaps.hpp"

#include <cstdio>
#include <optional>
#include <span>
#include <string>

#include "overlap_strategy.hpp"
#include "rubble/collisions/restitution_law.hpp"
#include "rubble/collisions/rigid_impulse.hpp"
#include "rubble/collisions/rigid_merge.hpp"
#include "rubble/collisions/wall_resolve.hpp"
#include "rubble/core/error.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/integrate/leapfrog.hpp"

namespace rubble::collisions {
namespace {

// One overlap as a contact between two rigid states: body 1 (a wall: infinite mass, at the
// contact point, moving with its surface) and body 2, the unit normal n from 1 to 2 and the
// point p in the middle of the overlap.
struct Touch {
    RigidState s1, s2;
    Vec3 n, p;
};

Touch touch_of(const Bodies& b, const RigidOverlap& o, const std::vector<boundaries::Wall>& walls,
               const std::vector<Vec3>& wall_at) {
    const auto i = static_cast<std::size_t>(o.i);
    const Vec3 xi = sphere_centre(b, o.sphere_i);
    const double ri = b.spheres.radius[o.sphere_i];
    if (o.other.is_wall()) {
        const boundaries::Wall& w = walls[o.other.wall_index()];
        const boundaries::WallGap g =
            boundaries::wall_gap(w, wall_at[o.other.wall_index()], xi, ri);
        // The middle of the overlap: half the depth into the wall from the sphere's surface.
        const Vec3 p = xi - (ri + 0.5 * g.gap) * g.normal;
        return Touch{
            wall_state(p, boundaries::surface_velocity(w, wall_at[o.other.wall_index()], p)),
            rigid_state(b, i), g.normal, p};
    }
    const auto j = o.other.body_index();
    RigidState sj = rigid_state(b, j);
    sj.centre += o.shift;
    const Vec3 xj = sphere_centre(b, o.sphere_j) + o.shift;
    const Vec3 d = xj - xi;
    const double dist = d.norm();
    // Coincident centres have no line of centres; any direction separates them.
    const Vec3 n = dist > 0.0 ? Vec3(d / dist) : Vec3::UnitX();
    const double rj = b.spheres.radius[o.sphere_j];
    return Touch{rigid_state(b, i), sj, n, xi + (ri - 0.5 * (ri + rj - dist)) * n};
}

// Writes an outcome back: body 1 (unless a wall) and body 2 of the touch.
void store(Bodies& b, const RigidOverlap& o, const RigidOutcome& out) {
    const auto i = static_cast<std::size_t>(o.i);
    if (o.other.is_wall()) {
        b.vel[i] = out.vel2;
        b.spin[i] = out.spin2;
        return;
    }
    const auto j = o.other.body_index();
    b.vel[i] = out.vel1;
    b.spin[i] = out.spin1;
    b.vel[j] = out.vel2;
    b.spin[j] = out.spin2;
}

void repulse(Bodies& b, const RigidOverlap& o, const Touch& t, double dt,
             std::vector<collisions::WallImpulse>& impulses) {
    const double un = t.n.dot(contact_velocity(t.s1, t.s2, t.p)); // > 0: parting
    const double du = o.depth / dt - un;
    if (!(du > 0.0)) return; // already parting fast enough
    const Vec3 j = (du / t.n.dot(collision_matrix(t.s1, t.s2, t.p) * t.n)) * t.n;
    store(b, o, apply_impulse(t.s1, t.s2, t.p, j));
    if (o.other.is_wall()) impulses[o.other.wall_index()].add(t.p, j);
}

void push_apart(Bodies& b, const RigidOverlap& o, const Touch& t) {
    const auto i = static_cast<std::size_t>(o.i);
    if (o.other.is_wall()) {
        b.pos[i] += o.depth * t.n;
        return;
    }
    const auto j = o.other.body_index();
    const double m = b.mass[i] + b.mass[j];
    b.pos[i] -= (b.mass[j] / m) * o.depth * t.n;
    b.pos[j] += (b.mass[i] / m) * o.depth * t.n;
}

// Moves the touch's bodies by `dt` seconds (negative: back) at their present velocities and
// spins (first order in dt for an aggregate's rotation).
void carry(Bodies& b, const RigidOverlap& o, double dt) {
    const auto move = [&b, dt](std::size_t k) {
        b.pos[k] += dt * b.vel[k];
        b.orientation[k] = integrate::rotate_by_spin(b.orientation[k], b.spin[k], dt);
    };
    move(static_cast<std::size_t>(o.i));
    if (o.other.is_body()) move(o.other.body_index());
}

// How long ago the material points at the overlap touched, closing at their normal speed now:
// depth / -u_n (the back-up of overlap_strategy.hpp, first order in the time); nothing when they
// are not closing in (the overlap did not come from a missed contact).
std::optional<double> touched_ago(const RigidOverlap& o, const Touch& t) {
    const double un = t.n.dot(contact_velocity(t.s1, t.s2, t.p));
    if (!(un < 0.0)) return std::nullopt;
    return o.depth / -un;
}

// The contact missed `ago` seconds back, the bodies carried back there: resolved with the
// drift's impulse if its points still approach (a wall's impulse booked).
void resolve_missed(Bodies& b, const RigidOverlap& o, double ago,
                    const std::vector<boundaries::Wall>& walls, const std::vector<Vec3>& wall_at,
                    const CollisionConfig& c, std::vector<collisions::WallImpulse>& impulses) {
    // The wall's point at the time of touching.
    std::vector<Vec3> wall_then = wall_at;
    if (o.other.is_wall())
        wall_then[o.other.wall_index()] -= ago * walls[o.other.wall_index()].velocity;
    const Touch then = touch_of(b, o, walls, wall_then);
    const double u_then = -then.n.dot(contact_velocity(then.s1, then.s2, then.p));
    if (u_then > 0.0) {
        const RigidOutcome out = resolve_rigid_by_law(c, then.s1, then.s2, then.p, then.n,
                                                      restitution_for(c, u_then, false), false);
        store(b, o, out);
        if (o.other.is_wall()) impulses[o.other.wall_index()].add(then.p, out.impulse);
    }
}

[[noreturn]] void abort_run(const Bodies& b, std::span<const RigidOverlap> overlaps,
                            const std::vector<boundaries::Wall>& walls, double time) {
    std::string msg = std::to_string(overlaps.size()) + " overlap(s) of rigid bodies at t = ";
    char buf[200];
    std::snprintf(buf, sizeof buf, "%.9g s", time);
    msg += buf;
    const std::size_t shown = std::min<std::size_t>(overlaps.size(), 5);
    for (std::size_t k = 0; k < shown; ++k) {
        const RigidOverlap& o = overlaps[k];
        const std::string other = o.other.is_wall()
                                      ? walls[o.other.wall_index()].name
                                      : "body " + std::to_string(b.id[o.other.body_index()]);
        std::snprintf(buf, sizeof buf, "%s a sphere of body %lld overlaps %s by %.3e m (%.3e)",
                      k == 0 ? ":" : ";",
                      static_cast<long long>(b.id[static_cast<std::size_t>(o.i)]), other.c_str(),
                      o.depth, o.relative);
        msg += buf;
    }
    if (shown < overlaps.size()) msg += "; ...";
    msg += ". collisions.overlaps = \"abort\"; the default \"auto\" repulses them when a run has "
           "aggregates (docs/aggregates.md)";
    throw PhysicsError(msg);
}

// Spheres of rigid bodies against each other or against walls as a kind of overlap
// (overlap_strategy.hpp), with both inertia tensors.
struct RigidOverlaps {
    using Overlap = RigidOverlap;
    using Touch = collisions::Touch;
    static constexpr bool rigid = true;
    const std::vector<boundaries::Wall>& walls;
    const std::vector<Vec3>& wall_at;
    const CollisionConfig& c;
    std::vector<collisions::WallImpulse>& impulses;

    bool is_wall(const Overlap& o) const { return o.other.is_wall(); }
    bool cleared(const Bodies&, const Overlap& o, const std::vector<std::uint8_t>& removed) const {
        // One already stuck to another.
        return o.other.is_body() &&
               (removed[static_cast<std::size_t>(o.i)] || removed[o.other.body_index()]);
    }
    Touch touch(const Bodies& b, const Overlap& o) const { return touch_of(b, o, walls, wall_at); }
    void push_apart(Bodies& b, const Overlap& o, const Touch& t) const {
        collisions::push_apart(b, o, t);
    }
    void repulse(Bodies& b, const Overlap& o, const Touch& t, double dt) const {
        collisions::repulse(b, o, t, dt, impulses);
    }
    std::optional<double> touched_ago(const Bodies&, const Overlap& o, const Touch& t) const {
        return collisions::touched_ago(o, t);
    }
    void carry(Bodies& b, const Overlap& o, double dt) const { collisions::carry(b, o, dt); }
    void resolve_missed(Bodies& b, const Overlap& o, double ago) const {
        collisions::resolve_missed(b, o, ago, walls, wall_at, c, impulses);
    }
    void merge(Bodies& b, const Overlap& o, std::vector<std::uint8_t>& removed) const {
        (void)stick_bodies(b, static_cast<std::size_t>(o.i), o.other.body_index(), removed,
                           o.shift);
    }
    [[noreturn]] void abort(const Bodies& b, std::span<const Overlap> all, double time) const {
        abort_run(b, all, walls, time);
    }
};

} // namespace

void handle_rigid_overlaps(Bodies& b, const std::vector<RigidOverlap>& overlaps,
                           const std::vector<boundaries::Wall>& walls,
                           const std::vector<Vec3>& wall_at, const CollisionConfig& c, double dt,
                           double time, std::vector<std::uint8_t>& removed,
                           std::vector<collisions::WallImpulse>& impulses) {
    detail::handle_start_overlaps(RigidOverlaps{walls, wall_at, c, impulses}, b,
                                  std::span<const RigidOverlap>(overlaps), c, dt, time, removed);
}

} // namespace rubble::collisions
