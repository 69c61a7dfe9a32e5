// SPDX-License-Identifier: MIT
#pragma once
// The state of one event-driven drift that every pair kind reads and changes (event_drift.hpp):
// the bodies' motions packed for prediction, their contact state, their rigid-body paths when
// the drift has aggregates, the outcome of contacts, the walls, and the collision log. The
// scheduler (EventDrivenDrift) owns one by value, beside what only it needs (the queue, the
// neighbour lists, each body's kept events), and the pair kinds (src/collisions/kind_*.cpp)
// are functions of it: predicting a pair's contact, resolving it.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "rubble/boundaries/periodic.hpp"
#include "rubble/collisions/collision_config.hpp"
#include "rubble/collisions/event_queue.hpp"
#include "rubble/collisions/resolve.hpp"
#include "rubble/collisions/rigid_predict.hpp"
#include "rubble/collisions/wall_resolve.hpp"
#include "rubble/core/bodies.hpp"
#include "rubble/integrate/rotor_path.hpp"
#include "rubble/integrate/stepper.hpp"

namespace rubble::collisions {

/// One resolved collision, for the optional collision log.
using CollisionRecord = integrate::ContactRecord;

/// What happened in one drift, in this engine's own terms (advance() reports the generic part
/// as StepStats, the rest as work counters).
struct DriftStats {
    std::int64_t collisions = 0;       ///< resolved (bounces and merges), walls included
    std::int64_t wall_collisions = 0;  ///< of them, contacts with walls
    std::int64_t merges = 0;           ///< bodies merged or stuck into others
    std::int64_t elastic_by_guard = 0; ///< made elastic by v_min or f_crit
    std::int64_t overlaps = 0;         ///< overlapping pairs (and sphere-wall) at the start
    double max_overlap = 0.0;          ///< largest overlap depth / (R1 + R2) (wall: / R)
    std::int64_t candidate_pairs = 0;  ///< neighbouring pairs at the start
    std::int64_t renewals = 0;         ///< neighbourhoods renewed (exit events)
    bool rebuilt = false;              ///< neighbour lists rebuilt (bodies changed)
    std::int64_t stale_events = 0;     ///< predictions dropped because a body collided first
    double skin = 0.0;                 ///< neighbourhood margin used (config or adaptive)
    std::int64_t grazes = 0;           ///< aggregate contacts reached without approach (no impulse)
};

namespace detail {

/// What collisions.outcome asks of a contact between bodies (a wall contact always bounces).
struct OutcomePolicy {
    ContactOutcome outcome = ContactOutcome::bounce;
    double stick_speed = 0.0; ///< m/s, collisions.stick_speed (0: any speed sticks)

    /// Sticking joins any two bodies into an aggregate, so every pair takes the rigid path.
    [[nodiscard]] bool rigid_pairs() const { return outcome == ContactOutcome::stick; }
    [[nodiscard]] bool merges() const { return outcome == ContactOutcome::merge; }
    /// A contact approaching at un (m/s) sticks.
    [[nodiscard]] bool sticks(double un) const {
        return outcome == ContactOutcome::stick && (stick_speed == 0.0 || un <= stick_speed);
    }
};

// What predictions read of each body, packed in one cache line (the Bodies arrays hold the same
// position, velocity and radius; time is when it was last advanced to, s into the drift).
struct alignas(64) Moving {
    Vec3 pos;
    double time;
    Vec3 vel;
    double radius;
};

// What only a contact reads or changes, in a second line: the engine keeps the bodies' state in
// these two lines during a drift and writes it back to Bodies at the end, so a collision
// touches two lines per body instead of one per Bodies array. Orientations are turned lazily:
// only when the spin changes and at the end of the drift.
struct alignas(64) Rigid {
    Vec3 spin;        // rad/s
    double mass;      // kg
    double inertia;   // kg m^2 (free spheres: one principal moment)
    double free_path; // m travelled since the last collision (the f_crit rule)
    double turned;    // s into the drift: the orientation in Bodies is for this time
    double speed;     // m/s, |vel| (for the free path of every advance)
};

// Each body's two earliest collisions from its last prediction (time +inf: none within the
// drift; time < 0: used up, unknown).
struct Upcoming {
    CollisionEvent first, second;
};

// Inlined into every offer, so that a body's kept events stay in registers while its
// neighbours are offered (stored field by field and read back whole, they would stall the
// loads).
[[gnu::always_inline]] inline void keep(Upcoming& u, const CollisionEvent& e) {
    const LaterEvent later;
    if (later(u.first, e)) {
        u.second = u.first;
        u.first = e;
    } else if (later(u.second, e)) {
        u.second = e; // (never replaces an unknown second: that stays unknown)
    }
}

struct DriftState {
    explicit DriftState(const CollisionConfig& c)
        : config(c), outcome{c.outcome, c.stick_speed}, wall_at(c.walls.size()),
          wall_impulses(c.walls.size()) {}

