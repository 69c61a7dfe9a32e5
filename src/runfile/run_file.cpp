// SPDX-License-Identifier: MIT
#include "rubble/runfile/run_file.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>

#include "hull_shapes_io.hpp"
#include "rubble/core/error.hpp"
#include "rubble/storage/file_space.hpp"
#include "rubble/storage/hdf5_util.hpp"
#include "rubble/storage/structure_check.hpp"
#include "rubble/storage/undo_journal.hpp"
#include "rubble/version.hpp"
#include "stepper_state_io.hpp"
#include "table_io.hpp"

namespace rubble::runfile {

namespace h5 = storage::h5;
namespace {

// A snapshot's per-body weights in the decomposition over ranks (Snapshot::decomposition_weight).
const char* const decomposition_weight_name = "decomposition_weight";

std::string snapshot_name(std::int64_t index) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%06lld", static_cast<long long>(index));
    return buf;
}

using integrate::Diagnostics;

// One diagnostics series: its dataset and how to read a row's value from Diagnostics.
struct SeriesSpec {
    const char* name;
    const char* units;
    const char* description;
    double Diagnostics::*scalar; ///< one column, or
    Vec3 Diagnostics::*vector;   ///< three columns (exactly one of the two is set)
};

// The diagnostics series, in file order. `step` is an integer series of its own.
const SeriesSpec series_specs[] = {
    {"time", "s", "simulated time", &Diagnostics::time, nullptr},
    {"kinetic_translational", "J", "sum of m v^2 / 2", &Diagnostics::kinetic_translational,
     nullptr},
    {"kinetic_rotational", "J", "sum of w.I.w / 2", &Diagnostics::kinetic_rotational, nullptr},
    {"potential", "J", "gravitational potential energy, sum of m phi / 2", &Diagnostics::potential,
     nullptr},
    {"total_energy", "J", "kinetic + potential", &Diagnostics::total_energy, nullptr},
    {"momentum", "kg m/s", "total linear momentum", nullptr, &Diagnostics::momentum},
    {"angular_momentum", "kg m^2/s", "orbital + spin angular momentum about the origin", nullptr,
     &Diagnostics::angular_momentum},
    {"angular_momentum_com", "kg m^2/s", "orbital + spin angular momentum about the centre of mass",
     nullptr, &Diagnostics::angular_momentum_com},
    {"com_position", "m", "centre-of-mass position", nullptr, &Diagnostics::com_position},
    {"com_velocity", "m/s", "centre-of-mass velocity", nullptr, &Diagnostics::com_velocity},
    {"angular_momentum_scale", "kg m^2/s",
     "sum of m |r - R| |v - V| + |L_spin|: the reference for angular momentum errors",
     &Diagnostics::angular_momentum_scale, nullptr},
    {"collisions", "", "collisions resolved since the previous row", &Diagnostics::collisions,
     nullptr},
    {"collisions_total", "", "collisions resolved since the start of the run",
     &Diagnostics::collisions_total, nullptr},
    {"overlaps", "", "overlapping pairs found at drift starts since the previous row",
     &Diagnostics::overlaps, nullptr},
    {"overlaps_total", "", "overlapping pairs found since the start of the run",
     &Diagnostics::overlaps_total, nullptr},
    {"merges_total", "", "merges since the start of the run", &Diagnostics::merges_total, nullptr},
    {"max_overlap", "", "largest overlap depth / (R1 + R2) since the previous row",
     &Diagnostics::max_overlap, nullptr},
};

// The real-valued columns of the collision log.
struct CollisionColumn {
    const char* name;
    const char* units;
    const char* description;
    double integrate::ContactRecord::*field;
};
const CollisionColumn collision_columns[] = {
    {"time", "s", "time of contact", &integrate::ContactRecord::time},
    {"normal_speed", "m/s", "normal speed of approach |u.n| before the collision",
     &integrate::ContactRecord::normal_speed},
    {"tangential_speed", "m/s", "tangential speed of the contact points before the collision",
     &integrate::ContactRecord::tangential_speed},
    {"impact_parameter", "m", "distance between the lines of motion of the two centres",
     &integrate::ContactRecord::impact_parameter},
};

// A journal left by a run that died in the middle of a write: if no run holds the file's lock
// (a live run's session is in progress otherwise), the write is undone before reading.
void recover_interrupted_write(const std::string& path) {
    if (!std::filesystem::exists(storage::journal_path(path))) return;
    const auto lock = storage::FileLock::try_acquire(path);
    if (lock.held()) storage::roll_back_journal(path);
}

h5::Handle open_rubble(const std::string& path, h5::Mode mode) {
    if (!std::filesystem::exists(path)) throw InputError("'" + path + "': no such file");
    recover_interrupted_write(path);
    storage::check_structure(path); // before libhdf5 reads it here (structure_check.hpp)
    h5::Handle file;
    try {
        file = h5::open_file(path, mode);
    } catch (const IoError&) {
        throw InputError("'" + path + "' is not a readable HDF5 file");
    }
    if (!h5::has_attr(file.get(), "format") ||
        h5::read_attr_string(file.get(), "format") != "rubble") {
        throw InputError("'" + path + "' is not a rubble output (no format = \"rubble\")");
    }
    const std::int64_t version = h5::read_attr_int(file.get(), "format_version");
    if (version < oldest_readable_format_version || version > output_format_version) {
        throw InputError("'" + path + "' has output format version " + std::to_string(version) +
                         "; this rubble reads versions " +
                         std::to_string(oldest_readable_format_version) + " to " +
                         std::to_string(output_format_version));
    }
    for (const char* group : {"parameters", "snapshots", "diagnostics", "collisions"}) {
        if (!h5::exists(file.get(), group))
            throw InputError("'" + path + "' is incomplete: no /" + std::string(group));
    }
    return file;
}

// Puts back the file as it was before a failed session: the old bytes the journal saved, and
// its old length (space reserved or objects written past it are not referenced by anything).
void undo_session(const std::string& path, std::uint64_t old_size, const std::string& failure) {
    try {
        storage::roll_back_journal(path);
        std::filesystem::resize_file(path, old_size);
    } catch (const std::exception& e) {
        throw IoError(failure + "; undoing the failed write failed too (" + e.what() +
                      "): the next rubble run --resume will try again");
    }
}

// Bytes that appending `rows` rows of `cols` values to chunked series can allocate: whole
// chunks of 1024 rows (hdf5_util.cpp), one more where the rows end part-way into a chunk (the
// chunk they start in, if partly filled, is already in the file).
std::uint64_t series_bytes(std::size_t rows, std::size_t cols) {
    constexpr std::uint64_t chunk_rows = 1024;
    return (rows / chunk_rows + 1) * chunk_rows * cols * sizeof(double);
}

// Numbers in one row of a table (a vector is 3, a quaternion 4).
template <class Table> std::uint64_t values_per_row() {
    std::uint64_t values = 0;
    for_each_field<Table>([&](const auto& field) {
        using T = typename std::decay_t<decltype(field)>::value_type;
        values += std::is_same_v<T, Vec3> ? 3 : std::is_same_v<T, Quat> ? 4 : 1;
    });
    return values;
}

// Bytes of one snapshot's per-body and per-sphere datasets.
std::uint64_t snapshot_bytes(const Bodies& b) {
    // The hull shapes are written with the first snapshot: at most 3 values per vertex and per
    // triangle, a triangulation having 2 V - 4 triangles.
    std::size_t shape_values = 0;
    for (const shapes::Polyhedron& p : b.hull_shapes())
        shape_values += 3 * (p.hull.vertices.size() + p.hull.faces.size()) + 3;
    return (b.size() * values_per_row<Bodies>() + b.spheres.size() * values_per_row<Spheres>() +
            b.hulls.size() * values_per_row<Hulls>() + shape_values) *
           sizeof(double);
}

constexpr std::size_t collision_values_per_row =
    1 + 2 + sizeof(collision_columns) / sizeof(collision_columns[0]);
constexpr std::size_t diagnostics_values_per_row = 1 + 3 * std::size(series_specs);

// One write session: reserve the space it can need, write through the undo journal, close
// (checked), make it durable and drop the journal. A session that fails is undone at once, so
// the file is exactly what it was before (file_space.hpp and undo_journal.hpp say why).
template <class Write>
void write_session(const std::string& path, std::uint64_t data_bytes, std::uint64_t objects,
                   Write&& write) {
    const std::uint64_t old_size = std::filesystem::file_size(path);
    storage::reserve_space(path, data_bytes + storage::metadata_allowance(objects));
    try {
        h5::Handle file = h5::open_file_journaled(path, old_size);
        write(file.get());
        h5::close_file(file, path);
    } catch (const std::exception& e) {
        undo_session(path, old_size, e.what());
        throw;
    }
    storage::commit_journal(path);
}

void append_collision_rows(hid_t f, const std::vector<integrate::ContactRecord>& records,
                           const std::vector<std::int64_t>& record_steps) {
    h5::Handle log = h5::open_group(f, "collisions");
    const std::size_t rows = records.size();
    h5::append_rows(log.get(), "step", record_steps.data(), rows, true);
    std::vector<std::int64_t> ids;
    for (const auto& r : records) {
        ids.push_back(r.id1);
        ids.push_back(r.id2);
    }
    h5::append_rows(log.get(), "id", ids.data(), rows, true);
    std::vector<double> column;
    for (const auto& c : collision_columns) {
        column.clear();
        for (const auto& r : records)
            column.push_back(r.*c.field);
        h5::append_rows(log.get(), c.name, column.data(), rows, false);
    }
}

void append_diagnostics_rows(hid_t f, const std::vector<Diagnostics>& rows_to_add) {
    h5::Handle diag = h5::open_group(f, "diagnostics");
    const std::size_t rows = rows_to_add.size();
    std::vector<std::int64_t> steps;
    for (const auto& d : rows_to_add)
        steps.push_back(d.step);
    h5::append_rows(diag.get(), "step", steps.data(), rows, true);
    std::vector<double> column;
    for (const auto& s : series_specs) {
        column.clear();
        for (const auto& d : rows_to_add) {
            if (s.scalar) {
                column.push_back(d.*s.scalar);
            } else {
                const Vec3& v = d.*s.vector;
                column.insert(column.end(), v.data(), v.data() + 3);
            }
        }
        h5::append_rows(diag.get(), s.name, column.data(), rows, false);
    }
}

} // namespace

