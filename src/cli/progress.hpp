// SPDX-License-Identifier: MIT
#pragma once
// One progress line on stderr for runs longer than a few seconds: simulated time, steps,
// steps/s, ETA, the energy error so far and, with collisions, the collisions per step and per
// wall-clock second since the previous line (what tells a dense phase from a stall). Rewritten in
// place on a terminal, a new line every 10 s otherwise (log files).
#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

namespace rubble::cli {

class Progress {
public:
    /// prefix: written before each line (a campaign's "run 3/24 (...): ").
    Progress(std::ostream& err, bool enabled, bool terminal, std::int64_t first_step,
             std::int64_t last_step, std::string prefix = "");
    /// collisions: the run's total so far (negative: collisions are off).
    void update(std::int64_t step, double time, double energy_error, double collisions = -1.0);
    void finish();

private:
    using Clock = std::chrono::steady_clock;
    std::ostream& err_;
    bool enabled_, terminal_, printed_ = false;
    std::int64_t first_, last_;
    std::int64_t last_step_ = -1;
    double last_collisions_ = -1.0;
    std::string prefix_;
    Clock::time_point start_, last_print_;
};

} // namespace rubble::cli
