// SPDX-License-Identifier: MIT
// One rank's part of a drift over ranks (GhostedDrift, event_drift.hpp; the scheme is
// run/drift_over_ranks.hpp's): the ghosts' changes applied in time order beside the queue, and
// this rank's own changes recorded for the ranks that hold its bodies as ghosts.
#include <stdexcept>

#include "rubble/collisions/event_drift.hpp"

namespace rubble::collisions {

bool EventDrivenDrift::begin_with_ghosts(Bodies& b, double h, double t0, GhostedDrift& ghosts) {
    if (ghosts.ghost.size() != b.size())
        throw std::invalid_argument("begin_with_ghosts: one ghost flag per body is needed");
    if (s_.outcome.merges() || s_.outcome.rigid_pairs() || !b.all_free_spheres())
        throw std::invalid_argument("begin_with_ghosts: free spheres that bounce only");
    ghosts.changes.clear();
    ghosts.overlaps = false;
    next_update_ = 0;
    ghosted_stats_ = DriftStats{};
    use_ghosts(ghosts);
    return begin_drift(b, h, t0, ghosted_stats_);
}

void EventDrivenDrift::use_ghosts(GhostedDrift& ghosts) {
    ghosted_ = &ghosts;
    s_.ghost = ghosts.ghost.data();
}

void EventDrivenDrift::ghosted_until(Bodies& b, double until) {
    if (ghosted_ == nullptr || ghosted_->overlaps)
        throw std::logic_error("ghosted_until: no drift with ghosts begun");
    run_events(b, until, ghosted_stats_, false);
}

DriftStats EventDrivenDrift::end_with_ghosts(Bodies& b) {
    if (ghosted_ == nullptr) throw std::logic_error("end_with_ghosts: no drift with ghosts begun");
    if (!ghosted_->overlaps) end_drift(b, ghosted_stats_);
    ghosted_ = nullptr;
    s_.ghost = nullptr;
    return ghosted_stats_;
}

bool EventDrivenDrift::apply_due_ghost_update(double h, double until) {
    const std::vector<BodyChange>& updates = ghosted_->updates;
    if (next_update_ >= updates.size()) return false;
    const BodyChange& c = updates[next_update_];
    if (!(c.time < until)) return false;
    // At one time every collision comes first: a collision of a ghost at time t is computed
    // from the ghost's state before its owner's change at t (which is that collision's own
    // outcome, or another at t before it on the owner's rank).
    if (!queue_.empty() && !(c.time < queue_.top().time)) return false;
    ++next_update_;
    const auto k = static_cast<std::size_t>(c.row);
    s_.moving[k] = c.moving;
    s_.rigid[k] = c.rigid;
    // Its queued events are stale from now on, and the bodies of this rank that it may meet
    // are predicted against its new line (as after a collision).
    ++s_.count[k];
    predict_for(c.row, -1, c.time, h);
    return true;
}

void EventDrivenDrift::note_ghosted_collision(const CollisionEvent& e, DriftStats& stats,
                                              std::size_t logged) {
    const auto i = static_cast<std::size_t>(e.i);
    if (e.partner().is_wall()) { // (never a ghost's: offer_walls)
        ghosted_->changes.push_back(BodyChange{e.time, e.i, s_.moving[i], s_.rigid[i]});
        return;
    }
    const auto j = static_cast<std::size_t>(e.j);
    if (s_.ghost[i] != 0) { // (e.i < e.j: the first body is the lower in the serial order)
        --stats.collisions;
        s_.log.resize(logged);
    }
    for (const std::size_t k : {i, j})
        if (s_.ghost[k] == 0)
            ghosted_->changes.push_back(
                BodyChange{e.time, static_cast<std::int32_t>(k), s_.moving[k], s_.rigid[k]});
}

} // namespace rubble::collisions
