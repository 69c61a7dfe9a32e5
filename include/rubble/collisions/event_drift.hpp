// SPDX-License-Identifier: MIT
#pragma once
// The drift of the KDK leapfrog with hard-sphere collisions, event-driven (docs/collisions.md).
//
// Within a drift every body moves on a straight line, so collisions are predicted exactly
// (predict.hpp) among the pairs of the neighbour lists (neighbour_lists.hpp), kept in a time-
// ordered queue (event_queue.hpp) and resolved one at a time in time order (resolve.hpp,
// merge.hpp). Bodies are advanced lazily: each keeps the time it was last brought to, and only
// the two bodies of a collision move to its time. Only each body's earliest event is queued;
// after each collision the two are predicted again against their neighbours, and an event that
// comes up stale re-predicts its unchanged body (Rapaport 2004, sec. 14.2).
// Overlapping pairs found at the start are handled first (overlaps.hpp).
//
// Walls (boundaries/wall.hpp) are further partners in the same queue: each body is predicted
// against every wall (wall_predict.hpp) whenever it is predicted against its neighbours, a
// contact's partner code is wall_event(k), and a wall never changes, so its events turn stale
// only when their body does. No walls: none of this runs.
//
// Bodies made of several spheres (rigid aggregates, docs/aggregates.md) move their centres of
// mass on the same straight lines and turn along their rotor paths (integrate/rotor_path.hpp):
// when a drift has any, pairs with an aggregate are predicted by the root search of
// rigid_predict.hpp and resolved by the off-centre impulse of rigid_impulse.hpp
// (event_drift_rigid.cpp); pairs of free spheres keep the exact quadratic, and a drift of free
// spheres only runs none of it. Their contacts with walls (planes, boxes, infinite cylinders)
// are predicted by the root search of rigid_wall_predict.hpp and resolved by the same impulse
// with the wall as a body of infinite mass; overlaps at the start (pairs and walls) take the
// strategies of rigid_overlaps.hpp. With outcome = "stick" (pkdgrav's sticky aggregates) every
// pair takes the rigid path, and bodies that meet slowly enough are joined: they take the
// impulse that stops their contact points' relative motion, are no longer predicted against
// each other, and become one aggregate at the drift's end (rigid_merge.hpp). Aggregates do not
// meet finite cylinders.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "rubble/boundaries/periodic.hpp"
#include "rubble/collisions/adaptive_skin.hpp"
#include "rubble/collisions/collision_config.hpp"
#include "rubble/collisions/event_queue.hpp"
#include "rubble/collisions/neighbour_lists.hpp"
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

/// The event-driven drift as the Simulation's stepper (integrate/stepper.hpp).
class EventDrivenDrift final : public integrate::Stepper {
public:
    explicit EventDrivenDrift(const CollisionConfig& config)
        : config_(config), wall_at_(config.walls.size()), wall_impulses_(config.walls.size()) {}

    [[nodiscard]] std::string name() const override { return "event-driven"; }
    [[nodiscard]] std::string summary(const Bodies& b) const override;
    [[nodiscard]] bool resolves_contacts() const override { return true; }
    /// drift(), with its statistics as StepStats (collisions as contacts).
    integrate::StepStats advance(Bodies& b, double h, double t0, bool may_abandon) override;
    /// Starts afresh (no neighbour lists, no queue, no adaptive-skin history): what an
    /// abandoned drift leaves behind is of no use.
    void discard() override;

    /// Moves the bodies over a drift of h seconds that starts at absolute time t0 (for the
    /// log and error messages), resolving every collision in time order. Merged bodies are
    /// removed at the end (the survivor keeps its id). Periodic positions are wrapped into the
    /// box. Throws PhysicsError for overlaps under "abort" and for inelastic collapse (a body
    /// colliding more than max_per_body times in one drift). With `may_abandon`, throws
    /// Interrupted on a stop request (rubble/core/stop_request.hpp), leaving `b` part-way
    /// through the drift and this engine fit only to be destroyed: the caller restores the
    /// state of the step's start.
    DriftStats drift(Bodies& b, double h, double t0, bool may_abandon = false);

