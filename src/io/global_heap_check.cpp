// SPDX-License-Identifier: MIT
#include "global_heap_check.hpp"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <string_view>
#include <sys/mman.h>
#include <sys/stat.h>
#include <tuple>
#include <unistd.h>

#include "rubble/core/error.hpp"

namespace rubble::io {
namespace {

constexpr std::string_view signature{"GCOL\x01\x00\x00\x00", 8};
constexpr std::uint64_t header = 16; // of the collection, and of each object

std::uint64_t little_endian(const unsigned char* p, int bytes) {
    std::uint64_t v = 0;
    for (int k = bytes - 1; k >= 0; --k)
        v = (v << 8) | p[k];
    return v;
}

// Walks the objects of the collection at `start` as the library does: object 0 is the free
// space (its size includes its header), a tail shorter than a header is free space too.
bool objects_fit(const unsigned char* data, std::uint64_t length, std::uint64_t start,
                 std::uint64_t size) {
    if (size < header || size > length - start) return false;
    const std::uint64_t end = start + size;
    std::uint64_t at = start + header;
    while (end - at >= header) {
        const std::uint64_t index = little_endian(data + at, 2);
        const std::uint64_t bytes = little_endian(data + at + 8, 8);
        if (bytes > size) return false;
        const std::uint64_t step = index == 0 ? bytes : header + (bytes + 7) / 8 * 8;
        if (step < header || step > end - at) return false;
        at += step;
    }
    return at <= end;
}

// The offset of the first garbled collection, or -1.
std::int64_t first_garbled(const unsigned char* data, std::uint64_t length) {
    const std::string_view text(reinterpret_cast<const char*>(data), length);
    for (std::size_t at = text.find(signature); at != std::string_view::npos;) {
        if (length - at < header) return static_cast<std::int64_t>(at);
        const std::uint64_t size = little_endian(data + at + 8, 8);
        if (!objects_fit(data, length, at, size)) return static_cast<std::int64_t>(at);
        at = text.find(signature, at + size);
    }
    return -1;
}

class Descriptor {
public:
    explicit Descriptor(const std::string& path)
        : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
    ~Descriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    [[nodiscard]] int get() const { return fd_; }

private:
    int fd_;
};

using FileState = std::tuple<dev_t, ino_t, off_t, std::int64_t>; // device, inode, size, mtime
std::mutex checked_mutex;
std::map<FileState, bool> checked; // files found sound

} // namespace

void check_global_heaps(const std::string& path) {
    const Descriptor fd(path);
    struct stat st {};
    if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0)
        throw IoError("cannot read '" + path + "': " + std::strerror(errno));
    if (!S_ISREG(st.st_mode) || st.st_size < static_cast<off_t>(header)) return;
    const FileState state{st.st_dev, st.st_ino, st.st_size,
                          static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 +
                              st.st_mtim.tv_nsec};
    {
        const std::lock_guard<std::mutex> lock(checked_mutex);
        if (checked.count(state) != 0) return;
    }
    const auto length = static_cast<std::uint64_t>(st.st_size);
    void* map = ::mmap(nullptr, length, PROT_READ, MAP_PRIVATE, fd.get(), 0);
    if (map == MAP_FAILED) throw IoError("cannot read '" + path + "': " + std::strerror(errno));
    const std::int64_t garbled = first_garbled(static_cast<const unsigned char*>(map), length);
    ::munmap(map, length);
    if (garbled >= 0)
        throw InputError("'" + path + "' is damaged: the global heap collection at byte " +
                         std::to_string(garbled) + " is garbled (its object sizes do not add up)");
    const std::lock_guard<std::mutex> lock(checked_mutex);
    checked[state] = true;
}

} // namespace rubble::io
