// SPDX-License-Identifier: MIT
#pragma once
// A POSIX file descriptor closed on scope exit, for the few places of src/storage that work below
// HDF5 (space reservation, fsync, the global heap check).
#include <fcntl.h>
#include <string>
#include <unistd.h>

namespace rubble::storage {

class Descriptor {
public:
    /// open(2) with `flags` (O_CLOEXEC is added); get() < 0 if it failed (errno says why).
    Descriptor(const std::string& path, int flags) : fd_(::open(path.c_str(), flags | O_CLOEXEC)) {}
    ~Descriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    [[nodiscard]] int get() const { return fd_; }

private:
    int fd_;
};

} // namespace rubble::storage
