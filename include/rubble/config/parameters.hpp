// SPDX-License-Identifier: MIT
#pragma once
// The single definition of every run parameter: name, type, unit, default, allowed range and
// help. The TOML reader, the command-line overrides, `rubble run --help`, the HDF5 record of
// a run and docs/parameters.md are all generated from parameter_specs(), so they cannot drift.
// A key bound to a member of RunConfig (ParamSpec::binding) takes its default from that
// member's initialiser, and make_run_config sets the member through the binding.
#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "rubble/core/error.hpp"

namespace rubble::config {

enum class ParamType { real, integer, boolean, string, vector };

/// Three real numbers, a TOML array such as [0.0, 0.0, -9.81] (a vector in SI units).
using ParamVector = std::array<double, 3>;
using ParamValue = std::variant<double, std::int64_t, bool, std::string, ParamVector>;

struct RunConfig; // config/run_config.hpp

/// The member of RunConfig a key sets (parameter_specs.cpp makes them from pointer-to-member
/// paths, as &RunConfig::collisions, &CollisionConfig::mu).
struct ParamBinding {
    /// The member's value, as the key's type holds it (a string option: its name).
    std::function<ParamValue(const RunConfig&)> get;
    /// Sets the member from a value the key's spec accepted; false when a string option's name
    /// has no value (a name the table allows but the member's table of names lacks: a bug).
    std::function<bool(RunConfig&, const ParamValue&)> set;
    [[nodiscard]] explicit operator bool() const { return static_cast<bool>(set); }
};

struct ParamSpec {
    std::string key;          ///< "section.name" (sections may nest: "ic.cloud.n")
    ParamType type;           ///< value type in the TOML file
    std::string unit;         ///< SI unit ("" if dimensionless)
    std::string default_text; ///< default, as it would be written in TOML
    std::string help;         ///< one sentence
    double lower = -std::numeric_limits<double>::infinity(); ///< (a vector: each component)
    double upper = std::numeric_limits<double>::infinity();
    bool lower_open = false;          ///< lower bound excluded
    bool upper_open = false;          ///< upper bound excluded
    std::vector<std::string> choices; ///< allowed values of a string parameter (empty: any)
    /// The member of RunConfig it sets, whose initialiser gave default_text; empty for the keys
    /// make_run_config reads by hand (ic.cloud.grain_file, which no member holds, and the
    /// [[walls]] keys).
    ParamBinding binding;

    [[nodiscard]] std::string section() const;    ///< "ic.cloud" for "ic.cloud.n"
    [[nodiscard]] std::string name() const;       ///< "n" for "ic.cloud.n"
    [[nodiscard]] std::string range_text() const; ///< "> 0", "in [0, 1)", "one of a|b", ""
};

/// All parameters, in the order they are documented.
[[nodiscard]] const std::vector<ParamSpec>& parameter_specs();
/// The spec of `key`, or nullptr.
[[nodiscard]] const ParamSpec* find_spec(const std::string& key);
/// The known key closest to `key` (for "did you mean"), or "".
[[nodiscard]] std::string closest_key(const std::string& key);

/// The keys of one wall table, `[[walls]]` in the TOML file ("walls.type", "walls.radius",
/// ...: section "walls"), in the order they are documented; which keys each wall type takes is
/// checked by config/wall_config.hpp.
[[nodiscard]] const std::vector<ParamSpec>& wall_specs();
/// The wall key `name` ("radius"), or nullptr.
[[nodiscard]] const ParamSpec* find_wall_spec(const std::string& name);
/// The wall key closest to `name` (for "did you mean"), or "".
[[nodiscard]] std::string closest_wall_key(const std::string& name);

/// Text of a value as TOML writes it ("1.5", "3", "true", "\"a\"").
[[nodiscard]] std::string to_toml_text(const ParamValue& v);
/// A derived number in a message, to 3 digits ("1.25", "2.7e+19").
[[nodiscard]] std::string approx_text(double x);

/// A complete, validated set of values: every key of parameter_specs(), each with its source.
class ParameterSet {
public:
    /// Every parameter at its default.
    ParameterSet();

    /// Sets `key` from a typed value, validating type, finiteness and range. `source` says
    /// where it came from ("run.toml:12", "command line"). Throws InputError naming source,
    /// key, value, unit and the allowed range.
    void set(const std::string& key, const ParamValue& value, const std::string& source);
    /// Sets `key` from command-line text, parsed according to the key's type.
    void set_from_text(const std::string& key, const std::string& text, const std::string& source);