    CollisionConfig config;
    OutcomePolicy outcome;
    double h = 0.0;                                          // s, this drift
    std::array<Vec3, boundaries::image_count> image_shift{}; // m, of each periodic image (0: open)
    std::vector<Moving> moving;
    std::vector<Rigid> rigid;
    // Collisions of each body in this drift, or `absorbed` once it has merged into another
    // (one array, so that the checks of every event read one line per body, not two).
    std::vector<std::uint32_t> count;
    static constexpr std::uint32_t absorbed = 0xFFFFFFFFu; // above any max_per_body
    std::vector<Vec3> wall_at; // m, each wall's point at the start of the drift
    std::vector<WallImpulse> wall_impulses;
    std::vector<CollisionRecord> log;
    // A drift over ranks (GhostedDrift, event_drift.hpp): 1 for each row that is another rank's
    // body; null otherwise.
    const std::uint8_t* ghost = nullptr;
    // Aggregates (drift_state.cpp): `aggregates` when the drift has any body that is not a free
    // sphere, or sticks; then each body's spheres in its principal frame, whether it is a free
    // sphere, and its rotor path from its last collision (moving[k].time, when only a collision
    // moves a body) to the end of the drift.
    bool aggregates = false;
    std::vector<std::uint8_t> free;
    std::vector<std::size_t> parts_begin;
    std::vector<PartSphere> parts;
    std::vector<integrate::RotorPath> rotor;
    std::vector<double> reach;   // m, reach_of each body's parts (free spheres: their radius)
    std::vector<double> segment; // s into the drift: where each rotor path starts
    // outcome = stick: bodies stuck in this drift are joined (a union-find forest: joined[k] = k
    // for a group's root) until its end.
    std::vector<std::int32_t> joined;

    [[nodiscard]] bool alive(std::int32_t i) const {
        return count[static_cast<std::size_t>(i)] != absorbed;
    }
    /// Body k moves on a rotor path (an aggregate in a drift with aggregates).
    [[nodiscard]] bool is_rigid(std::size_t k) const { return aggregates && !free[k]; }

    /// Sets up the rigid-body state of the drift (`aggregates` and what it needs) from b.
    void start_rigid(const Bodies& b, double drift);
    /// Moves body i along its line to time t (s into the drift).
    void advance(std::int32_t i, double t) {
        const auto k = static_cast<std::size_t>(i);
        Moving& m = moving[k];
        const double dt = t - m.time;
        if (dt <= 0.0) return;
        m.pos += dt * m.vel;
        rigid[k].free_path += dt * rigid[k].speed;
        m.time = t;
    }
    /// Brings body i's orientation to time t with its present spin (before the spin changes).
    void turn(Bodies& b, std::int32_t i, double t);
    [[nodiscard]] SphereState sphere(std::int32_t i, const Vec3& shift) const {
        const auto k = static_cast<std::size_t>(i);
        const Moving& m = moving[k];
        const Rigid& r = rigid[k];
        return SphereState{r.mass, m.radius, r.inertia, m.pos + shift, m.vel, r.spin};
    }
    /// Body k as a rigid motion over its present segment.
    [[nodiscard]] RigidMotion motion_of(std::size_t k) const {
        // (Predictions come after a collision has restarted its bodies' paths: moving[k].time is
        // where the path starts, segment[k], for aggregates.)
        return RigidMotion{moving[k].pos, moving[k].vel, moving[k].time, &rotor[k], reach[k]};
    }
    [[nodiscard]] std::span<const PartSphere> parts_of(std::size_t k) const {
        return {parts.data() + parts_begin[k], parts_begin[k + 1] - parts_begin[k]};
    }
    /// Starts a new segment of body k's path at t (s into the drift), turned by `principal`,
    /// with angular velocity `spin`.
    void restart_path(Bodies& b, std::size_t k, const Quat& principal, const Vec3& spin, double t);
    /// Body k leaves a contact at t (s into the drift) with velocity vel and angular velocity
    /// spin: a sphere turns to t first if its spin changes (a smooth contact, eps_t = 1, leaves
    /// spins and so orientations alone); a rigid body starts a new segment of its path, turned
    /// by `principal` (its orientation at t).
    [[gnu::always_inline]] void set_motion(Bodies& b, std::size_t k, const Vec3& vel,
                                           const Vec3& spin, const Quat& principal, double t) {
        moving[k].vel = vel;
        rigid[k].speed = vel.norm();
        if (is_rigid(k)) {
            restart_path(b, k, principal, spin, t);
            return;
        }
        if (spin != rigid[k].spin) {
            turn(b, static_cast<std::int32_t>(k), t);
            rigid[k].spin = spin;
        }
    }
    /// Body k's orientation and spin written back at the end of the drift (aggregates).
    void finish_rigid(Bodies& b, std::size_t k, double drift);
    /// The body that stands for k's group of joined bodies.
    [[nodiscard]] std::int32_t joined_root(std::int32_t k) const {
        while (joined[static_cast<std::size_t>(k)] != k)
            k = joined[static_cast<std::size_t>(k)];
        return k;
    }
    /// At the end of a drift: each group of joined bodies becomes one aggregate.
    void join_stuck(Bodies& b, DriftStats& stats) const;
    /// Throws PhysicsError when body k has collided more than max_per_body times this drift.
    void check_collision_count(const Bodies& b, std::size_t k, double time) const;
};

} // namespace detail
} // namespace rubble::collisions
