// SPDX-License-Identifier: MIT
#pragma once
// Internal invariant checks (docs/collisions.md, "Invariant checks"), compiled in by the CMake
// option RUBBLE_DEBUG_CHECKS (on in the debug-sanitize preset that CI runs). Without it,
// RUBBLE_CHECK compiles to nothing and evaluates neither its condition nor its message, so the
// checks can never change a result; its operands are still compiled (unevaluated, in sizeof),
// so a check cannot rot in the release build.
#include <stdexcept>
#include <string>

namespace rubble {

/// An internal invariant broken (a bug in rubble, not in the input): the CLI reports it as an
/// internal error, exit code 1. The message names the bodies, the time and the numbers.
class InvariantError : public std::logic_error {
public:
    using std::logic_error::logic_error;
};

/// True when the invariant checks are compiled in (for checks that need more than a condition,
/// e.g. a loop: `if constexpr (debug_checks) ...`).
#ifdef RUBBLE_DEBUG_CHECKS
inline constexpr bool debug_checks = true;
#else
inline constexpr bool debug_checks = false;
#endif

/// Throws InvariantError "invariant failed (file:line): message". Out of line, so that a check
/// costs its condition and a branch where it holds.
[[noreturn]] void invariant_failed(const char* file, int line, const std::string& message);

} // namespace rubble

#ifdef RUBBLE_DEBUG_CHECKS
/// Throws InvariantError with `message` (a std::string expression, evaluated only on failure)
/// when `condition` is false.
#define RUBBLE_CHECK(condition, message)                                                           \
    do {                                                                                           \
        if (!(condition)) ::rubble::invariant_failed(__FILE__, __LINE__, (message));               \
    } while (false)
#else
#define RUBBLE_CHECK(condition, message)                                                           \
    do {                                                                                           \
        static_cast<void>(sizeof(!(condition)));                                                   \
        static_cast<void>(sizeof(message));                                                        \
    } while (false)
#endif
