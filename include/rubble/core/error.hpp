// SPDX-License-Identifier: MIT
#pragma once
// Typed errors. Library code throws; only main() turns an error into an exit code.
#include <stdexcept>
#include <string>

namespace rubble {

/// Bad user input (parameter file, command line, initial-condition file). Exit code 2.
/// The message names where (file:line or "command line"), the key and the offending value.
class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
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
