// SPDX-License-Identifier: MIT
#pragma once
// A request to stop, set asynchronously (by the command line's SIGINT/SIGTERM handler) and
// polled by the long loops of the library: the event loop of a drift and the placement of
// initial conditions. Polling a flag keeps the library free of signal handling, and lets a
// loop leave at a point where its state can be thrown away cleanly (the caller redoes the
// step from its start on resume).
#include <csignal>
#include <stdexcept>

namespace rubble {

/// Thrown by a loop that saw a stop request. The work it abandons is redone on resume.
class Interrupted : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Set from a signal handler (async-signal-safe: a lock-free sig_atomic_t store).
void request_stop() noexcept;
void clear_stop_request() noexcept;
[[nodiscard]] bool stop_requested() noexcept;
/// Throws Interrupted (naming `where`) if a stop was requested.
void throw_if_stop_requested(const char* where);

} // namespace rubble
