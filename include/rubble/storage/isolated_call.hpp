// SPDX-License-Identifier: MIT
#pragma once
// Runs a function in a forked child process, so that a crash in it cannot take rubble down.
//
// rubble reads files through libhdf5, which is not memory-safe on damaged files (1.10 reads
// past buffers, uses freed memory and dereferences garbage on some damaged object headers: the
// HDF5 reader fuzz test found each). structure_check.cpp walks a file's structure this way
// before rubble reads it in its own process, the way browsers parse untrusted formats in a
// process of their own.
#include <chrono>
#include <functional>
#include <string>

namespace rubble::storage {

struct IsolatedOutcome {
    bool ran = false;       ///< a child was started (false: fork failed; nothing is known)
    bool clean = false;     ///< the child returned from the function (exit status 0)
    bool timed_out = false; ///< killed after the time limit
    int signal = 0;         ///< the signal that ended it, if one did
    int exit_code = 0;      ///< its exit status, if it exited

    /// "crashed (signal 11)", "exited with status 1", "took more than 300 s", or "".
    [[nodiscard]] std::string describe() const;
};

/// Calls `f` in a child process (its standard output and error go to /dev/null; exceptions
/// count as a clean return) and waits for it at most `limit`, killing it then.
[[nodiscard]] IsolatedOutcome run_isolated(const std::function<void()>& f,
                                           std::chrono::seconds limit);

} // namespace rubble::storage
