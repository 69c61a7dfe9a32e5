// SPDX-License-Identifier: MIT
#include "rubble/storage/file_lock.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#include "rubble/core/error.hpp"

namespace rubble::storage {

namespace {

// An exclusive open-file-description lock on the whole file, however long it grows.
bool lock_whole_file(int fd) {
    struct flock whole {};
    whole.l_type = F_WRLCK;
    whole.l_whence = SEEK_SET; // l_start = l_len = 0: the whole file
    return ::fcntl(fd, F_OFD_SETLK, &whole) == 0;
}

} // namespace

FileLock FileLock::acquire(const std::string& path, const std::string& what) {
    FileLock lock;
    lock.fd_ = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (lock.fd_ < 0)
        throw IoError("cannot open '" + path + "' to lock it: " + std::strerror(errno));
    if (!lock_whole_file(lock.fd_)) {
        if (errno == EAGAIN || errno == EACCES)
            throw InputError(what + " = \"" + path +
                             "\": the file is being written by another rubble run");
        throw IoError("cannot lock '" + path + "': " + std::strerror(errno));
    }
    return lock;
}

FileLock FileLock::try_acquire(const std::string& path) {
    FileLock lock;
    lock.fd_ = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (lock.fd_ >= 0 && !lock_whole_file(lock.fd_)) lock = FileLock();
    return lock;
}

FileLock FileLock::try_acquire_byte(const std::string& path, std::int64_t byte,
                                    const std::string& what) {
    FileLock lock;
    lock.fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (lock.fd_ < 0)
        throw IoError("cannot open " + what + " '" + path + "': " + std::strerror(errno));
    struct flock one {};
    one.l_type = F_WRLCK;
    one.l_whence = SEEK_SET;
    one.l_start = static_cast<off_t>(byte);
    one.l_len = 1; // a lock may lie beyond the end of the file
    if (::fcntl(lock.fd_, F_OFD_SETLK, &one) == 0) return lock;
    if (errno == EAGAIN || errno == EACCES) return FileLock();
    throw IoError("cannot lock byte " + std::to_string(byte) + " of " + what + " '" + path +
                  "': " + std::strerror(errno) +
                  " (the file system must support fcntl locks: docs/mpi.md)");
}

bool FileLock::byte_is_locked(const std::string& path, std::int64_t byte, const std::string& what) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) return false;
        throw IoError("cannot open " + what + " '" + path + "': " + std::strerror(errno));
    }
    struct flock one {};
    one.l_type = F_WRLCK; // would a write lock conflict?
    one.l_whence = SEEK_SET;
    one.l_start = static_cast<off_t>(byte);
    one.l_len = 1;
    const int rc = ::fcntl(fd, F_OFD_GETLK, &one);
    const int error = errno;
    ::close(fd);
    if (rc != 0)
        throw IoError("cannot test byte " + std::to_string(byte) + " of " + what + " '" + path +
                      "': " + std::strerror(error));
    return one.l_type != F_UNLCK;
}

FileLock::FileLock(FileLock&& o) noexcept : fd_(o.fd_) {
    o.fd_ = -1;
}

FileLock& FileLock::operator=(FileLock&& o) noexcept {
    if (this != &o) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = o.fd_;
        o.fd_ = -1;
    }
    return *this;
}

FileLock::~FileLock() {
    if (fd_ >= 0) ::close(fd_); // closing the description releases its lock
}

} // namespace rubble::storage