    [[nodiscard]] double real(const std::string& key) const;
    [[nodiscard]] std::int64_t integer(const std::string& key) const;
    [[nodiscard]] bool boolean(const std::string& key) const;
    [[nodiscard]] const std::string& string(const std::string& key) const;
    [[nodiscard]] const ParamVector& vector(const std::string& key) const;
    [[nodiscard]] const ParamValue& value(const std::string& key) const;
    /// Where the value came from: "file:line", "command line (--key)", "default", or
    /// "file (default)" once set_origin() named the file the other values were read from.
    [[nodiscard]] std::string source(const std::string& key) const;
    /// Whether `key` was given (by a file or the command line), not left at its default.
    [[nodiscard]] bool given(const std::string& key) const;

    /// Names the file the set was read from, so that messages about keys it leaves at their
    /// default still name it (an empty file is refused as "run.toml (default): ...").
    void set_origin(const std::string& origin) { origin_ = origin; }

    /// "key = value (source)": how a message names the other keys it depends on.
    [[nodiscard]] std::string described(const std::string& key) const;

    /// An InputError for `key` with its current value and source: "src: key = v: reason".
    [[nodiscard]] InputError error(const std::string& key, const std::string& reason) const;

    /// All values as a TOML document, one table per section, each value commented with its
    /// source, then one [[walls]] table per wall. Parsing it back gives the same set (bitwise
    /// for reals).
    [[nodiscard]] std::string to_toml() const;

    // Walls: an array of tables, each holding only the keys the file gave it (defaults and
    // the keys each type needs are the business of config/wall_config.hpp).
    /// Starts wall table number wall_count(), from `source` ("run.toml:12", its header).
    void add_wall(const std::string& source);
    /// Sets key `name` ("radius") of wall table k, validating it against wall_specs(); throws
    /// InputError naming source, "walls[k].name", the value, unit and range.
    void set_wall(std::size_t k, const std::string& name, const ParamValue& value,
                  const std::string& source);
    [[nodiscard]] std::size_t wall_count() const { return walls_.size(); }
    /// Where wall table k starts ("run.toml:12").
    [[nodiscard]] const std::string& wall_source(std::size_t k) const;
    /// Key `name` of wall table k, or nullptr when the file did not give it.
    [[nodiscard]] const ParamValue* wall_value(std::size_t k, const std::string& name) const;
    /// Where key `name` of wall table k was set (the table's own source if it was not).
    [[nodiscard]] std::string wall_key_source(std::size_t k, const std::string& name) const;
    /// The names of the keys wall table k gave, in alphabetical order.
    [[nodiscard]] std::vector<std::string> wall_keys(std::size_t k) const;
    /// An InputError for key `name` of wall table k: "src: walls[k].name = v: reason", or
    /// "src: walls[k]: reason" for a key it does not have.
    [[nodiscard]] InputError wall_error(std::size_t k, const std::string& name,
                                        const std::string& reason) const;

private:
    struct Entry {
        ParamValue value;
        std::string source;
    };
    struct WallTable {
        std::string source;
        std::map<std::string, Entry> entries;
    };
    const Entry& entry(const std::string& key) const;
    std::map<std::string, Entry> entries_;
    std::vector<WallTable> walls_;
    std::string origin_;
};

/// Reads a TOML parameter file over the defaults. Throws InputError for an unreadable file,
/// malformed TOML, an unknown key, a wrong type or an out-of-range value.
[[nodiscard]] ParameterSet load_parameter_file(const std::string& path);
/// Same, from TOML text; `origin` names it in messages. Keys under the top-level table
/// `reserved` (when not empty) are left out: a campaign file's [campaign] sweep, which
/// campaign/campaign.hpp reads.
[[nodiscard]] ParameterSet parse_parameters(const std::string& toml_text, const std::string& origin,
                                            const std::string& reserved = "");
/// The text of a parameter file, refusing directories, devices and oversized files.
[[nodiscard]] std::string read_parameter_text(const std::string& path);

/// docs/parameters.md, generated from parameter_specs().
[[nodiscard]] std::string parameters_markdown();

} // namespace rubble::config