    /// Collision records kept since the last call (config.log), in time order.
    [[nodiscard]] std::vector<CollisionRecord> take_log() override;

    [[nodiscard]] const CollisionConfig& config() const { return config_; }

    /// What each wall (config().walls) has given the bodies through contacts since this
    /// engine was made or discarded: the momentum and angular momentum budgets of the walls.
    [[nodiscard]] const std::vector<collisions::WallImpulse>& wall_impulses() const {
        return wall_impulses_;
    }

private:
    /// Copies the bodies' state in and queues each body's earliest event. Returns true when
    /// some pair may overlap (beyond the tolerance) and find_overlaps must look.
    bool start(const Bodies& b, double h);
    bool predict_initial(double h); // (the overlap answer of start())
    /// Queues i's earliest event after `now` (collision with a neighbour other than skip, or
    /// exit), if it falls within the drift, and keeps its earliest collision.
    void predict_for(std::int32_t i, std::int32_t skip, double now, double h);
    /// After i's exit: its new neighbours only, when its kept earliest collision still holds.
    void predict_after_exit(std::int32_t i, double now, double h);
    /// After i's queued event e came up stale (its partner changed): the kept second earliest
    /// collision when it still holds, else a new prediction.
    void predict_after_stale(std::int32_t i, const CollisionEvent& e, double now, double h);

    // Each body's two earliest collisions from its last prediction (time +inf: none within
    // the drift; time < 0: used up, unknown).
    struct Upcoming {
        CollisionEvent first, second;
    };
    static void keep(Upcoming& u, const CollisionEvent& e);
    [[nodiscard]] bool still_holds(std::int32_t i, const CollisionEvent& e) const;
    /// The earlier of i's first collision (its kept one, passed in) and its exit (time +inf:
    /// neither in the drift).
    [[nodiscard]] CollisionEvent earliest(std::int32_t i, const CollisionEvent& first, double now,
                                          double h) const;
    /// Queues earliest(i, first), if within the drift.
    void queue_earliest(std::int32_t i, const CollisionEvent& first, double now, double h);
    /// Predicts the pair's contact within the drift and keeps it in u (i's kept collisions)
    /// if it is among the two earliest.
    void offer(Upcoming& u, std::int32_t i, std::int32_t j, std::int8_t image, double h) const;
    /// predict_for()'s offers with aggregates: i's neighbours (but `skip`) in the order in which
    /// their bounding spheres first touch i's, up to i's two kept events.
    void offer_nearest_first(Upcoming& u, std::int32_t i, std::int32_t skip, double h);
    /// offer() for a pair with an aggregate (rigid_predict.hpp).
    void offer_rigid(Upcoming& u, std::int32_t i, std::int32_t j, std::int8_t image,
                     double h) const;
    /// Sets up the rigid-body state of the drift (aggregates_ and what it needs) from b.
    void start_rigid(const Bodies& b, double h);
    /// collide() for a pair with an aggregate (every pair when sticking): the off-centre impulse
    /// at the touching spheres, or with outcome = stick the impulse that joins the two bodies.
    void collide_rigid(Bodies& b, const CollisionEvent& e, double t0, DriftStats& stats);
    /// Overlaps between spheres of different bodies, and of spheres with walls, at the start
    /// of a drift with aggregates: counted and handled (rigid_overlaps.hpp); the drift starts
    /// again from what the strategy leaves.
    void handle_rigid_overlaps_at_start(Bodies& b, double h, double t0, DriftStats& stats);
    /// offer_walls() for an aggregate (rigid_wall_predict.hpp).
    void offer_rigid_walls(Upcoming& u, std::int32_t i, double h) const;
    /// collide_wall() for an aggregate: the off-centre impulse at the touching sphere, the wall
    /// as a body of infinite mass.
    void collide_rigid_wall(Bodies& b, const CollisionEvent& e, double t0, DriftStats& stats);
    /// The body that stands for k's group of joined bodies.
    [[nodiscard]] std::int32_t joined_root(std::int32_t k) const;
    /// At the end of a drift: each group of joined bodies becomes one aggregate.
    void join_stuck(Bodies& b, DriftStats& stats);
    /// Starts a new segment of body k's path at t (s into the drift), turned by `principal`,
    /// with angular velocity `spin`.
    void restart_path(Bodies& b, std::size_t k, const Quat& principal, const Vec3& spin, double t);
    /// Body k's orientation and spin written back at the end of the drift (aggregates).
    void finish_rigid(Bodies& b, std::size_t k, double h);
    /// Body k as a rigid motion over its present segment.
    [[nodiscard]] RigidMotion motion_of(std::size_t k) const {
        // (Predictions come after a collision has restarted its bodies' paths: moving_[k].time is
        // where the path starts, segment_[k], for aggregates.)
        return RigidMotion{moving_[k].pos, moving_[k].vel, moving_[k].time, &rotor_[k], reach_[k]};
    }
    [[nodiscard]] std::span<const PartSphere> parts_of(std::size_t k) const {
        return {parts_.data() + parts_begin_[k], parts_begin_[k + 1] - parts_begin_[k]};
    }

