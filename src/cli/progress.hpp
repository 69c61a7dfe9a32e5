// SPDX-License-Identifier: MIT
#pragma once
// One progress line on stderr for runs longer than a few seconds: simulated time, steps,
// steps/s, ETA and the energy error so far. Rewritten in place on a terminal, a new line every
// 10 s otherwise (log files).
#include <chrono>
#include <cstdint>
#include <ostream>

namespace rubble::cli {

class Progress {
public:
    Progress(std::ostream& err, bool enabled, bool terminal, std::int64_t first_step,
             std::int64_t last_step);
    void update(std::int64_t step, double time, double energy_error);
    void finish();

private:
    using Clock = std::chrono::steady_clock;
    std::ostream& err_;
    bool enabled_, terminal_, printed_ = false;
    std::int64_t first_, last_;
    Clock::time_point start_, last_print_;
};

} // namespace rubble::cli
