// SPDX-License-Identifier: MIT
#pragma once
// The HDF5 output of a run (layout in docs/output-format.md): the resolved parameters and code
// version, snapshots, the diagnostics series, and a `complete` flag set only when the run ends.
//
// Crash safety: the file is opened for each write and closed right after, so between writes
// it is always a closed, valid HDF5 file whose last snapshot can be read and resumed from.
// Each write first reserves the space it needs and ends with fsync (file_space.hpp), so a full
// disk or a file size limit fails a write before it touches the file, and rows are written
// before the snapshot that follows them (a run killed between the two resumes from the
// snapshot before, and writes those rows again).
//
// After each change to its snapshots (a snapshot written, a resume) the XDMF sidecar RUN.xdmf
// is written again (xdmf_sidecar.hpp), reading only the snapshots it has not yet described. It is
// derived data: a failure to write it is reported to the warning handler and the run goes on.
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "rubble/core/bodies.hpp"
#include "rubble/integrate/diagnostics.hpp"
#include "rubble/integrate/stepper.hpp"
#include "rubble/runfile/shapes_sidecar.hpp"
#include "rubble/runfile/xdmf_sidecar.hpp"
#include "rubble/storage/file_lock.hpp"

namespace rubble::runfile {

inline constexpr std::int64_t output_format_version = 3;
/// Version 2 files (before the spheres table and the principal axes) are read, and resumed,
/// as free spheres; their new snapshots are written in the version 3 layout.
inline constexpr std::int64_t oldest_readable_format_version = 2;

/// Running collision counters, stored with each snapshot so that a run resumed from any
/// snapshot continues them exactly: the totals since the start of the run, and the counts
/// since the last diagnostics row (which may be steps older than the snapshot).
struct CollisionTotals {
    double collisions = 0, overlaps = 0, merges = 0;
    double collisions_since_row = 0, overlaps_since_row = 0, max_overlap_since_row = 0;
};

struct Snapshot {
    Bodies bodies;
    CollisionTotals totals;
    double time = 0.0;      ///< s
    std::int64_t step = 0;  ///< step number at which it was written
    std::int64_t index = 0; ///< position in /snapshots
    /// The stepper's state at that step (its stepper_state subgroup); empty for steppers that
    /// keep none and in files written before states were stored.
    integrate::StepperState stepper_state;
    /// The weight of each body in the decomposition over MPI ranks that the forces at this
    /// step were found in (run/run_ranks.hpp: the tree over ranks); empty when each body
    /// counted as one (serial runs, direct summation, older files).
    std::vector<std::int64_t> decomposition_weight;
};

class RunFile {
public:
    /// Creates `path` (refusing an existing file unless `overwrite`) and writes the header:
    /// format, code version, build, the parameters as TOML and the start time (s).
    static RunFile create(const std::string& path, const std::string& parameters_toml,
                          double start_time, bool overwrite);
    /// Opens an existing rubble output for appending (resume). Throws InputError if it is not
    /// a rubble output or has no snapshot.
    static RunFile open_existing(const std::string& path);

    [[nodiscard]] const std::string& path() const { return path_; }
    /// Step of the last snapshot in the file (-1: none yet).
    [[nodiscard]] std::int64_t last_snapshot_step() const { return last_snapshot_step_; }

