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
