// SPDX-License-Identifier: MIT
#include "rubble/core/stop_request.hpp"

#include <string>

namespace rubble {
namespace {

volatile std::sig_atomic_t stop_flag = 0;

} // namespace

void request_stop() noexcept {
    stop_flag = 1;
}

void clear_stop_request() noexcept {
    stop_flag = 0;
}

bool stop_requested() noexcept {
    return stop_flag != 0;
}

void throw_if_stop_requested(const char* where) {
    if (stop_flag != 0) throw Interrupted(std::string("stopped by a signal during ") + where);
}

} // namespace rubble
