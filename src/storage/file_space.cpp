// SPDX-License-Identifier: MIT
#include "rubble/storage/file_space.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

#include "descriptor.hpp"
#include "rubble/core/error.hpp"

namespace rubble::storage {
namespace {

std::string reason(int error) {
    return error == EFBIG ? "file too large (a file size limit)" : std::strerror(error);
}

} // namespace

void reserve_space(const std::string& path, std::uint64_t bytes) {
    const Descriptor fd(path, O_RDWR);
    if (fd.get() < 0) throw IoError("cannot open '" + path + "' for writing: " + reason(errno));
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) throw IoError("cannot stat '" + path + "': " + reason(errno));
    // posix_fallocate returns the error instead of setting errno.
    const int error =
        ::posix_fallocate(fd.get(), st.st_size, static_cast<off_t>(bytes == 0 ? 1 : bytes));
    if (error != 0) {
        // A partial reservation may have grown the file; HDF5 ignores space past its end of
        // allocation, and trims it at the next successful write.
        throw IoError("cannot reserve " + std::to_string(bytes) + " bytes in '" + path +
                      "': " + reason(error));
    }
}

void make_durable(const std::string& path, bool new_file) {
    {
        const Descriptor fd(path, O_RDONLY);
        if (fd.get() < 0 || ::fsync(fd.get()) != 0)
            throw IoError("cannot flush '" + path + "' to the disk: " + reason(errno));
    }
    if (!new_file) return;
    std::filesystem::path dir = std::filesystem::path(path).parent_path();
    if (dir.empty()) dir = ".";
    const Descriptor fd(dir.string(), O_RDONLY | O_DIRECTORY);
    if (fd.get() >= 0) ::fsync(fd.get()); // some file systems refuse fsync on a directory
}

std::uint64_t metadata_allowance(std::uint64_t objects) {
    // An object header with its attributes (units, description) and its share of the group
    // index is about a KiB (a run's file measures about 10 KiB of metadata per snapshot of
    // 16 objects); 8 KiB each plus 256 KiB covers B-tree splits and heap growth many times.
    return (std::uint64_t{256} << 10) + objects * (std::uint64_t{8} << 10);
}

} // namespace rubble::storage
