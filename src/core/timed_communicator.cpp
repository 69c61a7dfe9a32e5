// SPDX-License-Identifier: MIT
#include "rubble/core/timed_communicator.hpp"

namespace rubble::core {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

} // namespace

template <class Op> decltype(auto) TimedCommunicator::timed(std::int64_t bytes, Op&& op) {
    // The synchronisation is a reduction of one integer, not barrier(): no rank leaves it
    // before all have come, and MPI polls for it, where barrier() sleeps between polls (to
    // leave an idle rank's core to the others) and would add its sleeps to the waiting.
    const auto arrived = Clock::now();
    (void)inner_.max(0);
    times_.waiting += seconds_since(arrived);
    ++times_.collectives;
    times_.bytes_sent += bytes;
    const auto start = Clock::now();
    struct Stop { // adds the collective's time on every way out, a throw included
        RankTimes& times;
        Clock::time_point start;
        ~Stop() { times.communication += seconds_since(start); }
    } stop{times_, start};
    return op();
}

void TimedCommunicator::barrier() {
    const auto arrived = Clock::now();
    inner_.barrier();
    times_.waiting += seconds_since(arrived);
}

std::int64_t TimedCommunicator::max(std::int64_t local) {
    return timed(8, [&] { return inner_.max(local); });
}

std::int64_t TimedCommunicator::sum(std::int64_t local) {
    return timed(8, [&] { return inner_.sum(local); });
}

void TimedCommunicator::max_in_place(std::vector<std::int64_t>& values) {
    timed(static_cast<std::int64_t>(8 * values.size()), [&] { inner_.max_in_place(values); });
}

void TimedCommunicator::sum_in_place(std::vector<std::int64_t>& values) {
    timed(static_cast<std::int64_t>(8 * values.size()), [&] { inner_.sum_in_place(values); });
}

void TimedCommunicator::min_in_place(std::vector<double>& values) {
    timed(static_cast<std::int64_t>(8 * values.size()), [&] { inner_.min_in_place(values); });
}

void TimedCommunicator::max_in_place(std::vector<double>& values) {
    timed(static_cast<std::int64_t>(8 * values.size()), [&] { inner_.max_in_place(values); });
}

std::vector<std::int64_t> TimedCommunicator::all_gather(std::int64_t local) {
    return timed(8, [&] { return inner_.all_gather(local); });
}

std::vector<std::vector<std::byte>>
TimedCommunicator::all_gather_bytes(std::span<const std::byte> local) {
    const auto others = static_cast<std::int64_t>(size() - 1);
    return timed(others * static_cast<std::int64_t>(local.size()),
                 [&] { return inner_.all_gather_bytes(local); });
}

std::vector<std::vector<std::byte>>
TimedCommunicator::exchange(const std::vector<std::vector<std::byte>>& to_rank) {
    std::int64_t bytes = 0;
    for (std::size_t r = 0; r < to_rank.size(); ++r)
        if (static_cast<int>(r) != rank()) bytes += static_cast<std::int64_t>(to_rank[r].size());
    return timed(bytes, [&] { return inner_.exchange(to_rank); });
}

} // namespace rubble::core