RunFile RunFile::create(const std::string& path, const std::string& parameters_toml,
                        double start_time, bool overwrite) {
    if (!overwrite && std::filesystem::exists(path)) {
        throw InputError("output.file = \"" + path +
                         "\": file exists; set output.overwrite = true or choose another name");
    }
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    // An existing output is locked before it is replaced: another run may be writing it.
    storage::FileLock lock;
    if (std::filesystem::exists(path)) lock = storage::FileLock::acquire(path, "output.file");
    h5::Handle file = h5::create_file(path, true);
    const hid_t f = file.get();
    h5::write_attr(f, "format", std::string("rubble"));
    h5::write_attr(f, "format_version", output_format_version);
    h5::write_attr(f, "code_version", std::string(version));
    h5::write_attr(f, "build",
                   std::string(build_compiler) + ", " + build_type +
                       (build_cuda ? ", CUDA" : ", no CUDA"));
    h5::write_attr(f, "complete", std::int64_t{0});
    h5::write_attr(f, "start_time", start_time);
    {
        h5::Handle params = h5::create_group(f, "parameters");
        h5::write_attr(params.get(), "toml", parameters_toml);
    }
    h5::create_group(f, "snapshots").reset();
    {
        h5::Handle diag = h5::create_group(f, "diagnostics");
        h5::create_series(diag.get(), "step", 1, true, "", "step number");
        for (const auto& s : series_specs)
            h5::create_series(diag.get(), s.name, s.scalar ? 1 : 3, false, s.units, s.description);
    }
    {
        h5::Handle log = h5::create_group(f, "collisions");
        h5::create_series(log.get(), "step", 1, true, "", "step in which the collision happened");
        h5::create_series(log.get(), "id", 2, true, "", "ids of the two bodies, smaller first");
        for (const auto& s : collision_columns)
            h5::create_series(log.get(), s.name, 1, false, s.units, s.description);
    }
    h5::close_file(file, path);
    storage::make_durable(path, true);
    remove_shapes_sidecar(path); // an earlier run's, at this path
    RunFile run(path);
    run.lock_ = lock.held() ? std::move(lock) : storage::FileLock::acquire(path, "output.file");
    return run;
}