    /// Predicts i's contacts with every wall from i's own time, keeping them in u likewise.
    void offer_walls(Upcoming& u, std::int32_t i, double h) const;
    /// Starts loading what handling e will read (a hint: no effect on results).
    void prefetch(const CollisionEvent& e) const;
    /// Starts loading the states of i's neighbours (a hint: no effect on results).
    void prefetch_neighbours(std::int32_t i) const;
    /// Moves body i along its line to time t (s into the drift).
    void advance(std::int32_t i, double t);
    /// Brings body i's orientation to time t with its present spin (before the spin changes).
    void turn(Bodies& b, std::int32_t i, double t);
    [[nodiscard]] SphereState sphere(std::int32_t i, const Vec3& shift) const;
    void collide(Bodies& b, const CollisionEvent& e, double t0, DriftStats& stats);
    /// Body e.i's contact with wall wall_index(e.j), the wall as infinite mass.
    void collide_wall(Bodies& b, const CollisionEvent& e, double t0, DriftStats& stats);
    /// Throws PhysicsError when body k has collided more than max_per_body times this drift.
    void check_collision_count(const Bodies& b, std::size_t k, double time) const;
    /// Handles bodies overlapping walls at the start of the drift (wall_overlaps.hpp).
    void handle_walls_at_start(Bodies& b, double h, double t0, DriftStats& stats);
    /// Renews i's neighbourhood at its exit event e (body now at x), making sure the drift
    /// still moves on: throws PhysicsError when i's next exit could not come later than this
    /// one, or when i has been renewed more than max_per_body times in this drift.
    void renew_at_exit(const Bodies& b, const CollisionEvent& e, const Vec3& x, double h,
                       double t0);
    /// The event of i leaving its neighbourhood, if it may come before `until` and within the
    /// drift (nothing when i's path is still inside its room at `until`).
    [[nodiscard]] std::optional<CollisionEvent> exit_before(std::int32_t i, double now,
                                                            double until, double h) const;
    /// The event of i leaving its neighbourhood, if within the drift.
    [[nodiscard]] std::optional<CollisionEvent> predict_exit(std::int32_t i, double now,
                                                             double h) const;

    /// The skin for this drift: config.skin, or the adaptive one (config.skin = 0) within
    /// what the periodic box allows.
    [[nodiscard]] double skin_for_drift(const Bodies& b, double h);

    // Invariant checks (drift_checks.hpp, event_drift_checks.cpp), called only when
    // debug_checks (core/debug_checks.hpp); they read, never change, the state.
    /// Notes the pairs and body-wall contacts overlapping beyond the tolerance at the start
    /// (after the overlap strategy): the only ones check_after_event lets overlap.
    void note_start_overlaps();
    /// Before resolving e: no contact of its bodies predicted afresh comes earlier.
    void check_before_event(const Bodies& b, const CollisionEvent& e, double t0) const;
    /// After resolving e: its bodies overlap neither each other, nor their neighbours, nor any
    /// wall beyond the tolerance at e's time (bounce outcome).
    void check_after_event(const Bodies& b, const CollisionEvent& e, double t0) const;
    /// At the end of the drift: positions inside the periodic box, ids consistent.
    void check_end(const Bodies& b, double h, double t0) const;
    /// Body k's centre at time t (s into the drift) on its present line (a copy).
    [[nodiscard]] Vec3 position_at(std::int32_t k, double t) const;

