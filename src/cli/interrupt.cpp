// SPDX-License-Identifier: MIT
#include "rubble/cli/interrupt.hpp"

#include <csignal>
#include <unistd.h>

#include "rubble/core/stop_request.hpp"

namespace rubble::cli {
namespace {

volatile std::sig_atomic_t deferred = 0;
int depth = 0; // guards alive (set and read outside signal handlers only)

// Only async-signal-safe calls here: write(2) and _exit(2).
void say_and_exit(const char* text, std::size_t length) {
    ssize_t ignored = write(STDERR_FILENO, text, length);
    (void)ignored;
    _exit(interrupted_exit_code);
}

extern "C" void on_signal(int) {
    if (deferred == 0) {
        static const char text[] = "\nrubble: interrupted while setting up; nothing was written\n";
        say_and_exit(text, sizeof text - 1);
    }
    if (stop_requested()) {
        static const char text[] =
            "\nrubble: second signal: stopped at once; --resume continues from the last "
            "snapshot\n";
        say_and_exit(text, sizeof text - 1);
    }
    request_stop();
}

void install(int signal, struct sigaction* previous) {
    struct sigaction action {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART; // interrupted reads and writes carry on
    sigaction(signal, &action, previous);
}

} // namespace

InterruptGuard::InterruptGuard() : previous_deferred_(deferred), outermost_(depth == 0) {
    ++depth;
    deferred = 0;
    if (outermost_) clear_stop_request();
    install(SIGINT, &previous_int_);
    install(SIGTERM, &previous_term_);
}

InterruptGuard::~InterruptGuard() {
    sigaction(SIGINT, &previous_int_, nullptr);
    sigaction(SIGTERM, &previous_term_, nullptr);
    deferred = previous_deferred_;
    --depth;
}

void InterruptGuard::defer() {
    deferred = 1;
}

} // namespace rubble::cli
