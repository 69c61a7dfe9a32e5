// SPDX-License-Identifier: MIT
#pragma once
// A stop criterion for runs that settle (issue 22, item 3): the run may end once the aggregates'
// membership and spins have stayed the same over a window of time the user sets.
//
// Aggregates are the connected components of the contact graph (Ferrari et al. 2020, MNRAS 492,
// 3334, sec. 2.4.1), with contact defined exactly as the Python analysis defines it
// (analysis/rubble_analysis/contacts.py), so that a run stopped here is one the analysis also
// finds settled:
//   - two spheres of different bodies (free spheres, or the spheres of rigid aggregates at their
//     world centres x + q offset) touch when their gap |c_i - c_j| - (R_i + R_j) is at most
//     tolerance * min(R_i, R_j); spheres of one body never make an edge (they are held together
//     rigidly, not by contact);
//   - two polyhedra, when the GJK distance between their world hulls is at most tolerance *
//     min(bounding radii); overlapping hulls count;
//   - a sphere and a polyhedron, when the hull's distance from the sphere's centre less the
//     sphere's radius is at most tolerance * min(sphere radius, hull bounding radius).
// Candidate pairs come from a uniform grid on the shapes' bounding spheres grown by the
// tolerance (polyhedra::sphere_pairs), so the cost is O(N) for shapes of similar sizes.
//
// The tracker compares each observation with a reference: the first observation of the
// current unchanged stretch. Membership is the partition of body ids into components (a body
// appearing or disappearing, as in a merge, is a change). The spin state of each aggregate of
// two or more bodies is its angular momentum L about its centre of mass (orbital plus spin) and
// twice its rotational energy w.L, with w = I^-1 L the rigid rotation that carries L (I the
// bodies' own tensors turned to the inertial frame plus their parallel-axis terms). Both are
// constant for a rigid pile, also one that tumbles (turns about an axis that is not principal,
// so that w precesses about L while L and w.L stay: Landau & Lifshitz, Mechanics, sec. 37);
// both change when the pile reshapes (I changes, w.L with it) or trades momentum with others.
// They are compared in units of the aggregate's mean moment I_m = trace(I)/3 and dynamical
// rate w_d = sqrt(G M / R^3) (M its mass, R its extent about the centre of mass): |dL| <=
// tol I_m w_d and |d(w.L)| <= tol I_m w_d^2, so the threshold is unit-free and stays finite
// for a pile that barely turns.
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "rubble/core/bodies.hpp"

namespace rubble::run {

/// For each body row, the label of its aggregate: the smallest body id among the bodies joined
/// to it by the contact graph (itself when it touches none), so that labels compare across
/// snapshots whatever the row order. `tolerance` is the relative gap (unit-free, > -1; the
/// analysis' default is 0.01). O(N) for shapes of similar sizes; hull pairs cost one GJK each.
[[nodiscard]] std::vector<std::int64_t> aggregate_labels(const Bodies& b, double tolerance);

/// The rigid spin of one aggregate of two or more bodies.
struct AggregateSpin {
    std::int64_t label = 0;   ///< smallest member id
    std::size_t members = 0;  ///< number of bodies
    double mass = 0.0;        ///< kg, M
    Vec3 spin = Vec3::Zero(); ///< rad/s, inertial frame: I^-1 L about the centre of mass
    Vec3 angular_momentum = Vec3::Zero(); ///< kg m^2/s, L about the centre of mass
    double moment = 0.0;                  ///< kg m^2, trace(I) / 3, the mean moment
    double extent = 0.0;                  ///< m, R = max over members of |x_i - com| + radius_i
    double rate_scale = 0.0;              ///< rad/s, sqrt(G M / R^3)
};

/// The spins of the aggregates of two or more bodies given by `labels` (one per body row, as
/// aggregate_labels returns), ascending by label. G in m^3 kg^-1 s^-2.
[[nodiscard]] std::vector<AggregateSpin>
aggregate_spins(const Bodies& b, std::span<const std::int64_t> labels, double G);

/// What counts as settled.
struct SettleConfig {
    double window = 0.0;             ///< s, > 0: how long membership and spins must hold
    double contact_tolerance = 0.01; ///< relative gap of a contact (aggregate_labels), > -1
    /// change of L and w.L allowed, in units of I_m w_d and I_m w_d^2 (above), > 0
    double spin_tolerance = 0.01;
    double G = G_SI; ///< m^3 kg^-1 s^-2, > 0
};

/// Watches the aggregates at a run's check times (its snapshots) and says when they have been
/// the same for the configured window.
class SettleTracker {
public:
    /// Throws std::invalid_argument naming the first field out of range.
    explicit SettleTracker(const SettleConfig& config);

    /// Observes the bodies at time t (s, not decreasing between calls). The observation becomes
    /// the new reference when there is none yet, when t is before the reference, when the
    /// partition of body ids into aggregates differs from the reference's, or when the angular
    /// momentum or rotational energy of an aggregate of two or more bodies differs from the
    /// reference's by more than spin_tolerance in the units above. Returns true when
    /// t - reference_time() >= window.
    bool observe(const Bodies& b, double t);

    /// s, time of the reference observation (NaN before the first).
    [[nodiscard]] double reference_time() const { return t_reference_; }
    /// The reference's aggregates of two or more bodies, ascending by label.
    [[nodiscard]] const std::vector<AggregateSpin>& reference_spins() const { return spins_; }
    /// The reference's (id, label) pairs, ascending by id.
    [[nodiscard]] const std::vector<std::pair<std::int64_t, std::int64_t>>&
    reference_membership() const {
        return membership_;
    }
    /// Number of observations that became the reference (the first included).
    [[nodiscard]] std::int64_t resets() const { return resets_; }

private:
    SettleConfig config_;
    double t_reference_;
    std::vector<std::pair<std::int64_t, std::int64_t>> membership_;
    std::vector<AggregateSpin> spins_;
    std::int64_t resets_ = 0;
};

} // namespace rubble::run