RunFile RunFile::open_existing(const std::string& path) {
    RunFile run(path);
    run.lock_ = storage::FileLock::acquire(path, "--resume");
    storage::roll_back_journal(path); // a write the run that stopped left half done
    run.next_snapshot_index_ = snapshot_count(path);
    if (run.next_snapshot_index_ == 0)
        throw InputError("'" + path + "' has no snapshot to resume from");
    run.refresh_sidecar(); // one from an older rubble, or damaged, or none
    return run;
}

void RunFile::write_snapshot(const Bodies& b, double time, std::int64_t step,
                             const CollisionTotals& totals,
                             const integrate::StepperState& stepper_state,
                             std::span<const std::int64_t> decomposition_weight) {
    if (!decomposition_weight.empty() && decomposition_weight.size() != b.size())
        throw std::logic_error("write_snapshot: " + std::to_string(decomposition_weight.size()) +
                               " decomposition weights for " + std::to_string(b.size()) +
                               " bodies");
    // The rows up to this snapshot are made durable first, in a write of their own: a run
    // killed between the two writes resumes from the previous snapshot, and drops (then writes
    // again) the rows past it. The other order would leave a snapshot whose rows are lost.
    flush();
    // The stepper's state, when it keeps one: a group and its arrays.
    const std::uint64_t bytes =
        snapshot_bytes(b) + stepper_state_bytes(stepper_state) + 8 * decomposition_weight.size();
    const std::uint64_t objects =
        33 + (stepper_state.empty() ? 0 : 1 + stepper_state.arrays.size());
    write_session(path_, bytes, objects, [&](hid_t f) {
        h5::Handle snaps = h5::open_group(f, "snapshots");
        h5::Handle g = h5::create_group(snaps.get(), snapshot_name(next_snapshot_index_));
        const hid_t s = g.get();
        h5::write_attr(s, "time", time);
        h5::write_attr(s, "step", step);
        h5::write_attr(s, "collisions_total", totals.collisions);
        h5::write_attr(s, "overlaps_total", totals.overlaps);
        h5::write_attr(s, "merges_total", totals.merges);
        h5::write_attr(s, "collisions_since_row", totals.collisions_since_row);
        h5::write_attr(s, "overlaps_since_row", totals.overlaps_since_row);
        h5::write_attr(s, "max_overlap_since_row", totals.max_overlap_since_row);
        write_table(s, b);
        h5::Handle spheres = h5::create_group(s, "spheres");
        write_table(spheres.get(), b.spheres);
        if (b.hulls.size() > 0) {
            h5::Handle hulls = h5::create_group(s, "hulls");
            write_table(hulls.get(), b.hulls);
            if (!h5::exists(f, "hull_shapes")) write_hull_shapes(f, b.hull_shapes());
        }
        write_stepper_state(s, stepper_state);
        if (!decomposition_weight.empty())
            h5::write_dataset(s, decomposition_weight_name, decomposition_weight.data(),
                              decomposition_weight.size(), "",
                              "weight of the body in the decomposition over MPI ranks for the "
                              "forces at this step (its tree interactions)");
    });
    ++next_snapshot_index_;
    last_snapshot_step_ = step;
    refresh_sidecar();
    if (shapes_ && shapes_failed_) {
        refresh_shapes(); // from the file: what the failed writes left out too
    } else if (shapes_) {
        try {
            shapes_->add(next_snapshot_index_ - 1, b, time, step);
        } catch (const std::exception& e) { // derived data: never the run's end
            report_shapes_failure(e.what());
        }
    }
}

