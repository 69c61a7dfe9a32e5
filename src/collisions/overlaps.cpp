// SPDX-License-Identifier: MIT
#include "rubble/collisions/overlaps.hpp"

#include <cstdio>
#include <optional>
#include <span>
#include <string>

#include "overlap_strategy.hpp"
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

// The contact root of the prediction (predict.hpp), negative for an overlapping pair: minus how
// long ago it touched, when the pair closes in. (D > 0 for an overlapping pair; a negative D
// from round-off of a grazing one is pushed apart too, as receding or resting pairs: they did
// not come from a missed collision.)
std::optional<double> touched_ago(const Bodies& b, const Overlap& o) {
    const auto i = static_cast<std::size_t>(o.i), j = static_cast<std::size_t>(o.j);
    const Vec3 r = b.pos[j] + o.shift - b.pos[i];
    const Vec3 v = b.vel[j] - b.vel[i];
    const double sigma = b.radius[i] + b.radius[j];
    const std::optional<double> touched =
        r.dot(v) < 0.0 && v.squaredNorm() > 0.0 ? touching_time(r, v, sigma) : std::nullopt;
    if (!touched) return std::nullopt;
    return -*touched;
}

void carry(Bodies& b, const Overlap& o, double dt) {
    const auto i = static_cast<std::size_t>(o.i), j = static_cast<std::size_t>(o.j);
    b.pos[i] += dt * b.vel[i];
    b.pos[j] += dt * b.vel[j];
}

// The collision the pair missed, at touching (velocities unchanged since: the relative one is
// that of the overlap).
void resolve_missed(Bodies& b, const Overlap& o, const CollisionConfig& c) {
    const auto i = static_cast<std::size_t>(o.i), j = static_cast<std::size_t>(o.j);
    const Vec3 v = b.vel[j] - b.vel[i];
    const SphereState si = sphere_of(b, i, Vec3::Zero()), sj = sphere_of(b, j, o.shift);
    const Vec3 n = (sj.pos - si.pos).normalized();
    const auto out = resolve_collision(si, sj, restitution_for(c, -v.dot(n), false));
    b.vel[i] = out.vel1;
    b.vel[j] = out.vel2;
    b.spin[i] = out.spin1;
    b.spin[j] = out.spin2;
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

[[noreturn]] void abort_run(const Bodies& b, std::span<const Overlap> overlaps, double time) {
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

// Free sphere pairs as a kind of overlap (overlap_strategy.hpp).
struct SpherePairs {
    using Overlap = collisions::Overlap;
    struct Touch {};
    static constexpr bool rigid = false;
    const CollisionConfig& c;

    bool is_wall(const Overlap&) const { return false; }
    bool cleared(const Bodies&, const Overlap& o, const std::vector<std::uint8_t>& removed) const {
        // One of them already merged away.
        return removed[static_cast<std::size_t>(o.i)] || removed[static_cast<std::size_t>(o.j)];
    }
    Touch touch(const Bodies&, const Overlap&) const { return {}; }
    void push_apart(Bodies& b, const Overlap& o, const Touch&) const {
        collisions::push_apart(b, o);
    }
    void repulse(Bodies& b, const Overlap& o, const Touch&, double dt) const {
        collisions::repulse(b, o, dt);
    }
    std::optional<double> touched_ago(const Bodies& b, const Overlap& o, const Touch&) const {
        return collisions::touched_ago(b, o);
    }
    void carry(Bodies& b, const Overlap& o, double dt) const { collisions::carry(b, o, dt); }
    void resolve_missed(Bodies& b, const Overlap& o, double) const {
        collisions::resolve_missed(b, o, c);
    }
    void merge(Bodies& b, const Overlap& o, std::vector<std::uint8_t>& removed) const {
        const auto i = static_cast<std::size_t>(o.i), j = static_cast<std::size_t>(o.j);
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
    }
    [[noreturn]] void abort(const Bodies& b, std::span<const Overlap> all, double time) const {
        abort_run(b, all, time);
    }
};

} // namespace

void handle_overlaps(Bodies& b, const std::vector<Overlap>& overlaps, const CollisionConfig& c,
                     double dt, double time, std::vector<std::uint8_t>& removed) {
    detail::handle_start_overlaps(SpherePairs{c}, b, std::span<const Overlap>(overlaps), c, dt,
                                  time, removed);
}

} // namespace rubble::collisions
