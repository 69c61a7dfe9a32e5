// SPDX-License-Identifier: MIT
#pragma once
// The contact stage of a kick-drift-kick step: everything that moves the bodies between the two
// kicks. Simulation owns one Stepper and never knows which; the run driver (run/run_driver.hpp),
// its report and progress, the diagnostics and the HDF5 writer read only the generic
// statistics, the summary and the contact log below.
//
// Steppers today: PlainDrift (straight lines and constant spin, no contacts), the event-driven
// hard-sphere drift of free spheres and rigid aggregates (collisions/event_drift.hpp) and the
// non-smooth-contact stepper of polyhedra (polyhedra/nsc_stepper.hpp); run::make_stepper picks
// one (docs/architecture.md).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rubble/core/bodies.hpp"

namespace rubble::integrate {

/// One resolved contact, for the optional contact log (/collisions in the output).
struct ContactRecord {
    double time = 0.0;             ///< s, absolute
    std::int64_t id1 = 0, id2 = 0; ///< body ids, id1 < id2
    double normal_speed = 0.0;     ///< m/s, |u.n| before the contact
    double tangential_speed = 0.0; ///< m/s, |u_t| of the contact points before
    double impact_parameter = 0.0; ///< m, distance between the centres' lines of motion
};

/// A stepper-specific count of work done in one advance (neighbour renewals, solver
/// iterations, ...): reported by benchmarks and tests, never needed to continue a run.
struct WorkCounter {
    const char* name; ///< a static string
    double value;
};

/// What one advance did, in terms every stepper can fill.
struct StepStats {
    std::int64_t contacts = 0; ///< contacts resolved (collisions of the event-driven drift)
    std::int64_t merges = 0;   ///< contacts that merged two bodies into one
    std::int64_t overlaps = 0; ///< overlapping pairs found at the start of the advance
    double max_overlap = 0.0;  ///< largest overlap depth / (R1 + R2) at the start
    std::vector<WorkCounter> work;
};

/// The work counter called `name`, or 0 when this stepper does not count it.
[[nodiscard]] double work_counter(const StepStats& s, std::string_view name);

/// One named array of a stepper's state: `rows` rows of `width` values, integers or reals.
struct StateArray {
    std::string name;
    std::size_t width = 1;
    bool integer = false;
    std::vector<std::int64_t> ints; ///< rows * width values when `integer`, else empty
    std::vector<double> reals;      ///< rows * width values unless `integer`, else empty
    std::string units, description; ///< for the output's readers (not read back)
};

/// What a stepper carries from one advance to the next that its results depend on (the NSC
/// stepper's warm starts), as named arrays of a common row count: stored with each snapshot
/// (/snapshots/NNNNNN/stepper_state, docs/output-format.md), so that a run resumed from it
/// continues bitwise. Empty (no stepper name) for steppers whose results depend on the bodies
/// alone.
struct StepperState {
    std::string stepper; ///< name() of the stepper that saved it; empty: no state
    std::size_t rows = 0;
    std::vector<StateArray> arrays;
    [[nodiscard]] bool empty() const { return stepper.empty(); }
    /// The array called `name`, or nullptr.
    [[nodiscard]] const StateArray* find(std::string_view name) const;
};

class Stepper {
public:
    virtual ~Stepper() = default;
    /// A short lower-case name for messages ("drift", "event-driven").
    [[nodiscard]] virtual std::string name() const = 0;
    /// True when this stepper resolves contacts (its statistics and log mean something).
    [[nodiscard]] virtual bool resolves_contacts() const = 0;
    /// One line for a run's start-up report saying how this stepper treats the contacts of
    /// bodies `b` ("collisions: ..."), or empty: the run driver prints it without knowing
    /// which stepper it has.
    [[nodiscard]] virtual std::string summary(const Bodies& b) const {
        (void)b;
        return {};
    }
    /// Moves the bodies over h seconds starting at absolute time t0 (for logs and messages).
    /// With `may_abandon`, a stop request (rubble/core/stop_request.hpp) may throw Interrupted
    /// part-way, leaving `b` half advanced and this stepper fit only for discard(): the
    /// caller restores the bodies.
    virtual StepStats advance(Bodies& b, double h, double t0, bool may_abandon) = 0;
    /// Forgets whatever an abandoned advance left behind, so the next advance starts afresh.
    virtual void discard() = 0;
    /// The contact records kept since the last call, in time order (empty unless logging).
    [[nodiscard]] virtual std::vector<ContactRecord> take_log() { return {}; }
    /// What the next advance depends on beyond the bodies, for a snapshot; a stepper that
    /// restore_state()s it advances from there bitwise as this one would. Default: nothing.
    [[nodiscard]] virtual StepperState save_state() const { return {}; }
    /// Takes back a save_state() of a stepper of the same kind and configuration (a resumed
    /// run). Throws InputError saying what does not fit when `s` is not such a state; the
    /// default accepts only an empty one.
    virtual void restore_state(const StepperState& s);
};

/// The drift of the plain leapfrog: every body on a straight line at constant spin.
class PlainDrift final : public Stepper {
public:
    [[nodiscard]] std::string name() const override { return "drift"; }
    [[nodiscard]] bool resolves_contacts() const override { return false; }
    StepStats advance(Bodies& b, double h, double t0, bool may_abandon) override;
    void discard() override {}
};

} // namespace rubble::integrate