void RunFile::show_shapes(Scene scene) {
    shapes_.emplace(path_, std::move(scene));
    refresh_shapes();
}

void RunFile::refresh_shapes() {
    if (!shapes_) return;
    try {
        shapes_->refresh();
        shapes_failed_ = false;
    } catch (const std::exception& e) { // derived data: never the run's end
        report_shapes_failure(e.what());
    }
}

void RunFile::report_shapes_failure(const std::string& what) {
    const bool said = shapes_failed_;
    shapes_failed_ = true; // until a refresh from the file succeeds
    if (said) return;
    const std::string message = what +
                                "; the run goes on without its shapes sidecar (rubble xdmf " +
                                path_ + " writes it later)";
    if (warn_)
        warn_(message);
    else
        std::cerr << "warning: " << message << "\n";
}

void RunFile::append_diagnostics(const integrate::Diagnostics& d) {
    pending_.push_back(d);
}

void RunFile::append_collisions(const std::vector<integrate::ContactRecord>& records,
                                std::int64_t step) {
    pending_collisions_.insert(pending_collisions_.end(), records.begin(), records.end());
    pending_collision_steps_.insert(pending_collision_steps_.end(), records.size(), step);
}

void RunFile::flush() {
    if (pending_.empty() && pending_collisions_.empty()) return;
    const std::uint64_t bytes = series_bytes(pending_collisions_.size(), collision_values_per_row) +
                                series_bytes(pending_.size(), diagnostics_values_per_row);
    write_session(path_, bytes, 32, [&](hid_t f) {
        if (!pending_collisions_.empty())
            append_collision_rows(f, pending_collisions_, pending_collision_steps_);
        if (!pending_.empty()) append_diagnostics_rows(f, pending_);
    });
    pending_collisions_.clear();
    pending_collision_steps_.clear();
    pending_.clear();
}

