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
// contact's partner is Partner::wall(k) (event_queue.hpp), and a wall never changes, so its
// events turn stale only when their body does. No walls: none of this runs.
//
// Bodies made of several spheres (rigid aggregates, docs/aggregates.md) move their centres of
// mass on the same straight lines and turn along their rotor paths (integrate/rotor_path.hpp).
// With outcome = "stick" (pkdgrav's sticky aggregates) every pair takes the rigid path, and
// bodies that meet slowly enough are joined: they take the impulse that stops their contact
// points' relative motion, are no longer predicted against each other, and become one aggregate
// at the drift's end (rigid_merge.hpp). Aggregates do not meet finite cylinders.
//
// The class is the scheduler: the queue, each body's kept events, staleness, neighbourhood
// exits and renewals, the prediction order, the start-of-drift overlap phases and the end of
// the drift. What a contact is, how it is predicted and resolved, is the pair kind's
// (src/collisions/pair_kinds.hpp): SphereSphere (the exact quadratic, the restitution model or
// a merge), SphereWall, RigidPair (the root search of rigid_predict.hpp and the off-centre
// impulse of rigid_impulse.hpp, or sticking) and RigidWall (rigid_wall_predict.hpp, the wall
// as a body of infinite mass); they read and change the drift's state (drift_state.hpp) and
// share its bookkeeping (contact_book.hpp). A drift of free spheres only runs none of the
// rigid kinds.
//
// Over MPI ranks (run/drift_over_ranks.hpp) each rank runs this engine on its own bodies and
// ghosts, copies of other ranks' bodies that move only as their owners say (GhostedDrift,
// begin_with_ghosts); the drift then runs in phases (begin, the events before a time, end)
// so that the caller can go back to a copy of the engine made between them.
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "rubble/collisions/adaptive_skin.hpp"
#include "rubble/collisions/collision_config.hpp"
#include "rubble/collisions/drift_state.hpp"
#include "rubble/collisions/event_queue.hpp"
#include "rubble/collisions/neighbour_lists.hpp"
#include "rubble/collisions/wall_resolve.hpp"
#include "rubble/core/bodies.hpp"
#include "rubble/integrate/stepper.hpp"

namespace rubble::collisions {

/// A body's motion from a collision on: its line (position at `moving.time`, velocity) and
/// its contact state. What a rank tells the others of its bodies that they hold as ghosts.
struct BodyChange {
    double time = 0.0;     ///< s into the drift
    std::int32_t row = -1; ///< the body's row in the drift's bodies
    detail::Moving moving;
    detail::Rigid rigid;
};

/// One rank's part of a drift over ranks (run/drift_over_ranks.hpp): besides its own bodies,
/// the drift's bodies include ghosts, other ranks' bodies that may meet its own. A ghost moves
/// as its owner says (`updates`), never by what this rank computes: pairs of ghosts are never
/// predicted, and a ghost's collision with one of this rank's bodies changes the ghost only
/// until its owner's change at the same time is applied (after every collision at that time).
/// The rows must be in the serial run's order, so that every pair is predicted as the serial
/// run predicts it (offer(): in the order i < j) on both ranks that hold it. A ghost meets no
/// wall here (its wall contacts are its owner's, and come as its owner's changes).
struct GhostedDrift {
    std::vector<std::uint8_t> ghost; ///< per row: 1 for another rank's body
    /// The ghosts' changes (their owners'), in time order; at one time in their owners' order.
    std::vector<BodyChange> updates;
    /// Out: every change of this rank's bodies, in the order they were made.
    std::vector<BodyChange> changes;
    /// Out: some pair overlaps at the start; the drift stopped there, nothing done (the
    /// overlap strategies act on the whole state).
    bool overlaps = false;
};

/// The event-driven drift as the Simulation's stepper (integrate/stepper.hpp).
class EventDrivenDrift final : public integrate::Stepper {
public:
    explicit EventDrivenDrift(const CollisionConfig& config) : s_(config) {}

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

    /// drift() of one rank's bodies and its ghosts (GhostedDrift), in phases, for a caller that
    /// goes back to a copy of the engine and of `b` made between them (a drift over ranks whose
    /// ghosts' changes turned out different from some time on): starts the drift (false when
    /// some pair overlaps: nothing more to do), resolves the events before `until` (s into the
    /// drift; later calls go on from there), and ends it (the engine's statistics since the
    /// start). Starting, it refuses (false, GhostedDrift::overlaps) bodies that overlap each
    /// other or a wall: the overlap strategies act on the whole state. A collision is counted
    /// and logged by the rank that owns its first body (the lower row: the lower serial
    /// order; a wall contact's body), so that the ranks' counts and logs add up to the serial
    /// run's. An engine whose phase threw is fit only to be dropped. Free spheres that bounce
    /// (walls, a periodic box: as in drift()).
    bool begin_with_ghosts(Bodies& b, double h, double t0, GhostedDrift& ghosts);
    void ghosted_until(Bodies& b, double until);
    DriftStats end_with_ghosts(Bodies& b);
    /// Points a copy of the engine made during a drift with ghosts at `ghosts` (the copy's
    /// caller's, whose updates before the copy's time are those the copy was made with).
    void use_ghosts(GhostedDrift& ghosts);

    /// Collision records kept since the last call (config.log), in time order.
    [[nodiscard]] std::vector<CollisionRecord> take_log() override;

    [[nodiscard]] const CollisionConfig& config() const { return s_.config; }

    /// What each wall (config().walls) has given the bodies through contacts since this
    /// engine was made or discarded: the momentum and angular momentum budgets of the walls.
    [[nodiscard]] const std::vector<collisions::WallImpulse>& wall_impulses() const {
        return s_.wall_impulses;
    }

private:
    using Upcoming = detail::Upcoming;