    CollisionConfig config_;
    AdaptiveSkin adaptive_skin_;
    NeighbourLists neighbours_; // kept from drift to drift
    EventQueue queue_;
    // What predictions read of each body, packed in one cache line (the Bodies arrays hold
    // the same position, velocity and radius; time is when it was last advanced to, s into
    // the drift).
    struct alignas(64) Moving {
        Vec3 pos;
        double time;
        Vec3 vel;
        double radius;
    };
    std::vector<Moving> moving_;
    // What only a contact reads or changes, in a second line: the engine keeps the bodies'
    // state in these two lines during a drift and writes it back to Bodies at the end, so a
    // collision touches two lines per body instead of one per Bodies array. Orientations are
    // turned lazily: only when the spin changes and at the end of the drift.
    struct alignas(64) Rigid {
        Vec3 spin;        // rad/s
        double mass;      // kg
        double inertia;   // kg m^2 (free spheres: one principal moment)
        double free_path; // m travelled since the last collision (the f_crit rule)
        double turned;    // s into the drift: the orientation in Bodies is for this time
        double speed;     // m/s, |vel| (for the free path of every advance)
    };
    std::vector<Rigid> rigid_;
    std::array<Vec3, boundaries::image_count>
        image_shift_{}; // m, of each periodic image (0 when open)
    // Collisions of each body in this drift, or `absorbed` once it has merged into another
    // (one array, so that the checks of every event read one line per body, not two).
    std::vector<std::uint32_t> count_;
    static constexpr std::uint32_t absorbed = 0xFFFFFFFFu; // above any max_per_body
    // Renewals of each body's neighbourhood in this drift (bounded by max_per_body, like its
    // collisions, so that the event loop always ends).
    std::vector<std::uint32_t> renewed_;
    [[nodiscard]] bool alive(std::int32_t i) const {
        return count_[static_cast<std::size_t>(i)] != absorbed;
    }
    std::vector<Upcoming> upcoming_;
    std::vector<CollisionRecord> log_;
    std::vector<Vec3> wall_at_; // m, each wall's point at the start of the drift
    std::vector<collisions::WallImpulse> wall_impulses_;
    // Aggregates (event_drift_rigid.cpp): aggregates_ when the drift has any body that is not a
    // free sphere; then each body's spheres in its principal frame, whether it is a free sphere,
    // and its rotor path from its last collision (moving_[k].time, when only a collision moves a
    // body) to the end of the drift.
    bool aggregates_ = false;
    double h_ = 0.0; // s, this drift
    std::vector<std::uint8_t> free_;
    std::vector<std::size_t> parts_begin_;
    std::vector<PartSphere> parts_;
    std::vector<integrate::RotorPath> rotor_;
    std::vector<double> reach_;   // m, reach_of each body's parts (free spheres: their radius)
    std::vector<double> segment_; // s into the drift: where each rotor path starts
    struct Nearest {
        double time; // s into the drift, when the bounding spheres first touch
        std::int32_t body;
        std::int8_t image;
    };
    std::vector<Nearest> nearest_; // offer_nearest_first's neighbours
    // outcome = stick: every pair takes the rigid path, and bodies stuck in this drift are
    // joined (a union-find forest: joined_[k] = k for a group's root) until its end.
    bool sticking_ = false;
    std::vector<std::int32_t> joined_;
    // (debug_checks only) index pairs i < j, and (body, wall), overlapping at the start.
    std::vector<std::pair<std::int32_t, std::int32_t>> overlapping_at_start_;
    std::vector<std::pair<std::int32_t, std::size_t>> wall_overlapping_at_start_;
};

} // namespace rubble::collisions
