// SPDX-License-Identifier: MIT
#pragma once
// Thin RAII layer over the HDF5 C API, for the storage and run-file layers. Every failure
// throws with the file and object names; HDF5's own error printing is switched off.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <hdf5.h>

namespace rubble::storage::h5 {

/// Owns one hid_t and closes it with the matching H5?close.
class Handle {
public:
    using Closer = herr_t (*)(hid_t);
    Handle() = default;
    Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, H5I_INVALID_HID)), closer_(o.closer_) {}
    Handle& operator=(Handle&& o) noexcept {
        if (this != &o) {
            reset();
            id_ = std::exchange(o.id_, H5I_INVALID_HID);
            closer_ = o.closer_;
        }
        return *this;
    }
    ~Handle() { reset(); }
    [[nodiscard]] hid_t get() const { return id_; }
    [[nodiscard]] bool valid() const { return id_ >= 0; }
    /// Gives up ownership without closing.
    [[nodiscard]] hid_t release() { return std::exchange(id_, H5I_INVALID_HID); }
    void reset() {
        if (id_ >= 0 && closer_) closer_(id_);
        id_ = H5I_INVALID_HID;
    }
    /// Closes now and says whether the close succeeded: closing a dataset writes its cached
    /// chunks, so a write is only known to be done when its dataset closed without error.
    [[nodiscard]] bool close() {
        const hid_t id = release();
        return id < 0 || !closer_ || closer_(id) >= 0;
    }

private:
    hid_t id_ = H5I_INVALID_HID;
    Closer closer_ = nullptr;
};

/// Silences HDF5's automatic error stack printing and its clean-up at exit (once per process):
/// after a failed close HDF5 keeps the file half-open and its exit handler would flush it
/// again and crash, where the operating system's closing of the descriptor is all we need.
void silence_errors();

enum class Mode { read, read_write };
/// Opens an existing file; throws IoError naming the path.
[[nodiscard]] Handle open_file(const std::string& path, Mode mode);
/// Creates a file (truncating when `truncate`); throws IoError naming the path.
[[nodiscard]] Handle create_file(const std::string& path, bool truncate);
/// Opens an existing file for a write session through the undo journal (undo_journal.hpp);
/// `old_size` is the file's length before the session's space was reserved.
[[nodiscard]] Handle open_file_journaled(const std::string& path, std::uint64_t old_size);
/// Closes and checks: an error on close means data may not have reached the disk.
void close_file(Handle& file, const std::string& path);

[[nodiscard]] Handle create_group(hid_t loc, const std::string& name);
[[nodiscard]] Handle open_group(hid_t loc, const std::string& name);
[[nodiscard]] bool exists(hid_t loc, const std::string& name);
/// The names of the links of `group` in name order (the order of /snapshots is time order), in
/// one pass: looking names up by index costs a walk of the group's index per name.
[[nodiscard]] std::vector<std::string> link_names(hid_t group);

void write_attr(hid_t obj, const std::string& name, const std::string& value);
void write_attr(hid_t obj, const std::string& name, double value);
void write_attr(hid_t obj, const std::string& name, std::int64_t value);
[[nodiscard]] bool has_attr(hid_t obj, const std::string& name);
[[nodiscard]] std::string read_attr_string(hid_t obj, const std::string& name);
[[nodiscard]] double read_attr_double(hid_t obj, const std::string& name);
[[nodiscard]] std::int64_t read_attr_int(hid_t obj, const std::string& name);

/// Fixed-size dataset of `rows` x `cols` values (cols = 1: one-dimensional) with `units` and
/// `description` attributes.
void write_dataset(hid_t loc, const std::string& name, const double* data, std::size_t rows,
                   std::size_t cols, const std::string& units, const std::string& description);
void write_dataset(hid_t loc, const std::string& name, const std::int64_t* data, std::size_t rows,
                   const std::string& units, const std::string& description);
void write_dataset(hid_t loc, const std::string& name, const std::int64_t* data, std::size_t rows,
                   std::size_t cols, const std::string& units, const std::string& description);

/// Shape of a dataset: {rows, cols} (cols = 1 for one-dimensional).
[[nodiscard]] std::pair<std::size_t, std::size_t> dataset_shape(hid_t loc, const std::string& name);
/// Checks the open dataset `set`'s storage before libhdf5 reads it: each chunk's size and place
/// in the chunk index, a compact dataset's stored size, a contiguous block inside the file.
/// Throws IoError naming it (`name`). read_doubles and read_ints check first.
void check_dataset_storage(hid_t set, const std::string& name);
[[nodiscard]] std::vector<double> read_doubles(hid_t loc, const std::string& name);
[[nodiscard]] std::vector<std::int64_t> read_ints(hid_t loc, const std::string& name);

/// Extendible (chunked, unlimited rows) dataset of `cols` doubles or int64 per row.
void create_series(hid_t loc, const std::string& name, std::size_t cols, bool integer,
                   const std::string& units, const std::string& description);
/// Appends `rows` rows; data holds rows * cols values of the series' type.
void append_rows(hid_t loc, const std::string& name, const void* data, std::size_t rows,
                 bool integer);
/// Keeps the first `rows` rows.
void truncate_rows(hid_t loc, const std::string& name, std::size_t rows);

} // namespace rubble::storage::h5
