// SPDX-License-Identifier: MIT
#include "rubble/storage/structure_check.hpp"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <mutex>
#include <set>
#include <sys/stat.h>
#include <tuple>
#include <unistd.h>
#include <vector>

#include "descriptor.hpp"
#include "global_heap_check.hpp"
#include "rubble/core/error.hpp"
#include "rubble/storage/hdf5_util.hpp"
#include "rubble/storage/isolated_call.hpp"

namespace rubble::storage {
namespace {

// A walk that outlasts this is a libhdf5 loop on a damaged file: rubble's outputs hold a few
// objects per snapshot, walked in milliseconds each.
constexpr std::chrono::seconds walk_limit{300};

// Reads one attribute as rubble's readers do (scalar strings, integers and floats; others are
// opened, which reads their header message).
herr_t read_attribute(hid_t object, const char* name, const H5A_info_t*, void*) {
    try {
        const h5::Handle attr(H5Aopen(object, name, H5P_DEFAULT), H5Aclose);
        if (!attr.valid()) return 0;
        const h5::Handle type(H5Aget_type(attr.get()), H5Tclose);
        const h5::Handle space(H5Aget_space(attr.get()), H5Sclose);
        if (!type.valid() || !space.valid() || H5Sget_simple_extent_npoints(space.get()) != 1)
            return 0;
        switch (H5Tget_class(type.get())) {
        case H5T_STRING:
            (void)h5::read_attr_string(object, name);
            break;
        case H5T_INTEGER:
            (void)h5::read_attr_int(object, name);
            break;
        case H5T_FLOAT:
            (void)h5::read_attr_double(object, name);
            break;
        default:
            break;
        }
    } catch (const std::exception&) { // refused by rubble's own checks: the parent will be too
    }
    return 0;
}

void walk_object(hid_t root, const char* name) {
    const h5::Handle object(H5Oopen(root, name, H5P_DEFAULT), H5Oclose);
    if (!object.valid()) return;
    hsize_t index = 0;
    (void)H5Aiterate2(object.get(), H5_INDEX_NAME, H5_ITER_NATIVE, &index, read_attribute, nullptr);
    if (H5Iget_type(object.get()) == H5I_DATASET) {
        try {
            h5::check_dataset_storage(object.get(), name);
        } catch (const std::exception&) {
        }
    }
}

// H5Lvisit and H5L_info_t name the same API version in HDF5 1.10 and 1.12+ (as link_names).
herr_t walk_link(hid_t root, const char* name, const H5L_info_t* info, void*) {
    if (info->type == H5L_TYPE_HARD) walk_object(root, name);
    return 0;
}

void walk(const std::string& path) {
    const h5::Handle file = h5::open_file(path, h5::Mode::read);
    walk_object(file.get(), "/");
    (void)H5Lvisit(file.get(), H5_INDEX_NAME, H5_ITER_NATIVE, walk_link, nullptr);
}

// File times tick coarsely (a few ms on Linux, 2 s on FAT): a file changed again within the
// tick of its last change keeps its modification time. A file changed this recently is known
// by its content instead ("racy git": git's Documentation/technical/racy-git.txt has the same
// problem for its index).
constexpr std::time_t racy_seconds = 3;

// FNV-1a, 64 bits, of the whole file (read a chunk at a time; what a shrinking file still has).
std::uint64_t content_hash(int fd) {
    std::uint64_t hash = 14695981039346656037ULL;
    std::vector<unsigned char> chunk(std::size_t{1} << 20);
    for (off_t at = 0;;) {
        const ssize_t n = ::pread(fd, chunk.data(), chunk.size(), at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return hash;
        for (ssize_t k = 0; k < n; ++k)
            hash = (hash ^ chunk[static_cast<std::size_t>(k)]) * 1099511628211ULL;
        at += n;
    }
}

// Device, inode, size, then the modification time (ns) or, for a racy file, its content hash.
using FileState = std::tuple<dev_t, ino_t, off_t, bool, std::uint64_t>;
std::mutex checked_mutex;
std::set<FileState> checked; // files found sound

} // namespace

void check_structure(const std::string& path) {
    const Descriptor fd(path, O_RDONLY);
    struct stat st {};
    if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0)
        throw IoError("cannot read '" + path + "': " + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) return;
    const bool racy = std::time(nullptr) - st.st_mtim.tv_sec < racy_seconds;
    const std::uint64_t stamp = racy ? content_hash(fd.get())
                                     : static_cast<std::uint64_t>(st.st_mtim.tv_sec) * 1000000000 +
                                           static_cast<std::uint64_t>(st.st_mtim.tv_nsec);
    const FileState state{st.st_dev, st.st_ino, st.st_size, racy, stamp};
    {
        const std::lock_guard<std::mutex> lock(checked_mutex);
        if (checked.count(state) != 0) return;
    }
    check_global_heaps(fd.get(), static_cast<std::uint64_t>(st.st_size), path);
    const IsolatedOutcome walked = run_isolated([&] { walk(path); }, walk_limit);
    if (walked.ran && !walked.clean)
        throw IoError("'" + path + "' is damaged: libhdf5 " + walked.describe() +
                      " reading its structure in a separate process; rubble does not read it");
    const std::lock_guard<std::mutex> lock(checked_mutex);
    checked.insert(state);
}

} // namespace rubble::storage
