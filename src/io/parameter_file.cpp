// SPDX-License-Identifier: MIT
// TOML parameter files (TOML v1.0 via toml++), read strictly: every key must be known.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <toml++/toml.h>

#include "rubble/io/parameters.hpp"

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

} // namespace

ParameterSet parse_parameters(const std::string& toml_text, const std::string& origin) {
    toml::table table;
    try {
        table = toml::parse(toml_text, origin);
    } catch (const toml::parse_error& e) {
        throw InputError(where(origin, e.source()) +
                         ": malformed TOML: " + std::string(e.description()));
    }
    ParameterSet params;
    read_table(table, "", origin, params);
    return params;
}

ParameterSet load_parameter_file(const std::string& path) {
    if (std::filesystem::is_directory(path))
        throw InputError("cannot read parameter file '" + path + "': it is a directory");
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw InputError("cannot read parameter file '" + path + "': " + std::strerror(errno));
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) {
        throw InputError("cannot read parameter file '" + path + "': read error");
    }
    return parse_parameters(text.str(), path);
}

} // namespace rubble::io
