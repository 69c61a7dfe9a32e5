// SPDX-License-Identifier: MIT
#pragma once
// SIGINT/SIGTERM ask a run to stop at the end of the current step, write a snapshot and leave
// a resumable file, instead of dying mid-write.
namespace rubble::cli {

/// Installs the handlers for the lifetime of the guard and restores the previous ones after.
class InterruptGuard {
public:
    InterruptGuard();
    ~InterruptGuard();
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;
};

[[nodiscard]] bool interrupt_requested();
void request_interrupt();
void clear_interrupt();

} // namespace rubble::cli
