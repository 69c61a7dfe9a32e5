// SPDX-License-Identifier: MIT
#include "global_heap_check.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <string_view>
#include <unistd.h>
#include <vector>

#include "rubble/core/error.hpp"

namespace rubble::storage {
namespace {

constexpr std::string_view signature{"GCOL\x01\x00\x00\x00", 8};
constexpr std::uint64_t header = 16; // of the collection, and of each object

std::uint64_t little_endian(const unsigned char* p, int bytes) {
    std::uint64_t v = 0;
    for (int k = bytes - 1; k >= 0; --k)
        v = (v << 8) | p[k];
    return v;
}

// Walks the objects of one collection (its bytes from the signature on) as the library does:
// object 0 is the free space (its size includes its header), a tail shorter than a header is
// free space too.
bool objects_fit(const std::vector<unsigned char>& collection) {
    const std::uint64_t end = collection.size();
    std::uint64_t at = header;
    while (end - at >= header) {
        const std::uint64_t index = little_endian(collection.data() + at, 2);
        const std::uint64_t bytes = little_endian(collection.data() + at + 8, 8);
        if (bytes > end) return false;
        const std::uint64_t step = index == 0 ? bytes : header + (bytes + 7) / 8 * 8;
        if (step < header || step > end - at) return false;
        at += step;
    }
    return true;
}

// Reads `size` bytes at `offset`; false if the file is shorter (it may be changing under a
// reader while a run writes it: its reserved space is trimmed at each write).
bool read_at(int fd, unsigned char* out, std::uint64_t size, std::uint64_t offset) {
    while (size > 0) {
        const ssize_t n = ::pread(fd, out, size, static_cast<off_t>(offset));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        out += n;
        size -= static_cast<std::uint64_t>(n);
        offset += static_cast<std::uint64_t>(n);
    }
    return true;
}

// The offset of the first garbled collection, or -1. The file is read a chunk at a time (a
// mapping would fault if a writer trimmed the file meanwhile), each collection whole.
std::int64_t first_garbled(int fd, std::uint64_t length) {
    constexpr std::uint64_t chunk_bytes = std::uint64_t{1} << 20;
    std::vector<unsigned char> chunk(chunk_bytes), collection;
    std::uint64_t pos = 0;
    while (pos + signature.size() <= length) {
        const std::uint64_t n = std::min(chunk_bytes, length - pos);
        if (!read_at(fd, chunk.data(), n, pos)) return -1; // cut short meanwhile: nothing to say
        const std::string_view text(reinterpret_cast<const char*>(chunk.data()), n);
        const std::size_t hit = text.find(signature);
        if (hit == std::string_view::npos) {
            if (n < chunk_bytes) return -1;
            pos += n - (signature.size() - 1); // a signature may straddle two chunks
            continue;
        }
        const std::uint64_t at = pos + hit;
        unsigned char head[header];
        if (length - at < header || !read_at(fd, head, header, at))
            return static_cast<std::int64_t>(at);
        const std::uint64_t size = little_endian(head + 8, 8);
        if (size < header || size > length - at) return static_cast<std::int64_t>(at);
        collection.resize(size);
        if (!read_at(fd, collection.data(), size, at) || !objects_fit(collection))
            return static_cast<std::int64_t>(at);
        pos = at + size;
    }
    return -1;
}

} // namespace

void check_global_heaps(int fd, std::uint64_t length, const std::string& path) {
    if (length < header) return;
    const std::int64_t garbled = first_garbled(fd, length);
    if (garbled >= 0)
        throw InputError("'" + path + "' is damaged: the global heap collection at byte " +
                         std::to_string(garbled) + " is garbled (its object sizes do not add up)");
}

} // namespace rubble::storage
