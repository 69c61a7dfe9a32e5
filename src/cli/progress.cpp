// SPDX-License-Identifier: MIT
#include "progress.hpp"

#include <cstdio>
#include <string>
#include <utility>

namespace rubble::cli {

Progress::Progress(std::ostream& err, bool enabled, bool terminal, std::int64_t first_step,
                   std::int64_t last_step, std::string prefix)
    : err_(err), enabled_(enabled), terminal_(terminal), first_(first_step), last_(last_step),
      prefix_(std::move(prefix)), start_(Clock::now()), last_print_(start_) {}

void Progress::update(std::int64_t step, double time, double energy_error, double collisions) {
    if (!enabled_) return;
    const auto now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double since = std::chrono::duration<double>(now - last_print_).count();
    if (last_step_ < 0) {
        last_step_ = step;
        last_collisions_ = collisions;
    }
    if (elapsed < 3.0 || since < (terminal_ ? 0.5 : 10.0)) return;
    const std::int64_t steps_since = step - last_step_;
    const double collisions_since = collisions - last_collisions_;
    last_print_ = now;
    last_step_ = step;
    last_collisions_ = collisions;
    const double done = static_cast<double>(step - first_);
    const double rate = done / elapsed;
    const double eta = rate > 0 ? static_cast<double>(last_ - step) / rate : 0.0;
    char line[200];
    std::snprintf(line, sizeof line,
                  "t = %.6g s | step %lld/%lld (%.1f%%) | %.3g steps/s | ETA %.0f s | "
                  "|dE/E| = %.2e",
                  time, static_cast<long long>(step), static_cast<long long>(last_),
                  100.0 * static_cast<double>(step) / static_cast<double>(last_), rate, eta,
                  energy_error);
    std::string text = prefix_ + line;
    if (collisions >= 0.0 && steps_since > 0) {
        std::snprintf(line, sizeof line, " | %.3g collisions/step, %.3g/s",
                      collisions_since / static_cast<double>(steps_since),
                      collisions_since / since);
        text += line;
    }
    err_ << (terminal_ ? "\r" : "") << text << (terminal_ ? "" : "\n") << std::flush;
    printed_ = true;
}

void Progress::finish() {
    if (printed_ && terminal_) err_ << "\n";
}

} // namespace rubble::cli
