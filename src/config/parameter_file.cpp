// SPDX-License-Identifier: MIT
// TOML parameter files (TOML v1.0 via toml++), read strictly: every key must be known.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <sys/stat.h>

#include <toml++/toml.h>

#include "rubble/config/parameters.hpp"
#include "toml_limits.hpp"

namespace rubble::config {
namespace {

std::string where(const std::string& origin, const toml::source_region& r) {
    return origin + ":" + std::to_string(r.begin.line);
}

// An array of three numbers as a vector value, or nothing.
std::optional<ParamVector> vector_of(const toml::array& a) {
    if (a.size() != 3) return std::nullopt;
    ParamVector out{};
    for (std::size_t d = 0; d < 3; ++d) {
        if (const auto* i = a[d].as_integer()) {
            out[d] = static_cast<double>(i->get());
        } else if (const auto* x = a[d].as_floating_point()) {
            out[d] = x->get();
        } else {
            return std::nullopt;
        }
    }
    return out;
}

// A scalar or vector value, or nothing (a table, a date, another array). `vector_expected`:
// the key takes a vector, so an array that is not three numbers is named as such.
std::optional<ParamValue> value_of(const toml::node& node, const std::string& key,
                                   const std::string& src, bool vector_expected) {
    if (const auto* i = node.as_integer()) return ParamValue{std::int64_t{i->get()}};
    if (const auto* d = node.as_floating_point()) return ParamValue{d->get()};
    if (const auto* b = node.as_boolean()) return ParamValue{b->get()};
    if (const auto* s = node.as_string()) return ParamValue{s->get()};
    if (const auto* a = node.as_array()) {
        if (const auto v = vector_of(*a)) return ParamValue{*v};
        if (vector_expected)
            throw InputError(src + ": " + key + ": expected an array of 3 real numbers, got " +
                             std::to_string(a->size()) + " element(s) or non-numbers");
    }
    return std::nullopt;
}

void read_walls(const toml::node& node, const std::string& origin, ParameterSet& params) {
    const auto* array = node.as_array();
    if (!array || !array->is_array_of_tables())
        throw InputError(where(origin, node.source()) +
                         ": walls: must be an array of tables, one [[walls]] table per wall");
    for (const toml::node& element : *array) {
        const toml::table& table = *element.as_table();
        const std::size_t k = params.wall_count();
        params.add_wall(where(origin, table.source()));
        for (auto&& [name, value] : table) {
            const std::string n(name.str());
            const std::string src = where(origin, value.source());
            const ParamSpec* spec = find_wall_spec(n);
            const std::string shown = "walls[" + std::to_string(k) + "]." + n;
            const auto v = value_of(value, shown, src, spec && spec->type == ParamType::vector);
            if (!v) {
                params.set_wall(k, n, std::string(), src); // unknown-key message
                throw InputError(src + ": " + shown +
                                 ": tables, dates and other arrays are not wall values");
            }
            params.set_wall(k, n, *v, src);
        }
    }
}

void read_table(const toml::table& table, const std::string& prefix, const std::string& origin,
                ParameterSet& params, const std::string& reserved = "") {
    for (auto&& [k, node] : table) {
        const std::string key =
            prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
        if (!reserved.empty() && key == reserved) continue;
        const std::string src = where(origin, node.source());
        if (key == "walls") {
            read_walls(node, origin, params);
        } else if (const auto* sub = node.as_table()) {
            read_table(*sub, key, origin, params);
        } else {
            const ParamSpec* spec = find_spec(key);
            const auto v = value_of(node, key, src, spec && spec->type == ParamType::vector);
            if (v) {
                params.set(key, *v, src);
                continue;
            }
            if (!spec) params.set(key, std::string(), src); // unknown-key message
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

ParameterSet parse_parameters(const std::string& toml_text, const std::string& origin,
                              const std::string& reserved) {
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
    read_table(table, "", origin, params, reserved);
    return params;
}

std::string read_parameter_text(const std::string& path) {
    check_file_kind(path);
    return read_bounded(path);
}

ParameterSet load_parameter_file(const std::string& path) {
    return parse_parameters(read_parameter_text(path), path);
}

} // namespace rubble::config
