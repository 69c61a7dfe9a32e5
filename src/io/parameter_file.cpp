// SPDX-License-Identifier: MIT
// TOML parameter files (TOML v1.0 via toml++), read strictly: every key must be known.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sys/stat.h>

#include <toml++/toml.h>

#include "rubble/io/parameters.hpp"
#include "toml_limits.hpp"

namespace rubble::io {
namespace {

std::string where(const std::string& origin, const toml::source_region& r) {
    return origin + ":" + std::to_string(r.begin.line);
}

void read_table(const toml::table& table, const std::string& prefix, const std::string& origin,
                ParameterSet& params) {
    for (auto&& [k, node] : table) {
        const std::string key =
            prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
        const std::string src = where(origin, node.source());
        if (const auto* sub = node.as_table()) {
            read_table(*sub, key, origin, params);
        } else if (const auto* i = node.as_integer()) {
            params.set(key, std::int64_t{i->get()}, src);
        } else if (const auto* d = node.as_floating_point()) {
            params.set(key, d->get(), src);
        } else if (const auto* b = node.as_boolean()) {
            params.set(key, b->get(), src);
        } else if (const auto* s = node.as_string()) {
            params.set(key, s->get(), src);
        } else {
            if (!find_spec(key)) params.set(key, std::string(), src); // unknown-key message
            throw InputError(src + ": " + key +
                             ": arrays, dates and inline tables are not parameter values");
        }
    }
}

InputError unreadable(const std::string& path, const std::string& why) {
    return InputError("cannot read parameter file '" + path + "': " + why);
}

// Refuses what is not a text file before reading: a directory, or a device such as /dev/zero
// that would never end. Pipes stay allowed (`rubble run <(generate-params)`): the read below
// is bounded.
void check_file_kind(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) throw unreadable(path, std::strerror(errno));
    if (S_ISDIR(st.st_mode)) throw unreadable(path, "it is a directory");
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISSOCK(st.st_mode))
        throw unreadable(path, "it is a device or socket, not a regular file");
}

// At most max_parameter_file_bytes + 1 bytes: enough to tell that a file is too large.
std::string read_bounded(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw unreadable(path, std::strerror(errno));
    std::string text(max_parameter_file_bytes + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (in.bad()) throw unreadable(path, "read error");
    text.resize(static_cast<std::size_t>(in.gcount()));
    return text;
}

} // namespace

ParameterSet parse_parameters(const std::string& toml_text, const std::string& origin) {
    check_toml_text(toml_text, origin);
    toml::table table;
    try {
        table = toml::parse(toml_text, origin);
    } catch (const toml::parse_error& e) {
        throw InputError(where(origin, e.source()) +
                         ": malformed TOML: " + std::string(e.description()));
    }
    ParameterSet params;
    params.set_origin(origin);
    read_table(table, "", origin, params);
    return params;
}

ParameterSet load_parameter_file(const std::string& path) {
    check_file_kind(path);
    return parse_parameters(read_bounded(path), path);
}

} // namespace rubble::io
