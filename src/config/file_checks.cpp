// SPDX-License-Identifier: MIT
// The files a new run reads and writes, checked before any work: an input is never
// overwritten, and every refusal names the parameter that named the file.
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "rubble/config/run_checks.hpp"
#include "rubble/runfile/run_file.hpp"

namespace rubble::config {
namespace {

namespace fs = std::filesystem;

// Names longer than the system allows fail deep in std::filesystem or HDF5 with a message
// that names neither the file nor the key (a 300-character output name).
void check_name_length(const ParameterSet& p, const std::string& key, const std::string& path) {
    if (path.size() >= PATH_MAX)
        throw p.error(key, "the path has " + std::to_string(path.size()) +
                               " characters, more than the system allows (" +
                               std::to_string(PATH_MAX - 1) + ")");
    for (const auto& part : fs::path(path)) {
        if (part.native().size() > NAME_MAX)
            throw p.error(key, "a file or directory name of " +
                                   std::to_string(part.native().size()) +
                                   " characters, more than the system allows (" +
                                   std::to_string(NAME_MAX) + ")");
    }
}

// The same file by identity when both exist (links, "./a" and "a"), else by normal form.
bool same_file(const std::string& a, const std::string& b) {
    std::error_code ec;
    if (fs::equivalent(a, b, ec) && !ec) return true;
    const auto normal = [](const std::string& s) {
        std::error_code e;
        return fs::absolute(s, e).lexically_normal();
    };
    return normal(a) == normal(b);
}

// Every rubble output starts with the HDF5 superblock signature (no user block).
bool has_hdf5_signature(const std::string& path) {
    static constexpr char signature[8] = {'\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n'};
    std::ifstream in(path, std::ios::binary);
    char head[8] = {};
    in.read(head, sizeof head);
    return in.gcount() == sizeof head && std::memcmp(head, signature, sizeof head) == 0;
}

void check_not_an_input(const ParameterSet& p, const RunConfig& c, const std::string& params_path) {
    const std::string& out = c.output.file;
    if (!params_path.empty() && same_file(out, params_path))
        throw p.error("output.file", "is the parameter file itself; an input file is never "
                                     "overwritten, whatever output.overwrite says");
    if (c.ic.type == ic::IcType::table && same_file(out, c.ic.table.path))
        throw p.error("output.file", "is the body table " + p.described("ic.table.path") +
                                         "; an input file is never overwritten, whatever "
                                         "output.overwrite says");
    if (c.ic.type == ic::IcType::file && same_file(out, c.ic.file.path))
        throw p.error("output.file", "is the initial-condition file " +
                                         p.described("ic.file.path") +
                                         "; an input file is never overwritten, whatever "
                                         "output.overwrite says");
}

// HDF5 would fail later with "cannot create HDF5 file", naming neither key nor reason. Missing
// directories are created by the run (runfile::RunFile::create, as out/ on a fresh checkout), so
// what must exist and be writable is the nearest existing one, and it must be a directory.
void check_output_directory(const ParameterSet& p, const std::string& out) {
    fs::path dir = fs::path(out).parent_path();
    if (dir.empty()) dir = ".";
    std::error_code ec;
    while (!fs::exists(dir, ec) && dir.has_parent_path() && dir.parent_path() != dir)
        dir = dir.parent_path();
    if (!fs::exists(dir, ec)) dir = ".";
    if (!fs::is_directory(dir, ec))
        throw p.error("output.file", "'" + dir.string() + "' is not a directory");
    if (::access(dir.c_str(), W_OK) != 0)
        throw p.error("output.file", "the directory '" + dir.string() + "' is not writable");
}

void check_output_file(const ParameterSet& p, const RunConfig& c, const std::string& params_path) {
    const std::string& out = c.output.file;
    check_name_length(p, "output.file", out);
    check_not_an_input(p, c, params_path);
    check_output_directory(p, out);
    std::error_code ec;
    const fs::file_status st = fs::status(out, ec);
    if (!fs::exists(st)) return;
    if (!c.output.overwrite)
        throw p.error("output.file",
                      "file exists; set output.overwrite = true or choose another name");
    if (!fs::is_regular_file(st) || !has_hdf5_signature(out))
        throw p.error("output.file", "exists and is not an HDF5 file; output.overwrite = true "
                                     "only replaces an earlier rubble output");
}

void check_snapshot_index(const ParameterSet& p, const RunConfig& c) {
    const std::int64_t count = runfile::snapshot_count(c.ic.file.path);
    const std::int64_t i = c.ic.file.snapshot;
    if (count == 0) throw p.error("ic.file.path", "the file has no snapshot");
    if (i >= count)
        throw p.error("ic.file.snapshot", "the file " + p.described("ic.file.path") + " has " +
                                              std::to_string(count) + " snapshot(s), 0 to " +
                                              std::to_string(count - 1));
}

// An input file `key` names: a name the system takes, an existing regular file.
void check_input_file(const ParameterSet& p, const std::string& key, const std::string& path) {
    check_name_length(p, key, path);
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (!fs::exists(st)) throw p.error(key, "no such file");
    if (!fs::is_regular_file(st)) throw p.error(key, "is not a regular file");
}

void check_ic_table(const ParameterSet& p, const RunConfig& c) {
    if (c.ic.type == ic::IcType::table) check_input_file(p, "ic.table.path", c.ic.table.path);
}

void check_ic_file(const ParameterSet& p, const RunConfig& c) {
    if (c.ic.type != ic::IcType::file) return;
    const std::string& path = c.ic.file.path;
    check_input_file(p, "ic.file.path", path);
    if (!has_hdf5_signature(path))
        throw p.error("ic.file.path", "is not an HDF5 file (a rubble output is needed)");
    try {
        runfile::check_rubble_file(path);
    } catch (const InputError& e) {
        throw p.error("ic.file.path", e.what());
    }
    check_snapshot_index(p, c);
}

} // namespace

void check_run_files(const ParameterSet& p, const RunConfig& c, const std::string& params_path) {
    check_output_file(p, c, params_path);
    check_ic_file(p, c);
    check_ic_table(p, c);
}

} // namespace rubble::config