void RunFile::truncate_after(std::int64_t step) {
    pending_.clear();
    pending_collisions_.clear();
    pending_collision_steps_.clear();
    write_session(path_, 0, 64, [&](hid_t f) {
        h5::Handle snaps = h5::open_group(f, "snapshots");
        while (next_snapshot_index_ > 0) {
            const std::string last = snapshot_name(next_snapshot_index_ - 1);
            h5::Handle g = h5::open_group(snaps.get(), last);
            const std::int64_t last_step = h5::read_attr_int(g.get(), "step");
            if (last_step <= step) {
                last_snapshot_step_ = last_step;
                break;
            }
            g.reset();
            if (H5Ldelete(snaps.get(), last.c_str(), H5P_DEFAULT) < 0)
                throw IoError("'" + path_ + "': cannot delete snapshot " + last);
            --next_snapshot_index_;
        }
        h5::Handle diag = h5::open_group(f, "diagnostics");
        const std::vector<std::int64_t> steps = h5::read_ints(diag.get(), "step");
        std::size_t keep = 0;
        while (keep < steps.size() && steps[keep] <= step)
            ++keep;
        h5::truncate_rows(diag.get(), "step", keep);
        for (const auto& s : series_specs)
            h5::truncate_rows(diag.get(), s.name, keep);
        h5::Handle log = h5::open_group(f, "collisions");
        const std::vector<std::int64_t> log_steps = h5::read_ints(log.get(), "step");
        std::size_t keep_log = 0;
        while (keep_log < log_steps.size() && log_steps[keep_log] <= step)
            ++keep_log;
        h5::truncate_rows(log.get(), "step", keep_log);
        h5::truncate_rows(log.get(), "id", keep_log);
        for (const auto& c : collision_columns)
            h5::truncate_rows(log.get(), c.name, keep_log);
    });
    sidecar_.forget(); // the next snapshots take the names of those removed
    refresh_sidecar();
    refresh_shapes();
}

void RunFile::begin_continuation(const std::string& parameters_toml) {
    write_session(path_, parameters_toml.size(), 2, [&](hid_t f) {
        h5::write_attr(f, "complete", std::int64_t{0});
        h5::Handle params = h5::open_group(f, "parameters");
        h5::write_attr(params.get(), "toml", parameters_toml);
    });
}

void RunFile::mark_complete(bool complete, double energy_error, double angular_momentum_error,
                            const std::string& stop_reason) {
    flush();
    write_session(path_, stop_reason.size(), 4, [&](hid_t f) {
        h5::write_attr(f, "complete", std::int64_t{complete ? 1 : 0});
        h5::write_attr(f, "stop_reason", complete ? stop_reason : std::string());
        h5::write_attr(f, "relative_energy_error", energy_error);
        h5::write_attr(f, "relative_angular_momentum_error", angular_momentum_error);
    });
}

// The sidecar is derived from the file, which is already durable when this runs: a resume or
// `rubble xdmf` can always write it again, so failing to write it (an unwritable directory, a
// full disk) stops nothing. A full disk stops the run at its next HDF5 write anyway, before
// that write touches the file.
void RunFile::refresh_sidecar() {
    try {
        sidecar_.write();
        sidecar_failed_ = false;
    } catch (const IoError& e) {
        if (sidecar_failed_) return;
        sidecar_failed_ = true;
        const std::string message = std::string(e.what()) +
                                    "; the run goes on without it (rubble xdmf " + path_ +
                                    " writes it later)";
        if (warn_)
            warn_(message);
        else
            std::cerr << "warning: " << message << "\n";
    }
}

