// SPDX-License-Identifier: MIT
#include "rubble/storage/hdf5_util.hpp"

#include <array>
#include <mutex>

#include "rubble/core/error.hpp"
#include "rubble/storage/undo_journal.hpp"

namespace rubble::storage::h5 {
namespace {

void check(herr_t status, const std::string& what) {
    if (status < 0) throw IoError("HDF5: " + what + " failed");
}

hid_t checked(hid_t id, const std::string& what) {
    if (id < 0) throw IoError("HDF5: " + what + " failed");
    return id;
}

Handle dataspace(std::size_t rows, std::size_t cols) {
    const std::array<hsize_t, 2> dims{rows, cols};
    return {checked(H5Screate_simple(cols == 1 ? 1 : 2, dims.data(), nullptr), "H5Screate"),
            H5Sclose};
}

Handle string_type() {
    Handle t(checked(H5Tcopy(H5T_C_S1), "H5Tcopy"), H5Tclose);
    check(H5Tset_size(t.get(), H5T_VARIABLE), "H5Tset_size");
    check(H5Tset_cset(t.get(), H5T_CSET_UTF8), "H5Tset_cset");
    return t;
}

// Creation properties of groups and datasets without HDF5's modification times (on by default),
// so that the same run writes the same bytes: outputs can be compared with cmp, and the HDF5
// reader fuzz test damages the same file on every machine.
Handle untimed(hid_t property_class) {
    Handle props(checked(H5Pcreate(property_class), "H5Pcreate"), H5Pclose);
    check(H5Pset_obj_track_times(props.get(), false), "H5Pset_obj_track_times");
    return props;
}

Handle open_attr(hid_t obj, const std::string& name) {
    return {checked(H5Aopen(obj, name.c_str(), H5P_DEFAULT), "opening attribute " + name),
            H5Aclose};
}

Handle open_dataset(hid_t loc, const std::string& name) {
    return {checked(H5Dopen2(loc, name.c_str(), H5P_DEFAULT), "opening dataset " + name), H5Dclose};
}

void label(hid_t obj, const std::string& units, const std::string& description) {
    write_attr(obj, "units", units);
    write_attr(obj, "description", description);
}

} // namespace

void silence_errors() {
    static std::once_flag once;
    std::call_once(once, [] {
        H5dont_atexit();
        H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    });
}

// File access without HDF5's own file locks: with them, anyone reading the output while the
// run goes on (h5py, the analysis, a test) would make the run's next write fail. A run holds
// its own lock against a second writer instead (FileLock, file_space.hpp).
Handle unlocked_access() {
    Handle fapl(checked(H5Pcreate(H5P_FILE_ACCESS), "H5Pcreate"), H5Pclose);
    check(H5Pset_file_locking(fapl.get(), false, true), "H5Pset_file_locking");
    return fapl;
}

Handle open_file(const std::string& path, Mode mode) {
    silence_errors();
    const Handle fapl = unlocked_access();
    const hid_t id =
        H5Fopen(path.c_str(), mode == Mode::read ? H5F_ACC_RDONLY : H5F_ACC_RDWR, fapl.get());
    if (id < 0) throw IoError("cannot open HDF5 file '" + path + "'");
    return {id, H5Fclose};
}

Handle open_file_journaled(const std::string& path, std::uint64_t old_size) {
    silence_errors();
    const Handle fapl(journaled_access(old_size), H5Pclose);
    const hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDWR, fapl.get());
    if (id < 0) throw IoError("cannot open HDF5 file '" + path + "' for writing");
    return {id, H5Fclose};
}

Handle create_file(const std::string& path, bool truncate) {
    silence_errors();
    const Handle fapl = unlocked_access();
    const hid_t id =
        H5Fcreate(path.c_str(), truncate ? H5F_ACC_TRUNC : H5F_ACC_EXCL, H5P_DEFAULT, fapl.get());
    if (id < 0) throw IoError("cannot create HDF5 file '" + path + "'");
    return {id, H5Fclose};
}

void close_file(Handle& file, const std::string& path) {
    if (!file.valid()) return;
    const hid_t id = file.release(); // close once, here, and check the result
    if (H5Fclose(id) < 0) throw IoError("closing HDF5 file '" + path + "' failed");
}

Handle create_group(hid_t loc, const std::string& name) {
    const Handle props = untimed(H5P_GROUP_CREATE);
    return {checked(H5Gcreate2(loc, name.c_str(), H5P_DEFAULT, props.get(), H5P_DEFAULT),
                    "creating group " + name),
            H5Gclose};
}

Handle open_group(hid_t loc, const std::string& name) {
    return {checked(H5Gopen2(loc, name.c_str(), H5P_DEFAULT), "opening group " + name), H5Gclose};
}

