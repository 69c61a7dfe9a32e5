// SPDX-License-Identifier: MIT
#include "interrupt.hpp"

#include <csignal>

namespace rubble::cli {
namespace {

volatile std::sig_atomic_t flag = 0;
using Handler = void (*)(int);
Handler previous_int = SIG_DFL;
Handler previous_term = SIG_DFL;

extern "C" void on_signal(int) {
    flag = 1;
}

} // namespace

InterruptGuard::InterruptGuard() {
    flag = 0;
    previous_int = std::signal(SIGINT, on_signal);
    previous_term = std::signal(SIGTERM, on_signal);
}

InterruptGuard::~InterruptGuard() {
    std::signal(SIGINT, previous_int);
    std::signal(SIGTERM, previous_term);
}

bool interrupt_requested() {
    return flag != 0;
}
void request_interrupt() {
    flag = 1;
}
void clear_interrupt() {
    flag = 0;
}

} // namespace rubble::cli
