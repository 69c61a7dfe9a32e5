// SPDX-License-Identifier: MIT
#include "rubble/storage/undo_journal.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "rubble/core/error.hpp"
#include "rubble/storage/file_space.hpp"

namespace rubble::storage {
namespace {

// Journal layout: the magic, the file's length before the session, then records of
// (offset, length, old bytes), all integers little-endian 64-bit as this machine writes them.
// A record is complete before the bytes it saves are overwritten, so a record cut short (the
// process died while appending it) saved bytes that were never overwritten: it is ignored.
constexpr std::array<char, 8> magic{'R', 'B', 'L', 'J', 'R', 'N', 'L', '1'};

bool write_all(int fd, const void* data, std::size_t size) {
    const auto* p = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t n = ::write(fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

bool pwrite_all(int fd, const void* data, std::size_t size, off_t offset) {
    const auto* p = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t n = ::pwrite(fd, p, size, offset);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        size -= static_cast<std::size_t>(n);
        offset += n;
    }
    return true;
}

// Reads `size` bytes at `offset`; bytes past the end of the file read as zeros (as HDF5's
// own drivers do: space allocated but not yet written).
bool pread_all(int fd, void* data, std::size_t size, off_t offset) {
    auto* p = static_cast<char*>(data);
    while (size > 0) {
        const ssize_t n = ::pread(fd, p, size, offset);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return false;
        if (n == 0) {
            std::memset(p, 0, size);
            return true;
        }
        p += n;
        size -= static_cast<std::size_t>(n);
        offset += n;
    }
    return true;
}

WriteFault* write_fault = nullptr;

// Applies an injected fault to a write of `size` bytes at `addr`: true if the write must fail.
bool injected_failure(int fd, const void* buffer, std::size_t size, haddr_t addr) {
    if (write_fault == nullptr || write_fault->writes++ != write_fault->at) return false;
    if (write_fault->kind == WriteFault::Kind::error) return true;
    (void)pwrite_all(fd, buffer, size / 2, static_cast<off_t>(addr));
    _exit(137); // as kill -9: no clean-up of any kind
}

struct DriverInfo {
    std::uint64_t old_size;
};

// The open file: HDF5's part first (the driver API requires it), then ours.
struct JournaledFile {
    H5FD_t pub;
    int fd = -1;
    std::string path;
    dev_t device = 0;
    ino_t inode = 0;
    haddr_t eoa = 0, eof = 0;
    std::uint64_t old_size = 0;
    int journal = -1;
    // Set by the first write that fails. HDF5 then keeps the file object open (its close
    // failed too) with its dirty metadata; nothing of it may reach the file after the session
    // has been rolled back, and no later session may be handed this object as the same file.
    bool failed = false;
    // Byte ranges [first, second) of the old contents already saved in the journal.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> saved;
};

JournaledFile* as_file(H5FD_t* f) {
    return reinterpret_cast<JournaledFile*>(f);
}
const JournaledFile* as_file(const H5FD_t* f) {
    return reinterpret_cast<const JournaledFile*>(f);
}

bool open_journal(JournaledFile& f) {
    f.journal =
        ::open(journal_path(f.path).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (f.journal < 0) return false;
    return write_all(f.journal, magic.data(), magic.size()) &&
           write_all(f.journal, &f.old_size, sizeof f.old_size);
}

// Saves the old bytes of [begin, end) that are not saved yet.
bool save_old_bytes(JournaledFile& f, std::uint64_t begin, std::uint64_t end) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> missing{{begin, end}};
    for (const auto& [a, b] : f.saved) {
        std::vector<std::pair<std::uint64_t, std::uint64_t>> rest;
        for (const auto& [c, d] : missing) {
            if (b <= c || d <= a) {
                rest.emplace_back(c, d);
                continue;
            }
            if (c < a) rest.emplace_back(c, a);
            if (b < d) rest.emplace_back(b, d);
        }
        missing.swap(rest);
    }
    if (missing.empty()) return true;
    if (f.journal < 0 && !open_journal(f)) return false;
    std::vector<char> old;
    for (const auto& [c, d] : missing) {
        const std::uint64_t length = d - c;
        old.resize(length);
        if (!pread_all(f.fd, old.data(), length, static_cast<off_t>(c))) return false;
        if (!write_all(f.journal, &c, sizeof c) || !write_all(f.journal, &length, sizeof length) ||
            !write_all(f.journal, old.data(), length))
            return false;
        f.saved.emplace_back(c, d);
    }
    return true;
}

H5FD_t* driver_open(const char* name, unsigned flags, hid_t fapl, haddr_t) {
    const auto* info = static_cast<const DriverInfo*>(H5Pget_driver_info(fapl));
    if (info == nullptr || (flags & H5F_ACC_RDWR) == 0) return nullptr;
    auto* f = new JournaledFile{};
    f->path = name;
    f->old_size = info->old_size;
    f->fd = ::open(name, O_RDWR | O_CLOEXEC);
    struct stat st {};
    if (f->fd < 0 || ::fstat(f->fd, &st) != 0) {
        if (f->fd >= 0) ::close(f->fd);
        delete f;
        return nullptr;
    }
    f->device = st.st_dev;
    f->inode = st.st_ino;
    f->eof = static_cast<haddr_t>(st.st_size);
    return &f->pub;
}

herr_t driver_close(H5FD_t* file) {
    JournaledFile* f = as_file(file);
    const bool ok = ::close(f->fd) == 0 && (f->journal < 0 || ::close(f->journal) == 0);
    delete f;
    return ok ? 0 : -1;
}

int driver_cmp(const H5FD_t* a, const H5FD_t* b) {
    const JournaledFile* f = as_file(a);
    const JournaledFile* g = as_file(b);
    if (f->failed || g->failed) return f == g ? 0 : (f < g ? -1 : 1); // a dead file is no other
    if (f->device != g->device) return f->device < g->device ? -1 : 1;
    if (f->inode != g->inode) return f->inode < g->inode ? -1 : 1;
    return 0;
}

herr_t driver_query(const H5FD_t*, unsigned long* flags) {
    // What the default (sec2) driver declares: HDF5 may aggregate and cache as it usually does.
    if (flags)
        *flags = H5FD_FEAT_AGGREGATE_METADATA | H5FD_FEAT_ACCUMULATE_METADATA |
                 H5FD_FEAT_DATA_SIEVE | H5FD_FEAT_AGGREGATE_SMALLDATA |
                 H5FD_FEAT_POSIX_COMPAT_HANDLE;
    return 0;
}

haddr_t driver_get_eoa(const H5FD_t* file, H5FD_mem_t) {
    return as_file(file)->eoa;
}

herr_t driver_set_eoa(H5FD_t* file, H5FD_mem_t, haddr_t addr) {
    as_file(file)->eoa = addr;
    return 0;
}

haddr_t driver_get_eof(const H5FD_t* file, H5FD_mem_t) {
    return as_file(file)->eof;
}

herr_t driver_get_handle(H5FD_t* file, hid_t, void** handle) {
    *handle = &as_file(file)->fd;
    return 0;
}

herr_t driver_read(H5FD_t* file, H5FD_mem_t, hid_t, haddr_t addr, size_t size, void* buffer) {
    return pread_all(as_file(file)->fd, buffer, size, static_cast<off_t>(addr)) ? 0 : -1;
}

herr_t driver_write(H5FD_t* file, H5FD_mem_t, hid_t, haddr_t addr, size_t size,
                    const void* buffer) {
    JournaledFile* f = as_file(file);
    if (f->failed) return -1;
    const std::uint64_t end = addr + size;
    f->failed = (addr < f->old_size &&
                 !save_old_bytes(*f, addr, std::min<std::uint64_t>(end, f->old_size))) ||
                injected_failure(f->fd, buffer, size, addr) ||
                !pwrite_all(f->fd, buffer, size, static_cast<off_t>(addr));
    if (f->failed) return -1;
    f->eof = std::max<haddr_t>(f->eof, end);
    return 0;
}

herr_t driver_truncate(H5FD_t* file, hid_t, hbool_t) {
    JournaledFile* f = as_file(file);
    if (f->failed) return -1;
    if (f->eoa == f->eof) return 0;
    // The end of allocation never falls below the old length (HDF5 frees no file space here),
    // so cutting the file there loses nothing the journal would need.
    if (::ftruncate(f->fd, static_cast<off_t>(f->eoa)) != 0) return -1;
    f->eof = f->eoa;
    return 0;
}

herr_t driver_lock(H5FD_t*, hbool_t) {
    return 0; // a run holds FileLock instead
}

herr_t driver_unlock(H5FD_t*) {
    return 0;
}

void* driver_fapl_copy(const void* info) {
    void* copy = std::malloc(sizeof(DriverInfo));
    if (copy) std::memcpy(copy, info, sizeof(DriverInfo));
    return copy;
}

herr_t driver_fapl_free(void* info) {
    std::free(info);
    return 0;
}

H5FD_class_t make_driver_class() {
    H5FD_class_t c{};
    c.name = "rubble_undo_journal";
    c.maxaddr = (haddr_t{1} << 62);
    c.fc_degree = H5F_CLOSE_WEAK;
    c.fapl_size = sizeof(DriverInfo);
    c.fapl_copy = driver_fapl_copy;
    c.fapl_free = driver_fapl_free;
    c.open = driver_open;
    c.close = driver_close;
    c.cmp = driver_cmp;
    c.query = driver_query;
    c.get_eoa = driver_get_eoa;
    c.set_eoa = driver_set_eoa;
    c.get_eof = driver_get_eof;
    c.get_handle = driver_get_handle;
    c.read = driver_read;
    c.write = driver_write;
    c.truncate = driver_truncate;
    c.lock = driver_lock;
    c.unlock = driver_unlock;
    const H5FD_mem_t map[] = H5FD_FLMAP_DICHOTOMY;
    std::copy(std::begin(map), std::end(map), std::begin(c.fl_map));
    return c;
}

hid_t driver_id() {
    static const H5FD_class_t driver_class = make_driver_class();
    static hid_t id = -1;
    static std::once_flag once;
    std::call_once(once, [] { id = H5FDregister(&driver_class); });
    if (id < 0) throw IoError("HDF5: cannot register the undo journal driver");
    return id;
}

} // namespace

void inject_write_fault(WriteFault* fault) {
    write_fault = fault;
}

std::string journal_path(const std::string& path) {
    return path + ".journal";
}

hid_t journaled_access(std::uint64_t old_size) {
    const hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    const DriverInfo info{old_size};
    if (fapl < 0 || H5Pset_driver(fapl, driver_id(), &info) < 0 ||
        H5Pset_file_locking(fapl, false, true) < 0) {
        if (fapl >= 0) H5Pclose(fapl);
        throw IoError("HDF5: cannot set up the undo journal driver");
    }
    return fapl;
}

void commit_journal(const std::string& path) {
    make_durable(path);
    const std::string journal = journal_path(path);
    if (::unlink(journal.c_str()) != 0 && errno != ENOENT)
        throw IoError("cannot delete '" + journal + "': " + std::strerror(errno));
}

bool roll_back_journal(const std::string& path) {
    const std::string journal = journal_path(path);
    const int in = ::open(journal.c_str(), O_RDONLY | O_CLOEXEC);
    if (in < 0) return false;
    const auto fail = [&](const std::string& what) {
        ::close(in);
        return IoError("cannot roll back the interrupted write of '" + path + "' from '" + journal +
                       "': " + what);
    };
    std::array<char, 8> head{};
    std::uint64_t old_size = 0;
    const bool whole_header =
        ::read(in, head.data(), head.size()) == static_cast<ssize_t>(head.size()) &&
        ::read(in, &old_size, sizeof old_size) == static_cast<ssize_t>(sizeof old_size);
    if (!whole_header) {
        // Died while starting the journal: nothing was overwritten yet.
        ::close(in);
        ::unlink(journal.c_str());
        return true;
    }
    if (head != magic) throw fail("not a rubble journal");
    const int out = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (out < 0) throw fail(std::strerror(errno));
    std::vector<char> old;
    for (;;) {
        std::uint64_t record[2] = {0, 0};
        if (::read(in, record, sizeof record) != static_cast<ssize_t>(sizeof record)) break;
        if (record[1] > old_size) break; // a damaged record: stop at the last good one
        old.resize(record[1]);
        if (::read(in, old.data(), record[1]) != static_cast<ssize_t>(record[1])) break;
        if (!pwrite_all(out, old.data(), old.size(), static_cast<off_t>(record[0]))) {
            ::close(out);
            throw fail(std::strerror(errno));
        }
    }
    const bool ok = ::ftruncate(out, static_cast<off_t>(old_size)) == 0 && ::fsync(out) == 0;
    ::close(out);
    ::close(in);
    if (!ok) throw IoError("cannot restore '" + path + "': " + std::strerror(errno));
    ::unlink(journal.c_str());
    return true;
}

} // namespace rubble::storage
