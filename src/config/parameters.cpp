// SPDX-License-Identifier: MIT
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>

#include "rubble/config/parameters.hpp"
#include "rubble/ic/body_table.hpp"

namespace rubble::config {
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
    case ParamType::vector:
        return "an array of 3 real numbers";
    }
    return "?";
}

const char* value_type_name(const ParamValue& v) {
    switch (v.index()) {
    case 0:
        return "a real";
    case 1:
        return "an integer";
    case 2:
        return "a boolean";
    case 3:
        return "a string";
    default:
        return "an array";
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

// "[x, y, z]" or "x,y,z" (the command line), or nothing.
std::optional<ParamVector> parse_vector(std::string text) {
    if (text.size() >= 2 && text.front() == '[' && text.back() == ']')
        text = text.substr(1, text.size() - 2);
    ParamVector out{};
    const char* at = text.c_str();
    for (int d = 0; d < 3; ++d) {
        char* end = nullptr;
        errno = 0;
        out[static_cast<std::size_t>(d)] = std::strtod(at, &end);
        if (end == at || errno == ERANGE) return std::nullopt;
        at = end;
        while (*at == ' ')
            ++at;
        if (d < 2 && *at++ != ',') return std::nullopt;
    }
    if (*at != '\0') return std::nullopt;
    return out;
}

// Brings `v` to the spec's type and checks it; throws on any violation. `shown` is the key as
// messages name it (the spec's key, or "walls[2].radius").
ParamValue validated(const ParamSpec& s, const ParamValue& v, const std::string& source,
                     const std::string& shown) {
    const auto fail = [&](const std::string& reason) {
        return make_error(source, shown, v, reason);
    };
    const auto wrong_type = [&] {
        return fail(std::string("expected ") + type_name(s.type) + with_unit(s) + ", got " +
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
    case ParamType::vector: {
        const auto* x = std::get_if<ParamVector>(&v);
        if (!x) throw wrong_type();
        for (const double c : *x) {
            if (!std::isfinite(c)) throw fail("every component must be finite");
            if (!in_range(s, c))
                throw fail("every component must be " + s.range_text() + with_unit(s));
        }
        return v;
    }
    }
    return v;
}

ParamValue validated(const ParamSpec& s, const ParamValue& v, const std::string& source) {
    return validated(s, v, source, s.key);
}

} // namespace

std::string to_toml_text(const ParamValue& v) {
    if (const auto* x = std::get_if<ParamVector>(&v)) {
        std::string out = "[";
        for (std::size_t d = 0; d < 3; ++d) {
            out += to_toml_text((*x)[d]);
            out += d < 2 ? ", " : "]";
        }
        return out;
    }
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
        case ParamType::vector:
            v = parse_vector(s.default_text).value();
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
    case ParamType::vector: {
        const auto x = parse_vector(text);
        if (!x) throw bad("three real numbers, \"x,y,z\"");
        set(key, *x, source);
        return;
    }
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
const ParamVector& ParameterSet::vector(const std::string& key) const {
    return std::get<ParamVector>(entry(key).value);
}
const ParamValue& ParameterSet::value(const std::string& key) const {
    return entry(key).value;
}
std::string ParameterSet::source(const std::string& key) const {
    const std::string& s = entry(key).source;
    return s == "default" && !origin_.empty() ? origin_ + " (default)" : s;
}

bool ParameterSet::given(const std::string& key) const {
    return entry(key).source != "default";
}

std::string ParameterSet::described(const std::string& key) const {
    return key + " = " + clipped(to_toml_text(value(key))) + " (" + source(key) + ")";
}

InputError ParameterSet::error(const std::string& key, const std::string& reason) const {
    return make_error(source(key), key, entry(key).value, reason);
}

namespace {
std::string wall_key(std::size_t k, const std::string& name) {
    return "walls[" + std::to_string(k) + "]" + (name.empty() ? "" : "." + name);
}
} // namespace

void ParameterSet::add_wall(const std::string& source) {
    walls_.push_back(WallTable{source, {}});
}

void ParameterSet::set_wall(std::size_t k, const std::string& name, const ParamValue& value,
                            const std::string& source) {
    const ParamSpec* s = find_wall_spec(name);
    if (!s) {
        const std::string near = closest_wall_key(name);
        throw InputError(source + ": unknown key '" + clipped(name) + "' in " + wall_key(k, "") +
                         (near.empty() ? "" : " (did you mean '" + near + "'?)"));
    }
    walls_.at(k).entries[name] = Entry{validated(*s, value, source, wall_key(k, name)), source};
}

const std::string& ParameterSet::wall_source(std::size_t k) const {
    return walls_.at(k).source;
}

const ParamValue* ParameterSet::wall_value(std::size_t k, const std::string& name) const {
    const auto& e = walls_.at(k).entries;
    const auto it = e.find(name);
    return it == e.end() ? nullptr : &it->second.value;
}

std::string ParameterSet::wall_key_source(std::size_t k, const std::string& name) const {
    const auto& e = walls_.at(k).entries;
    const auto it = e.find(name);
    return it == e.end() ? walls_.at(k).source : it->second.source;
}

std::vector<std::string> ParameterSet::wall_keys(std::size_t k) const {
    std::vector<std::string> out;
    for (const auto& [name, e] : walls_.at(k).entries)
        out.push_back(name);
    return out;
}

InputError ParameterSet::wall_error(std::size_t k, const std::string& name,
                                    const std::string& reason) const {
    if (const ParamValue* v = wall_value(k, name))
        return make_error(wall_key_source(k, name), wall_key(k, name), *v, reason);
    return InputError(wall_source(k) + ": " + wall_key(k, "") + ": " + reason);
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
    for (const WallTable& w : walls_) {
        os << "\n[[walls]]  # from " << w.source << "\n";
        // In the documented order, so that "type" comes first.
        for (const ParamSpec& s : wall_specs()) {
            const auto it = w.entries.find(s.name());
            if (it == w.entries.end()) continue;
            os << s.name() << " = " << to_toml_text(it->second.value) << "  # from "
               << it->second.source << "\n";
        }
    }
    return os.str();
}

namespace {
const char* type_text(ParamType t) {
    switch (t) {
    case ParamType::real:
        return "real";
    case ParamType::integer:
        return "integer";
    case ParamType::boolean:
        return "boolean";
    case ParamType::string:
        return "string";
    case ParamType::vector:
        return "real[3]";
    }
    return "?";
}

void markdown_row(std::ostream& os, const ParamSpec& s, const std::string& key) {
    os << "| `" << key << "` | " << type_text(s.type) << " | " << (s.unit.empty() ? "-" : s.unit)
       << " | `" << s.default_text << "` | " << (s.range_text().empty() ? "-" : s.range_text())
       << " | " << s.help << " |\n";
}
// The format of ic.table.path (ic/body_table.hpp), from its own list of columns.
void body_table_markdown(std::ostream& os) {
    os << "\n## Bodies from a table (ic.type = \"table\")\n\n"
       << "`ic.table.path` names a table with one row per body: a header line naming its\n"
       << "columns, then one row per line, comma-separated when the header holds a comma (an\n"
       << "empty cell: not given) or else separated by spaces; lines starting with `#` are\n"
       << "comments. Files the table names are found relative to its directory. A row is a\n"
       << "free sphere (`radius`), a rigid aggregate (`parts`) or a polyhedron (`shape`); its\n"
       << "position is its centre of mass, and a parts file or shape may use any origin (it is\n"
       << "moved so its centre of mass is at the body's origin). What a row leaves out is\n"
       << "derived: moments and principal axes from the shape, mass from the density or the\n"
       << "density from the mass. Columns that make one quantity come together, in the\n"
       << "header and in each row: x, y and z all given, or vx, vy and vz all left empty\n"
       << "(then 0); a whitespace-separated table has no empty cells, so a column it has is\n"
       << "given in every row. A parts file has columns x, y, z, radius (m, the body frame),\n"
       << "optionally mass (kg) or density (kg/m^3), and body to hold several aggregates\n"
       << "(FILE.csv#ID picks the rows of body ID). Every error names the file, the line and\n"
       << "the column. `rubble export RUN.h5 --snapshot K --table FILE.csv` writes a snapshot\n"
       << "in this format (its aggregates' spheres in FILE.parts.csv, its hull shapes in\n"
       << "FILE.shapes.obj), with the moments, axes, bounding radii and free paths a run holds,\n"
       << "so that a run started from it reads the same bodies bit for bit (set\n"
       << "`ic.centre_of_mass_frame = false` to keep them where they are; the run starts at\n"
       << "t = 0, the snapshot's time is in the table's first comment line).\n\n"
       << "| column | unit | meaning |\n"
       << "|---|---|---|\n";
    for (const ic::BodyTableColumn& c : ic::body_table_columns())
        os << "| `" << c.name << "` | " << (*c.unit ? c.unit : "-") << " | "
           << (*c.meaning ? c.meaning : "(with the column above)") << " |\n";
}

} // namespace

std::string parameters_markdown() {
    std::ostringstream os;
    os << "# Parameter reference\n\n"
       << "Generated by `rubble params --markdown` from the single parameter table in\n"
       << "`src/config/parameter_specs.cpp`; a test fails if this file and the table disagree.\n"
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
        markdown_row(os, s, s.key);
    }
    os << "\n## [[walls]]\n\n"
       << "Walls the spheres collide with (docs/collisions.md, \"Walls\"): one `[[walls]]` table\n"
       << "per wall, any number of them, with `collisions.enabled = true`. The keys a table may\n"
       << "hold depend on its `type`; a key of another type, an unknown key or a missing one is\n"
       << "refused. Walls cannot be set on the command line. `-` as default: required.\n\n"
       << "| key | type | unit | default | allowed | meaning |\n"
       << "|---|---|---|---|---|---|\n";
    for (const auto& s : wall_specs())
        markdown_row(os, s, s.name());
    body_table_markdown(os);
    return os.str();
}

} // namespace rubble::config
