// SPDX-License-Identifier: MIT
// The event-driven drift seen through the Stepper interface (integrate/stepper.hpp).
#include "rubble/collisions/event_drift.hpp"

#include <sstream>

namespace rubble::collisions {

integrate::StepStats EventDrivenDrift::advance(Bodies& b, double h, double t0, bool may_abandon) {
    const DriftStats d = drift(b, h, t0, may_abandon);
    integrate::StepStats s;
    s.contacts = d.collisions;
    s.merges = d.merges;
    s.overlaps = d.overlaps;
    s.max_overlap = d.max_overlap;
    s.work = {{"elastic_by_guard", static_cast<double>(d.elastic_by_guard)},
              {"candidate_pairs", static_cast<double>(d.candidate_pairs)},
              {"renewals", static_cast<double>(d.renewals)},
              {"rebuilt", d.rebuilt ? 1.0 : 0.0},
              {"stale_events", static_cast<double>(d.stale_events)},
              {"skin", d.skin},
              {"wall_collisions", static_cast<double>(d.wall_collisions)},
              {"grazes", static_cast<double>(d.grazes)}};
    return s;
}

std::string EventDrivenDrift::summary(const Bodies& b) const {
    const CollisionConfig& k = s_.config;
    std::ostringstream out;
    out << "collisions: " << enum_name(outcome_names, k.outcome) << ", eps_n = " << k.eps_n
        << ", eps_t = " << k.eps_t << ", v_min = " << k.v_min << " m/s, f_crit = " << k.f_crit;
    if (k.mu > 0.0) out << ", Coulomb mu = " << k.mu << " (aggregates)";
    if (!b.all_free_spheres())
        out << ", overlaps "
            << enum_name(overlap_strategy_names, effective_overlaps(k.overlaps, true));
    if (k.periodic_box > 0.0) out << ", periodic box " << k.periodic_box << " m";
    if (!k.walls.empty()) out << ", " << k.walls.size() << " wall(s)";
    return out.str();
}

void EventDrivenDrift::discard() {
    const CollisionConfig config = s_.config;
    *this = EventDrivenDrift(config);
}

} // namespace rubble::collisions
