// SPDX-License-Identifier: MIT
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "rubble/io/parameters.hpp"

namespace rubble::io {
namespace {

const char* type_name(ParamType t) {
    switch (t) {
    case ParamType::real:
        return "a real number";
    case ParamType::integer:
        return "an integer";
    case ParamType::boolean:
        return "a boolean (true or false)";
    case ParamType::string:
        return "a string";
    }
    return "?";
}

const char* value_type_name(const ParamValue& v) {
    switch (v.index()) {
    case 0:
        return "real";
    case 1:
        return "integer";
    case 2:
        return "boolean";
    default:
        return "string";
    }
}

std::string with_unit(const ParamSpec& spec) {
    return spec.unit.empty() ? std::string() : " (" + spec.unit + ")";
}

// Keeps a message to one readable line when a value or key is absurdly long (a fuzzed or
// generated file): the start identifies it.
std::string clipped(std::string text) {
    constexpr std::size_t max_chars = 1000;
    if (text.size() > max_chars) text = text.substr(0, max_chars) + "...";
    return text;
}

InputError make_error(const std::string& source, const std::string& key, const ParamValue& v,
                      const std::string& reason) {
    return InputError(source + ": " + clipped(key) + " = " + clipped(to_toml_text(v)) + ": " +
                      reason);
}

bool in_range(const ParamSpec& s, double x) {
    if (s.lower_open ? !(x > s.lower) : !(x >= s.lower)) return false;
    if (s.upper_open ? !(x < s.upper) : !(x <= s.upper)) return false;
    return true;
}

// Brings `v` to the spec's type and checks it; throws on any violation.
ParamValue validated(const ParamSpec& s, const ParamValue& v, const std::string& source) {
    const auto fail = [&](const std::string& reason) {
        return make_error(source, s.key, v, reason);
    };
    const auto wrong_type = [&] {
        return fail(std::string("expected ") + type_name(s.type) + with_unit(s) + ", got a " +
                    value_type_name(v));
    };
    switch (s.type) {
    case ParamType::real: {
        // TOML writes 3 for 3.0; an integer is a valid real, the reverse is not.
        const auto* d = std::get_if<double>(&v);
        const auto* i = std::get_if<std::int64_t>(&v);
        if (!d && !i) throw wrong_type();
        const double x = d ? *d : static_cast<double>(*i);
        if (!std::isfinite(x)) throw fail("must be finite");
        if (!in_range(s, x)) throw fail("must be " + s.range_text() + with_unit(s));
        return x;
    }
    case ParamType::integer: {
        const auto* i = std::get_if<std::int64_t>(&v);
        if (!i) throw wrong_type();
        if (!in_range(s, static_cast<double>(*i))) throw fail("must be " + s.range_text());
        return v;
    }
    case ParamType::boolean:
        if (!std::holds_alternative<bool>(v)) throw wrong_type();
        return v;
    case ParamType::string: {
        const auto* str = std::get_if<std::string>(&v);
        if (!str) throw wrong_type();
        if (!s.choices.empty() &&
            std::find(s.choices.begin(), s.choices.end(), *str) == s.choices.end())
            throw fail("must be " + s.range_text());
        return v;
    }
    }
    return v;
}

} // namespace

std::string to_toml_text(const ParamValue& v) {
    if (const auto* d = std::get_if<double>(&v)) {
        if (std::isnan(*d)) return "nan";
        if (std::isinf(*d)) return *d > 0 ? "inf" : "-inf";
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.17g", *d); // round-trips every double
        std::string s(buf);
        if (s.find_first_of(".eE") == std::string::npos) s += ".0"; // stays a TOML float
        return s;
    }
    if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
    if (const auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
    std::string out = "\"";
    for (char c : std::get<std::string>(v)) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out + "\"";
}

std::string approx_text(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", x);
    return buf;
}

ParameterSet::ParameterSet() {
    for (const auto& s : parameter_specs()) {
        ParamValue v;
        switch (s.type) {
        case ParamType::real:
            v = std::strtod(s.default_text.c_str(), nullptr);
            break;
        case ParamType::integer:
            v = std::int64_t{std::strtoll(s.default_text.c_str(), nullptr, 10)};
            break;
        case ParamType::boolean:
            v = s.default_text == "true";
            break;
        case ParamType::string:
            v = s.default_text.substr(1, s.default_text.size() - 2); // strip the quotes
            break;
        }
        entries_[s.key] = Entry{validated(s, v, "default"), "default"};
    }
}

void ParameterSet::set(const std::string& key, const ParamValue& value, const std::string& source) {
    const ParamSpec* s = find_spec(key);
    if (!s) {
        const std::string near = closest_key(key);
        throw InputError(source + ": unknown parameter '" + clipped(key) + "'" +
                         (near.empty() ? "" : " (did you mean '" + near + "'?)"));
    }
    entries_[key] = Entry{validated(*s, value, source), source};
}

void ParameterSet::set_from_text(const std::string& key, const std::string& text,
                                 const std::string& source) {
    const ParamSpec* s = find_spec(key);
    if (!s) {
        set(key, text, source); // reports the unknown key
        return;
    }
    const auto bad = [&](const char* what) {
        return InputError(source + ": " + key + " = " + clipped(text) + ": expected " + what +
                          with_unit(*s));
    };
    switch (s->type) {
    case ParamType::real: {
        char* end = nullptr;
        errno = 0;
        const double x = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || errno == ERANGE) throw bad(type_name(s->type));
        set(key, x, source);
        return;
    }
    case ParamType::integer: {
        char* end = nullptr;
        errno = 0;
        const long long x = std::strtoll(text.c_str(), &end, 10);
        if (text.empty() || *end != '\0' || errno == ERANGE) throw bad(type_name(s->type));
        set(key, std::int64_t{x}, source);
        return;
    }
    case ParamType::boolean:
        if (text != "true" && text != "false") throw bad(type_name(s->type));
        set(key, text == "true", source);
        return;
    case ParamType::string:
        set(key, text, source);
        return;
    }
}

const ParameterSet::Entry& ParameterSet::entry(const std::string& key) const {
    const auto it = entries_.find(key);
    if (it == entries_.end()) throw std::logic_error("no parameter named " + key);
    return it->second;
}

double ParameterSet::real(const std::string& key) const {
    return std::get<double>(entry(key).value);
}
std::int64_t ParameterSet::integer(const std::string& key) const {
    return std::get<std::int64_t>(entry(key).value);
}
bool ParameterSet::boolean(const std::string& key) const {
    return std::get<bool>(entry(key).value);
}
const std::string& ParameterSet::string(const std::string& key) const {
    return std::get<std::string>(entry(key).value);
}
const ParamValue& ParameterSet::value(const std::string& key) const {
    return entry(key).value;
}
std::string ParameterSet::source(const std::string& key) const {
    const std::string& s = entry(key).source;
    return s == "default" && !origin_.empty() ? origin_ + " (default)" : s;
}

std::string ParameterSet::described(const std::string& key) const {
    return key + " = " + clipped(to_toml_text(value(key))) + " (" + source(key) + ")";
}

InputError ParameterSet::error(const std::string& key, const std::string& reason) const {
    return make_error(source(key), key, entry(key).value, reason);
}

std::string ParameterSet::to_toml() const {
    std::ostringstream os;
    std::string section = "\x01";
    for (const auto& s : parameter_specs()) {
        if (s.section() != section) {
            section = s.section();
            os << (os.tellp() > 0 ? "\n" : "") << "[" << section << "]\n";
        }
        const Entry& e = entry(s.key);
        os << s.name() << " = " << to_toml_text(e.value);
        if (e.source != "default") os << "  # from " << e.source;
        os << "\n";
    }
    return os.str();
}

std::string parameters_markdown() {
    std::ostringstream os;
    os << "# Parameter reference\n\n"
       << "Generated by `rubble params --markdown` from the single parameter table in\n"
       << "`src/io/parameter_specs.cpp`; a test fails if this file and the table disagree.\n"
       << "Every key can be set in the TOML parameter file (`[section]` then `name = value`)\n"
       << "or overridden on the command line as `--section.name value`.\n";
    std::string section = "\x01";
    for (const auto& s : parameter_specs()) {
        if (s.section() != section) {
            section = s.section();
            os << "\n## [" << section << "]\n\n"
               << "| key | type | unit | default | allowed | meaning |\n"
               << "|---|---|---|---|---|---|\n";
        }
        const char* t = s.type == ParamType::real      ? "real"
                        : s.type == ParamType::integer ? "integer"
                        : s.type == ParamType::boolean ? "boolean"
                                                       : "string";
        os << "| `" << s.key << "` | " << t << " | " << (s.unit.empty() ? "-" : s.unit) << " | `"
           << s.default_text << "` | " << (s.range_text().empty() ? "-" : s.range_text()) << " | "
           << s.help << " |\n";
    }
    return os.str();
}

} // namespace rubble::io
