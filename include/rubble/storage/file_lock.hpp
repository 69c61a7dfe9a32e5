// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <string>

namespace rubble::storage {

/// An exclusive lock on a run's output for as long as the run writes it, so that a second run
/// (a resume, or a new run with output.overwrite) cannot write the same file at once. An open
/// file description lock (F_OFD_SETLK): independent of HDF5's descriptors, which are opened and
/// closed at every write and would release a classic POSIX lock.
class FileLock {
public:
    FileLock() = default;
    /// Locks `path` (which must exist). Throws InputError naming `what` (the parameter or option
    /// that named the file) if another process holds the lock, IoError if it cannot be taken.
    static FileLock acquire(const std::string& path, const std::string& what);
    /// Locks `path` if no other process holds it; an empty lock (held() false) otherwise.
    static FileLock try_acquire(const std::string& path);
    /// Locks byte `byte` of `path` (created empty if missing: a lock needs no data) if no
    /// other open file description holds it; an empty lock otherwise. One file holds many
    /// such claims (a campaign's runs, campaign/run_claims.hpp). Throws IoError naming `what`
    /// when the file cannot be opened or locks are not supported there.
    static FileLock try_acquire_byte(const std::string& path, std::int64_t byte,
                                     const std::string& what);
    /// Whether some open file description holds byte `byte` of `path` (false when the file
    /// does not exist): a look that takes nothing (F_OFD_GETLK), for listings. Throws IoError
    /// naming `what` when the file cannot be opened or locks are not supported there.
    [[nodiscard]] static bool byte_is_locked(const std::string& path, std::int64_t byte,
                                             const std::string& what);
    FileLock(FileLock&& o) noexcept;
    FileLock& operator=(FileLock&& o) noexcept;
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;
    ~FileLock();
    [[nodiscard]] bool held() const { return fd_ >= 0; }

private:
    int fd_ = -1;
};

} // namespace rubble::storage
