// SPDX-License-Identifier: MIT
#include "rubble/collisions/wall_overlaps.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <span>
#include <string>

#include "overlap_strategy.hpp"
#include "rubble/boundaries/wall_predict.hpp"
#include "rubble/collisions/restitution_law.hpp"
#include "rubble/core/error.hpp"
#include "sphere_access.hpp"

namespace rubble::collisions {
namespace {

using boundaries::Wall;

void push_out(Bodies& b, const WallOverlap& o, const Wall& w, const Vec3& p) {
    const auto i = static_cast<std::size_t>(o.i);
    const boundaries::WallGap g = boundaries::wall_gap(w, p, b.pos[i], b.radius[i]);
    b.pos[i] -= g.gap * g.normal; // gap < 0: outwards by the depth
}

// pkdgrav's back-up (overlap_strategy.hpp) against a wall: back along the path relative to the
// wall to the moment of touching, the missed contact resolved there, forward again.
void resolve_missed(Bodies& b, const WallOverlap& o, const Wall& w, const Vec3& p, double ago,
                    const CollisionConfig& c, collisions::WallImpulse& given) {
    const auto i = static_cast<std::size_t>(o.i);
    const Vec3 p_then = p - ago * w.velocity;
    const SphereState s = sphere_of(b, i, Vec3::Zero());
    const Vec3 n = boundaries::wall_gap(w, p_then, s.pos, s.radius).normal;
    const Vec3 contact = s.pos - s.radius * n;
    const Vec3 uw = boundaries::surface_velocity(w, p_then, contact);
    const double closing = -(s.vel + s.spin.cross(-s.radius * n) - uw).dot(n);
    const auto out = collisions::resolve_wall_contact(s, n, uw, restitution_for(c, closing, false));
    given.add(contact, out.impulse);
    b.vel[i] = out.vel;
    b.spin[i] = out.spin;
}

void repulse(Bodies& b, const WallOverlap& o, const Wall& w, const Vec3& p, double dt,
             collisions::WallImpulse& given) {
    const auto i = static_cast<std::size_t>(o.i);
    const boundaries::WallGap g = boundaries::wall_gap(w, p, b.pos[i], b.radius[i]);
    const Vec3 contact = b.pos[i] - b.radius[i] * g.normal;
    const Vec3 uw = boundaries::surface_velocity(w, p, contact);
    const double du = o.depth / dt - (b.vel[i] - uw).dot(g.normal);
    if (du <= 0.0) return; // already leaving fast enough
    b.vel[i] += du * g.normal;
    given.add(contact, b.mass[i] * du * g.normal);
}

[[noreturn]] void abort_run(const Bodies& b, std::span<const WallOverlap> overlaps,
                            const std::vector<Wall>& walls, double time) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "%zu sphere(s) overlapping a wall at t = %.9g s",
                  overlaps.size(), time);
    std::string msg = buf;
    const std::size_t shown = std::min<std::size_t>(overlaps.size(), 5);
    for (std::size_t k = 0; k < shown; ++k) {
        const WallOverlap& o = overlaps[k];
        const auto i = static_cast<std::size_t>(o.i);
        std::snprintf(buf, sizeof buf, "%s body %lld overlaps %s by %.3e m (%.3e of its radius)",
                      k == 0 ? ":" : ";", static_cast<long long>(b.id[i]),
                      walls[o.wall].name.c_str(), o.depth, o.depth / b.radius[i]);
        msg += buf;
    }
    if (shown < overlaps.size()) msg += "; ...";
    msg += ". collisions.overlaps = \"abort\" (or \"auto\", which aborts for free spheres); choose "
           "trace_back, push_apart or repulse to "
           "handle them (docs/collisions.md)";
    throw PhysicsError(msg);
}

// Free spheres against walls as a kind of overlap (overlap_strategy.hpp): the wall is a body of
// infinite mass that does not move aside, and a sphere cannot merge with it (pushed out).
struct SphereWalls {
    using Overlap = WallOverlap;
    struct Touch {};
    static constexpr bool rigid = false;
    const std::vector<Wall>& walls;
    const std::vector<Vec3>& wall_at;
    const CollisionConfig& c;
    std::vector<collisions::WallImpulse>& impulses;

    bool is_wall(const Overlap&) const { return true; }
    bool cleared(const Bodies& b, const Overlap& o, const std::vector<std::uint8_t>&) const {
        // An earlier overlap of the same sphere (a corner) may have moved it clear already.
        const auto i = static_cast<std::size_t>(o.i);
        return !(boundaries::wall_gap(walls[o.wall], wall_at[o.wall], b.pos[i], b.radius[i]).gap <
                 0.0);
    }
    Touch touch(const Bodies&, const Overlap&) const { return {}; }
    void push_apart(Bodies& b, const Overlap& o, const Touch&) const {
        push_out(b, o, walls[o.wall], wall_at[o.wall]);
    }
    void repulse(Bodies& b, const Overlap& o, const Touch&, double dt) const {
        collisions::repulse(b, o, walls[o.wall], wall_at[o.wall], dt, impulses[o.wall]);
    }
    std::optional<double> touched_ago(const Bodies& b, const Overlap& o, const Touch&) const {
        const auto i = static_cast<std::size_t>(o.i);
        return boundaries::wall_contact_ago(walls[o.wall], wall_at[o.wall], b.pos[i], b.vel[i],
                                            b.radius[i]);
    }
    void carry(Bodies& b, const Overlap& o, double dt) const {
        const auto i = static_cast<std::size_t>(o.i);
        b.pos[i] += dt * b.vel[i];
    }
    void resolve_missed(Bodies& b, const Overlap& o, double ago) const {
        collisions::resolve_missed(b, o, walls[o.wall], wall_at[o.wall], ago, c, impulses[o.wall]);
    }
    void merge(Bodies& b, const Overlap& o, std::vector<std::uint8_t>&) const {
        push_out(b, o, walls[o.wall], wall_at[o.wall]);
    }
    [[noreturn]] void abort(const Bodies& b, std::span<const Overlap> all, double time) const {
        abort_run(b, all, walls, time);
    }
};

} // namespace

std::vector<WallOverlap> find_wall_overlaps(const Bodies& b, const std::vector<Wall>& walls,
                                            const std::vector<Vec3>& wall_at, double tolerance,
                                            double& max_relative) {
    std::vector<WallOverlap> out;
    for (std::size_t i = 0; i < b.size(); ++i) {
        for (std::size_t k = 0; k < walls.size(); ++k) {
            const double depth =
                -boundaries::wall_gap(walls[k], wall_at[k], b.pos[i], b.radius[i]).gap;
            if (!(depth > tolerance * b.radius[i])) continue;
            out.push_back(WallOverlap{static_cast<std::int32_t>(i), k, depth});
            max_relative = std::max(max_relative, depth / b.radius[i]);
        }
    }
    return out;
}

void handle_wall_overlaps(Bodies& b, const std::vector<WallOverlap>& overlaps,
                          const std::vector<Wall>& walls, const std::vector<Vec3>& wall_at,
                          const CollisionConfig& c, double dt, double time,
                          std::vector<collisions::WallImpulse>& impulses) {
    std::vector<std::uint8_t> removed; // (a sphere never merges with a wall)
    detail::handle_start_overlaps(SphereWalls{walls, wall_at, c, impulses}, b,
                                  std::span<const WallOverlap>(overlaps), c, dt, time, removed);
}

} // namespace rubble::collisions