void check_rubble_file(const std::string& path) {
    h5::Handle file = open_rubble(path, h5::Mode::read);
}

std::int64_t snapshot_count(const std::string& path) {
    h5::Handle file = open_rubble(path, h5::Mode::read);
    h5::Handle snaps = h5::open_group(file.get(), "snapshots");
    H5G_info_t info;
    if (H5Gget_info(snaps.get(), &info) < 0) throw IoError("'" + path + "': H5Gget_info failed");
    return static_cast<std::int64_t>(info.nlinks);
}

Snapshot read_snapshot(const std::string& path, std::int64_t index) {
    const std::int64_t count = snapshot_count(path);
    const std::int64_t i = index < 0 ? count + index : index;
    if (i < 0 || i >= count) {
        throw InputError("'" + path + "': snapshot " + std::to_string(index) +
                         " does not exist (the file has " + std::to_string(count) + ")");
    }
    h5::Handle file = open_rubble(path, h5::Mode::read);
    const std::string name = "snapshots/" + snapshot_name(i);
    const std::string where = "'" + path + "':/" + name;
    if (!h5::exists(file.get(), "snapshots") || !h5::exists(file.get(), name))
        throw InputError(where + " is missing");
    h5::Handle g = h5::open_group(file.get(), name);
    const hid_t s = g.get();
    Snapshot snap;
    snap.index = i;
    try {
        snap.time = h5::read_attr_double(s, "time");
        snap.step = h5::read_attr_int(s, "step");
        // Absent in files written before the totals were stored: zero.
        const auto total = [&](const char* attr) {
            return h5::has_attr(s, attr) ? h5::read_attr_double(s, attr) : 0.0;
        };
        snap.totals = {total("collisions_total"),   total("overlaps_total"),
                       total("merges_total"),       total("collisions_since_row"),
                       total("overlaps_since_row"), total("max_overlap_since_row")};
        // Files of format version 2 predate the principal axes, the free path and the
        // spheres table: their bodies are free spheres, each on its principal axes.
        Bodies& b = snap.bodies;
        read_table(s, b, where, [](const char* field) {
            return field == std::string("principal_axes") || field == std::string("free_path");
        });
        if (h5::exists(s, "spheres")) {
            h5::Handle spheres = h5::open_group(s, "spheres");
            read_table(spheres.get(), b.spheres, where + "/spheres",
                       [](const char*) { return false; });
        } else {
            make_free_spheres(b);
        }
        if (h5::exists(s, "hulls")) {
            h5::Handle hulls = h5::open_group(s, "hulls");
            read_table(hulls.get(), b.hulls, where + "/hulls", [](const char*) { return false; });
            b.set_hull_shapes(read_hull_shapes(file.get(), "'" + path + "'"));
        }
        snap.stepper_state = read_stepper_state(s, where);
        if (h5::exists(s, decomposition_weight_name)) {
            snap.decomposition_weight = h5::read_ints(s, decomposition_weight_name);
            if (snap.decomposition_weight.size() != b.size())
                throw InputError(where + "/" + decomposition_weight_name + " has " +
                                 std::to_string(snap.decomposition_weight.size()) +
                                 " rows, not one per body (" + std::to_string(b.size()) + ")");
            for (const std::int64_t w : snap.decomposition_weight)
                if (w < 0)
                    throw InputError(where + "/" + decomposition_weight_name +
                                     " holds a negative weight (" + std::to_string(w) + ")");
        }
    } catch (const IoError& e) {
        throw InputError(where + ": " + e.what());
    }
    try {
        snap.bodies.check_consistent();
    } catch (const std::logic_error& e) {
        throw InputError(where + ": " + e.what());
    }
    return snap;
}

void restore_stepper_state(integrate::Stepper& stepper, const integrate::StepperState& state,
                           std::int64_t index, const std::string& path) {
    if (state.empty()) return;
    try {
        stepper.restore_state(state);
    } catch (const InputError& e) {
        throw InputError("'" + path + "':/snapshots/" + snapshot_name(index) + "/" +
                         stepper_state_group + ": " + e.what());
    }
}

