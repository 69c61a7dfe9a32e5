// SPDX-License-Identifier: MIT
#include "rubble/storage/atomic_file.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

#include "descriptor.hpp"
#include "rubble/core/error.hpp"

namespace rubble::storage {
namespace {

// A name no other writer uses: hidden (ParaView's file dialog does not list it), unique per
// host, process and call (processes on two nodes of a cluster may share a pid and a file
// system: the tasks of a job array writing one campaign's index), and created with O_EXCL
// so a leftover is never written into.
std::filesystem::path temporary_name(const std::filesystem::path& target) {
    static std::atomic<unsigned> counter{0};
    char host[64] = "host";
    ::gethostname(host, sizeof host - 1);
    host[sizeof host - 1] = '\0';
    char suffix[160];
    std::snprintf(suffix, sizeof suffix, ".%s.%ld.%u.tmp", host, static_cast<long>(::getpid()),
                  counter.fetch_add(1));
    std::string name(1, '.');
    name.append(target.filename().string()).append(suffix);
    return target.parent_path() / name;
}

void write_all(int fd, const std::string& text, const std::string& name) {
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw IoError("cannot write '" + name + "': " + std::strerror(errno));
        done += static_cast<std::size_t>(n);
    }
}

// Writes, flushes and closes the temporary file (a close can report a deferred write error).
void write_temporary(const std::string& name, const std::string& text) {
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) throw IoError("cannot create '" + name + "': " + std::strerror(errno));
    try {
        write_all(fd, text, name);
        if (::fsync(fd) != 0)
            throw IoError("cannot flush '" + name + "' to the disk: " + std::strerror(errno));
    } catch (...) {
        ::close(fd);
        throw;
    }
    if (::close(fd) != 0) throw IoError("cannot close '" + name + "': " + std::strerror(errno));
}

} // namespace

void replace_file_atomically(const std::string& path, const std::string& text) {
    const std::filesystem::path target(path);
    const std::string temporary = temporary_name(target).string();
    try {
        write_temporary(temporary, text);
        if (std::rename(temporary.c_str(), path.c_str()) != 0)
            throw IoError("cannot rename '" + temporary + "' to '" + path +
                          "': " + std::strerror(errno));
    } catch (...) {
        ::unlink(temporary.c_str());
        throw;
    }
    std::filesystem::path dir = target.parent_path();
    if (dir.empty()) dir = ".";
    const Descriptor fd(dir.string(), O_RDONLY | O_DIRECTORY);
    if (fd.get() >= 0) ::fsync(fd.get()); // some file systems refuse fsync on a directory
}

} // namespace rubble::storage