bool exists(hid_t loc, const std::string& name) {
    return H5Lexists(loc, name.c_str(), H5P_DEFAULT) > 0;
}

std::vector<std::string> link_names(hid_t group) {
    std::vector<std::string> names;
    // H5Literate and H5L_info_t name the same API version in HDF5 1.10 and 1.12+.
    const auto collect = [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
        static_cast<std::vector<std::string>*>(out)->emplace_back(name);
        return 0;
    };
    hsize_t index = 0;
    if (H5Literate(group, H5_INDEX_NAME, H5_ITER_INC, &index, collect, &names) < 0)
        throw IoError("HDF5: H5Literate failed");
    return names;
}

void write_attr(hid_t obj, const std::string& name, const std::string& value) {
    if (has_attr(obj, name)) check(H5Adelete(obj, name.c_str()), "deleting attribute " + name);
    Handle type = string_type();
    Handle space(checked(H5Screate(H5S_SCALAR), "H5Screate"), H5Sclose);
    Handle attr(
        checked(H5Acreate2(obj, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                "creating attribute " + name),
        H5Aclose);
    const char* text = value.c_str();
    check(H5Awrite(attr.get(), type.get(), &text), "writing attribute " + name);
}

template <class T>
static void write_scalar_attr(hid_t obj, const std::string& name, hid_t file_type, hid_t mem_type,
                              T value) {
    if (has_attr(obj, name)) check(H5Adelete(obj, name.c_str()), "deleting attribute " + name);
    Handle space(checked(H5Screate(H5S_SCALAR), "H5Screate"), H5Sclose);
    Handle attr(
        checked(H5Acreate2(obj, name.c_str(), file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                "creating attribute " + name),
        H5Aclose);
    check(H5Awrite(attr.get(), mem_type, &value), "writing attribute " + name);
}

void write_attr(hid_t obj, const std::string& name, double value) {
    write_scalar_attr(obj, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, value);
}

void write_attr(hid_t obj, const std::string& name, std::int64_t value) {
    write_scalar_attr(obj, name, H5T_STD_I64LE, H5T_NATIVE_INT64, value);
}

bool has_attr(hid_t obj, const std::string& name) {
    return H5Aexists(obj, name.c_str()) > 0;
}

std::string read_attr_string(hid_t obj, const std::string& name) {
    Handle attr = open_attr(obj, name);
    Handle type = string_type();
    char* text = nullptr;
    check(H5Aread(attr.get(), type.get(), &text), "reading attribute " + name);
    std::string value = text ? text : "";
    H5free_memory(text);
    return value;
}

double read_attr_double(hid_t obj, const std::string& name) {
    Handle attr = open_attr(obj, name);
    double v = 0.0;
    check(H5Aread(attr.get(), H5T_NATIVE_DOUBLE, &v), "reading attribute " + name);
    return v;
}

std::int64_t read_attr_int(hid_t obj, const std::string& name) {
    Handle attr = open_attr(obj, name);
    std::int64_t v = 0;
    check(H5Aread(attr.get(), H5T_NATIVE_INT64, &v), "reading attribute " + name);
    return v;
}

// One dataset of rows x cols values stored as file_type, read from memory as mem_type.
static void write_typed(hid_t loc, const std::string& name, hid_t file_type, hid_t mem_type,
                        const void* data, std::size_t rows, std::size_t cols,
                        const std::string& units, const std::string& description) {
    Handle space = dataspace(rows, cols);
    const Handle props = untimed(H5P_DATASET_CREATE);
    Handle set(checked(H5Dcreate2(loc, name.c_str(), file_type, space.get(), H5P_DEFAULT,
                                  props.get(), H5P_DEFAULT),
                       "creating dataset " + name),
               H5Dclose);
    check(H5Dwrite(set.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data),
          "writing dataset " + name);
    label(set.get(), units, description);
    if (!set.close()) throw IoError("HDF5: writing dataset " + name + " failed (on close)");
}

void write_dataset(hid_t loc, const std::string& name, const double* data, std::size_t rows,
                   std::size_t cols, const std::string& units, const std::string& description) {
    write_typed(loc, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, data, rows, cols, units, description);
}

void write_dataset(hid_t loc, const std::string& name, const std::int64_t* data, std::size_t rows,
                   const std::string& units, const std::string& description) {
    write_typed(loc, name, H5T_STD_I64LE, H5T_NATIVE_INT64, data, rows, 1, units, description);
}

void write_dataset(hid_t loc, const std::string& name, const std::int64_t* data, std::size_t rows,
                   std::size_t cols, const std::string& units, const std::string& description) {
    write_typed(loc, name, H5T_STD_I64LE, H5T_NATIVE_INT64, data, rows, cols, units, description);
}

namespace {
// {rows, cols} of an open dataset (cols = 1 for one-dimensional).
std::pair<std::size_t, std::size_t> shape_of(hid_t set, const std::string& name) {
    Handle space(checked(H5Dget_space(set), "H5Dget_space"), H5Sclose);
    std::array<hsize_t, 2> dims{0, 1};
    const int rank = H5Sget_simple_extent_ndims(space.get());
    if (rank < 1 || rank > 2)
        throw IoError("dataset " + name + " has rank " + std::to_string(rank));
    H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    return {static_cast<std::size_t>(dims[0]), rank == 2 ? static_cast<std::size_t>(dims[1]) : 1};
}
} // namespace

std::pair<std::size_t, std::size_t> dataset_shape(hid_t loc, const std::string& name) {
    return shape_of(open_dataset(loc, name).get(), name);
}

// A damaged dataspace can claim more elements than memory holds (bad_alloc, or an overcommitted
// allocation the kernel kills). This writer never compresses, so a dataset's data fit in its
// file, except unwritten chunks of a series extended by a killed run: allow 64 MiB beyond.
//
// A damaged storage index is worse: libhdf5 1.10 (Debian 12's) trusts a chunk's size from its
// B-tree key and copies a whole chunk out of a buffer of that size, so a key zeroed to size 0
// makes H5Dread read past the heap (found by hdf5_reader_fuzz_test under AddressSanitizer); a
// compact dataset's stored size is trusted alike. Every chunk's size and place are therefore
// checked before the read: an unfiltered chunk holds exactly its chunk dimensions' elements
// (HDF5 file format spec. 3.0, section IV.A.2.i, layout message), a filtered one (h5repack -f
// GZIP of an output) something non-empty, and each lies inside the file.
namespace {

std::uint64_t file_size(hid_t loc) {
    Handle file(checked(H5Iget_file_id(loc), "H5Iget_file_id"), H5Fclose);
    hsize_t size = 0;
    check(H5Fget_filesize(file.get(), &size), "H5Fget_filesize");
    return size;
}

IoError damaged(const std::string& name, const std::string& what) {
    return IoError("dataset " + name + " " + what + ": the file is damaged");
}

void check_chunks(hid_t set, hid_t dcpl, const std::string& name, std::size_t rows,
                  std::size_t cols, std::size_t element, std::uint64_t size) {
    std::array<hsize_t, 2> chunk{0, 0};
    const int rank = H5Pget_chunk(dcpl, 2, chunk.data());
    const Handle space(checked(H5Dget_space(set), "H5Dget_space"), H5Sclose);
    const int expected_rank = H5Sget_simple_extent_ndims(space.get());
    if (rank != expected_rank || chunk[0] == 0 || (rank == 2 && chunk[1] == 0))
        throw damaged(name, "has a malformed chunk layout");
    const std::size_t chunk_cols = rank == 2 ? chunk[1] : 1;
    const bool filtered = H5Pget_nfilters(dcpl) != 0;
    // HDF5 keeps chunk sizes in 32 bits; a larger product is a damaged layout (and would wrap).
    if (static_cast<double>(chunk[0]) * static_cast<double>(chunk_cols * element) > 4294967295.0)
        throw damaged(name, "has a malformed chunk layout");
    const std::uint64_t chunk_bytes = std::uint64_t{chunk[0]} * chunk_cols * element;
    for (std::size_t row = 0; row < rows; row += chunk[0])
        for (std::size_t col = 0; col < cols; col += chunk_cols) {
            const std::array<hsize_t, 2> offset{row, col};
            unsigned mask = 0;
            haddr_t address = HADDR_UNDEF;
            hsize_t bytes = 0;
            if (H5Dget_chunk_info_by_coord(set, offset.data(), &mask, &address, &bytes) < 0)
                throw damaged(name, "has an unreadable chunk index");
            if (address == HADDR_UNDEF) continue; // never written: read as the fill value
            const bool size_ok = filtered ? bytes > 0 : bytes == chunk_bytes;
            if (!size_ok || address > size || bytes > size - address)
                throw damaged(name, "has a chunk at row " + std::to_string(row) + " of " +
                                        std::to_string(bytes) + " bytes at byte " +
                                        std::to_string(address) + " of " + std::to_string(size));
        }
}

void check_storage(hid_t set, const std::string& name, std::size_t rows, std::size_t cols) {
    const std::uint64_t size = file_size(set);
    const double bytes = 8.0 * static_cast<double>(rows) * static_cast<double>(cols);
    if (bytes > static_cast<double>(size) + 64.0 * 1024 * 1024)
        throw IoError("dataset " + name + " claims " + std::to_string(rows) + " x " +
                      std::to_string(cols) + " values, more than the file of " +
                      std::to_string(size) + " bytes holds: the file is damaged");
    Handle type(checked(H5Dget_type(set), "H5Dget_type"), H5Tclose);
    const std::size_t element = H5Tget_size(type.get());
    if (element == 0) throw damaged(name, "has a malformed datatype");
    Handle dcpl(checked(H5Dget_create_plist(set), "H5Dget_create_plist"), H5Pclose);
    const std::uint64_t data_bytes = std::uint64_t{rows} * cols * element;
    switch (H5Pget_layout(dcpl.get())) {
    case H5D_CHUNKED:
        check_chunks(set, dcpl.get(), name, rows, cols, element, size);
        return;
    case H5D_COMPACT:
        if (H5Dget_storage_size(set) != data_bytes)
            throw damaged(name, "holds " + std::to_string(H5Dget_storage_size(set)) +
                                    " bytes in its header for " + std::to_string(data_bytes));
        return;
    case H5D_CONTIGUOUS: {
        const haddr_t address = H5Dget_offset(set);
        if (address != HADDR_UNDEF && (address > size || data_bytes > size - address))
            throw damaged(name, "lies beyond the end of the file");
        return;
    }
    default:
        throw damaged(name, "has an unknown storage layout");
    }
}

// Reads a whole dataset as mem_type, its storage checked first.
template <class T> std::vector<T> read_values(hid_t loc, const std::string& name, hid_t mem_type) {
    const Handle set = open_dataset(loc, name);
    const auto [rows, cols] = shape_of(set.get(), name);
    check_storage(set.get(), name, rows, cols);
    std::vector<T> out(rows * cols);
    if (!out.empty())
        check(H5Dread(set.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()),
              "reading dataset " + name);
    return out;
}

} // namespace

void check_dataset_storage(hid_t set, const std::string& name) {
    const auto [rows, cols] = shape_of(set, name);
    check_storage(set, name, rows, cols);
}

std::vector<double> read_doubles(hid_t loc, const std::string& name) {
    return read_values<double>(loc, name, H5T_NATIVE_DOUBLE);
}

std::vector<std::int64_t> read_ints(hid_t loc, const std::string& name) {
    return read_values<std::int64_t>(loc, name, H5T_NATIVE_INT64);
}

void create_series(hid_t loc, const std::string& name, std::size_t cols, bool integer,
                   const std::string& units, const std::string& description) {
    const int rank = cols == 1 ? 1 : 2;
    const std::array<hsize_t, 2> dims{0, cols};
    const std::array<hsize_t, 2> max_dims{H5S_UNLIMITED, cols};
    const std::array<hsize_t, 2> chunk{1024, cols};
    Handle space(checked(H5Screate_simple(rank, dims.data(), max_dims.data()), "H5Screate"),
                 H5Sclose);
    Handle props = untimed(H5P_DATASET_CREATE);
    check(H5Pset_chunk(props.get(), rank, chunk.data()), "H5Pset_chunk");
    Handle set(checked(H5Dcreate2(loc, name.c_str(), integer ? H5T_STD_I64LE : H5T_IEEE_F64LE,
                                  space.get(), H5P_DEFAULT, props.get(), H5P_DEFAULT),
                       "creating dataset " + name),
               H5Dclose);
    label(set.get(), units, description);
}

void append_rows(hid_t loc, const std::string& name, const void* data, std::size_t rows,
                 bool integer) {
    if (rows == 0) return;
    Handle set = open_dataset(loc, name);
    const auto [old_rows, cols] = shape_of(set.get(), name);
    const int rank = cols == 1 ? 1 : 2;
    const std::array<hsize_t, 2> new_dims{old_rows + rows, cols};
    check(H5Dset_extent(set.get(), new_dims.data()), "extending " + name);
    Handle file_space(checked(H5Dget_space(set.get()), "H5Dget_space"), H5Sclose);
    const std::array<hsize_t, 2> start{old_rows, 0};
    const std::array<hsize_t, 2> count{rows, cols};
    check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(),
                              nullptr),
          "selecting rows of " + name);
    Handle mem_space(checked(H5Screate_simple(rank, count.data(), nullptr), "H5Screate"), H5Sclose);
    check(H5Dwrite(set.get(), integer ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE, mem_space.get(),
                   file_space.get(), H5P_DEFAULT, data),
          "appending to " + name);
    if (!set.close()) throw IoError("HDF5: appending to " + name + " failed (on close)");
}

void truncate_rows(hid_t loc, const std::string& name, std::size_t rows) {
    Handle set = open_dataset(loc, name);
    const auto [old_rows, cols] = shape_of(set.get(), name);
    if (rows >= old_rows) return;
    const std::array<hsize_t, 2> dims{rows, cols};
    check(H5Dset_extent(set.get(), dims.data()), "truncating " + name);
}

} // namespace rubble::storage::h5