    /// Copies the bodies' state in and queues each body's earliest event. Returns true when
    /// some pair may overlap (beyond the tolerance) and find_overlaps must look.
    bool start(const Bodies& b, double h);
    // drift()'s phases: the start (lists, predictions, overlaps at the start; false when a
    // drift with ghosts found some that may overlap), the events before `until`, the end.
    bool begin_drift(Bodies& b, double h, double t0, DriftStats& stats);
    void run_events(Bodies& b, double until, DriftStats& stats, bool may_abandon);
    void end_drift(Bodies& b, DriftStats& stats);
    bool predict_initial(double h); // (the overlap answer of start())
    /// Queues i's earliest event after `now` (collision with a neighbour other than skip, or
    /// exit), if it falls within the drift, and keeps its earliest collision.
    void predict_for(std::int32_t i, std::int32_t skip, double now, double h);
    /// After i's exit: its new neighbours only, when its kept earliest collision still holds.
    void predict_after_exit(std::int32_t i, double now, double h);
    /// After i's queued event e came up stale (its partner changed): the kept second earliest
    /// collision when it still holds, else a new prediction.
    void predict_after_stale(std::int32_t i, const CollisionEvent& e, double now, double h);

    [[nodiscard]] bool still_holds(std::int32_t i, const CollisionEvent& e) const;
    /// The earlier of i's first collision (its kept one, passed in) and its exit (time +inf:
    /// neither in the drift).
    [[nodiscard]] CollisionEvent earliest(std::int32_t i, const CollisionEvent& first, double now,
                                          double h) const;
    /// Queues earliest(i, first), if within the drift.
    void queue_earliest(std::int32_t i, const CollisionEvent& first, double now, double h);

    // The four dispatch points to the pair kinds (src/collisions/pair_kinds.hpp).
    /// Predicts the pair's contact within the drift and keeps it in u (i's kept collisions)
    /// if it is among the two earliest.
    void offer(Upcoming& u, std::int32_t i, std::int32_t j, std::int8_t image, double h) const;
    /// Predicts i's contacts with every wall from i's own time, keeping them in u likewise.
    void offer_walls(Upcoming& u, std::int32_t i, double h) const;
    /// Resolves the contact of e's two bodies, both advanced to e.time.
    void collide(Bodies& b, const CollisionEvent& e, double t0, DriftStats& stats);
    /// Body e.i's contact with wall e.partner(), the wall as infinite mass.
    void collide_wall(Bodies& b, const CollisionEvent& e, double t0, DriftStats& stats);

    /// predict_for()'s offers with aggregates: i's neighbours (but `skip`) in the order in which
    /// their bounding spheres first touch i's, up to i's two kept events.
    void offer_nearest_first(Upcoming& u, std::int32_t i, std::int32_t skip, double h);

    // Overlaps at the start of a drift (event_drift_overlaps.cpp): counted and handled by the
    // strategy of collisions.overlaps; the drift starts again from what the strategy leaves.
    /// Free spheres overlapping each other (overlaps.hpp), when predict_initial saw any.
    void handle_pairs_at_start(Bodies& b, double h, double t0, DriftStats& stats);
    /// Free spheres overlapping walls (wall_overlaps.hpp).
    void handle_walls_at_start(Bodies& b, double h, double t0, DriftStats& stats);
    /// With aggregates: spheres of different bodies, and spheres and walls, all found before
    /// any is handled (rigid_overlaps.hpp).
    void handle_rigid_overlaps_at_start(Bodies& b, double h, double t0, DriftStats& stats);

    // Drifts with ghosts (event_drift_ghosts.cpp).
    /// Applies the next ghost update when it comes before every queued event (at one time,
    /// collisions first). Returns false when there is none to apply now.
    bool apply_due_ghost_update(double h, double until);
    /// After the collision e (its log then held `logged` records): the collision is the other
    /// rank's to count when its first body is a ghost; this rank's bodies' changes recorded.
    void note_ghosted_collision(const CollisionEvent& e, DriftStats& stats, std::size_t logged);

    /// Starts loading what handling e will read (a hint: no effect on results).
    void prefetch(const CollisionEvent& e) const;
    /// Starts loading the states of i's neighbours (a hint: no effect on results).
    void prefetch_neighbours(std::int32_t i) const;
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

    // What the pair kinds read and change (drift_state.hpp); what follows is the scheduler's.
    detail::DriftState s_;
    double t0_ = 0.0;                 // s, the drift's start (absolute)
    GhostedDrift* ghosted_ = nullptr; // begin_with_ghosts' (s_.ghost its flags)
    std::size_t next_update_ = 0;     // in ghosted_->updates
    DriftStats ghosted_stats_;        // the phases' of a drift with ghosts
    AdaptiveSkin adaptive_skin_;
    NeighbourLists neighbours_; // kept from drift to drift
    EventQueue queue_;
    // Renewals of each body's neighbourhood in this drift (bounded by max_per_body, like its
    // collisions, so that the event loop always ends).
    std::vector<std::uint32_t> renewed_;
    std::vector<Upcoming> upcoming_;
    struct Nearest {
        double time; // s into the drift, when the bounding spheres first touch
        std::int32_t body;
        std::int8_t image;
    };
    std::vector<Nearest> nearest_; // offer_nearest_first's neighbours
    // (debug_checks only) body i and its partner, a body j > i or a wall, overlapping at the
    // start, sorted.
    std::vector<std::pair<std::int32_t, Partner>> overlapping_at_start_;
};

} // namespace rubble::collisions