    /// Writes every buffered row, then a snapshot (two durable writes, in that order), with
    /// the stepper's state when it keeps one (a resumed run restores it) and the bodies'
    /// decomposition weights when given (Snapshot::decomposition_weight; one per body).
    void write_snapshot(const Bodies& b, double time, std::int64_t step,
                        const CollisionTotals& totals = {},
                        const integrate::StepperState& stepper_state = {},
                        std::span<const std::int64_t> decomposition_weight = {});
    /// Buffers one diagnostics row (written at the next snapshot or flush()).
    void append_diagnostics(const integrate::Diagnostics& d);
    /// Buffers collision records of step `step` for /collisions (written with the next flush).
    void append_collisions(const std::vector<integrate::ContactRecord>& records, std::int64_t step);
    void flush();
    /// Drops snapshots and diagnostics rows written after `step` (an interrupted run's tail
    /// that the resumed run will write again).
    void truncate_after(std::int64_t step);
    /// Starts a continuation: stores the (possibly extended) parameters and clears the
    /// `complete` flag until the continued run reaches its end.
    void begin_continuation(const std::string& parameters_toml);
    /// Sets the `complete` flag (1 when the run reached its end) and the end-of-run summary;
    /// a complete run also records why it ended (`stop_reason`: "end" at its end time,
    /// "settled" when the settling criterion ended it, docs/campaigns.md).
    void mark_complete(bool complete, double energy_error, double angular_momentum_error,
                       const std::string& stop_reason = "end");
    /// Receives the message of a failure to write the XDMF sidecar (once, until a write
    /// succeeds again). Default: a "warning: " line on standard error.
    void set_warning_handler(std::function<void(const std::string&)> handler) {
        warn_ = std::move(handler);
    }
    /// Keeps the shapes sidecar (runfile/shapes_sidecar.hpp) of this run from now on, drawing
    /// `scene`'s walls: brought in line with the file at once, then added to after each
    /// snapshot. A failure to write it is a warning, as for the XDMF sidecar.
    void show_shapes(Scene scene);

private:
    explicit RunFile(std::string path) : path_(std::move(path)), sidecar_(path_) {}
    void refresh_sidecar();
    std::string path_;
    XdmfSidecar sidecar_;
    std::optional<ShapesSidecar> shapes_;
    void refresh_shapes();
    void report_shapes_failure(const std::string& what);
    std::function<void(const std::string&)> warn_;
    bool sidecar_failed_ = false;
    bool shapes_failed_ = false;
    std::vector<integrate::Diagnostics> pending_;
    std::vector<integrate::ContactRecord> pending_collisions_;
    std::vector<std::int64_t> pending_collision_steps_;
    std::int64_t next_snapshot_index_ = 0;
    std::int64_t last_snapshot_step_ = -1;
    storage::FileLock lock_; ///< held while this run may write the file
};

/// Throws InputError unless `path` is a readable rubble output.
void check_rubble_file(const std::string& path);
/// Number of snapshots in a rubble output.
[[nodiscard]] std::int64_t snapshot_count(const std::string& path);
/// Snapshot `index` (negative: counted from the end, -1 the last). Throws InputError.
[[nodiscard]] Snapshot read_snapshot(const std::string& path, std::int64_t index);
/// Throws InputError (naming the snapshot, the body and the field) unless `snap`, read from
/// `path`, holds a state a run could have written: finite numbers, positive masses and radii,
/// a finite time and a step >= 0. What a resumed run requires of its snapshot.
void check_resumable(const Snapshot& snap, const std::string& path);
/// Gives `stepper` the state `state` stored with snapshot `index` of `path` (a resumed run);
/// nothing when it is empty (a stepper that keeps none, or a file written before states were
/// stored: the stepper then starts as in a new run). Throws InputError naming the file and
/// the snapshot's stepper_state group when the state does not fit the stepper.
void restore_stepper_state(integrate::Stepper& stepper, const integrate::StepperState& state,
                           std::int64_t index, const std::string& path);
/// The parameters the run used, as TOML text.
[[nodiscard]] std::string read_parameters_toml(const std::string& path);
/// The whole diagnostics series.
[[nodiscard]] std::vector<integrate::Diagnostics> read_diagnostics(const std::string& path);
/// The collision log (/collisions), in time order, with the step of each record.
[[nodiscard]] std::vector<integrate::ContactRecord>
read_collision_log(const std::string& path, std::vector<std::int64_t>* steps = nullptr);
/// Whether the run that wrote it reached its end.
[[nodiscard]] bool is_complete(const std::string& path);
/// Why a complete run ended: "end" (its end time), "settled", or "" (incomplete, or a file
/// written before stop reasons were recorded).
[[nodiscard]] std::string read_stop_reason(const std::string& path);
/// Start time of the run (s): t = start_time + step * dt.
[[nodiscard]] double read_start_time(const std::string& path);

} // namespace rubble::runfile