std::string read_parameters_toml(const std::string& path) {
    h5::Handle file = open_rubble(path, h5::Mode::read);
    h5::Handle params = h5::open_group(file.get(), "parameters");
    return h5::read_attr_string(params.get(), "toml");
}

std::vector<integrate::Diagnostics> read_diagnostics(const std::string& path) {
    h5::Handle file = open_rubble(path, h5::Mode::read);
    h5::Handle diag = h5::open_group(file.get(), "diagnostics");
    const auto steps = h5::read_ints(diag.get(), "step");
    std::vector<Diagnostics> out(steps.size());
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i].step = steps[i];
    for (const auto& s : series_specs) {
        const std::vector<double> column = h5::read_doubles(diag.get(), s.name);
        const std::size_t width = s.scalar ? 1 : 3;
        if (column.size() != width * out.size())
            throw InputError("'" + path + "':/diagnostics/" + s.name + " has " +
                             std::to_string(column.size() / width) + " rows, /step has " +
                             std::to_string(out.size()));
        for (std::size_t i = 0; i < out.size(); ++i) {
            if (s.scalar)
                out[i].*s.scalar = column[i];
            else
                out[i].*s.vector = Vec3(column[3 * i], column[3 * i + 1], column[3 * i + 2]);
        }
    }
    return out;
}

std::vector<integrate::ContactRecord> read_collision_log(const std::string& path,
                                                         std::vector<std::int64_t>* steps) {
    h5::Handle file = open_rubble(path, h5::Mode::read);
    h5::Handle log = h5::open_group(file.get(), "collisions");
    const std::vector<std::int64_t> step = h5::read_ints(log.get(), "step");
    const std::vector<std::int64_t> ids = h5::read_ints(log.get(), "id");
    std::vector<integrate::ContactRecord> out(step.size());
    if (ids.size() != 2 * out.size())
        throw InputError("'" + path + "':/collisions/id does not match /collisions/step");
    for (std::size_t i = 0; i < out.size(); ++i) {
        out[i].id1 = ids[2 * i];
        out[i].id2 = ids[2 * i + 1];
    }
    for (const auto& c : collision_columns) {
        const std::vector<double> column = h5::read_doubles(log.get(), c.name);
        if (column.size() != out.size())
            throw InputError("'" + path + "':/collisions/" + c.name +
                             " does not match /collisions/step");
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i].*c.field = column[i];
    }
    if (steps) *steps = step;
    return out;
}

void check_resumable(const Snapshot& snap, const std::string& path) {
    const std::string where = "'" + path + "':/snapshots/" + snapshot_name(snap.index);
    if (!std::isfinite(snap.time) || snap.step < 0)
        throw InputError(where + ": time = " + std::to_string(snap.time) +
                         ", step = " + std::to_string(snap.step) + " are not those of a snapshot");
    const Bodies& b = snap.bodies;
    if (const auto bad = first_non_finite(b)) {
        throw InputError(where + ": body id " + std::to_string(b.id[bad->index]) + " has a " +
                         "non-finite " + bad->field +
                         " (a damaged file, or a run that went "
                         "wrong before this snapshot)");
    }
    for (std::size_t i = 0; i < b.size(); ++i) {
        if (!(b.mass[i] > 0.0) || !(b.radius[i] > 0.0))
            throw InputError(where + ": body id " + std::to_string(b.id[i]) + " has mass " +
                             std::to_string(b.mass[i]) + " kg and radius " +
                             std::to_string(b.radius[i]) + " m (both must be > 0)");
    }
}

bool is_complete(const std::string& path) {
    h5::Handle file = open_rubble(path, h5::Mode::read);
    return h5::read_attr_int(file.get(), "complete") == 1;
}

std::string read_stop_reason(const std::string& path) {
    h5::Handle file = open_rubble(path, h5::Mode::read);
    if (h5::read_attr_int(file.get(), "complete") != 1) return "";
    return h5::has_attr(file.get(), "stop_reason") ? h5::read_attr_string(file.get(), "stop_reason")
                                                   : std::string();
}

double read_start_time(const std::string& path) {
    h5::Handle file = open_rubble(path, h5::Mode::read);
    return h5::read_attr_double(file.get(), "start_time");
}

} // namespace rubble::runfile
