// SPDX-License-Identifier: MIT
#pragma once
// Typed errors. Library code throws; only main() turns an error into an exit code.
#include <charconv>
#include <stdexcept>
#include <string>

namespace rubble {

/// Bad user input (parameter file, command line, initial-condition file). Exit code 2.
/// The message names where (file:line or "command line"), the key and the offending value.
class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A bad value of one parameter, found by the check of the configuration struct that owns it
/// (boundaries::check_contact_config, polyhedra::check_nsc_config,
/// collisions::check_collision_config): "collisions.mu = -1: must be >= 0", the key as the
/// parameter file names it. config::make_run_config rethrows it naming the value's source.
class KeyError : public InputError {
public:
    KeyError(const std::string& key, double value, const std::string& reason)
        : InputError(key + " = " + text(value) + ": " + reason), key_(key), reason_(reason) {}
    /// A bad value of a key that takes a name ("collisions.solver_metric = \"diagonal\": ...").
    KeyError(const std::string& key, const std::string& value, const std::string& reason)
        : InputError(key + " = \"" + value + "\": " + reason), key_(key), reason_(reason) {}
    [[nodiscard]] const std::string& key() const { return key_; }
    [[nodiscard]] const std::string& reason() const { return reason_; }

private:
    static std::string text(double x) {
        char buf[32];
        const auto end = std::to_chars(buf, buf + sizeof buf, x).ptr; // shortest round trip
        return std::string(buf, end);
    }
    std::string key_;
    std::string reason_;
};

/// Failure to read or write an output/restart file. Exit code 1.
class IoError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The simulation reached a state it cannot honestly continue from (overlapping bodies under
/// collisions.overlaps = "abort", inelastic collapse beyond collisions.max_per_body). The
/// message names the bodies, the time and the parameter to change. Exit code 3; the output
/// keeps its last snapshot and stays marked incomplete, so nothing looks finished.
class PhysicsError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace rubble
