// SPDX-License-Identifier: MIT
#pragma once
// Where a rank's time goes in a run over ranks (issue 34, item 8: each step's time split into
// compute, communication and waiting; `rubble run --rank-timings`, docs/mpi.md).
//
// A Communicator that forwards every collective to another after a synchronisation of all
// ranks, timing both: the synchronisation is the time this rank waited for the slowest rank to
// reach the collective (load imbalance), the collective after it the time the transfer itself
// took (latency and bandwidth), and the rest of the wall time is computation. Without the
// synchronisation the two are one number: a rank that arrives early waits inside the
// collective. It costs one more small reduction per collective, so timings are taken only
// when asked for, and they change no result (the collectives are the same, in the same
// order).
#include <chrono>
#include <cstdint>

#include "rubble/core/communicator.hpp"

namespace rubble::core {

/// What one rank spent since the last reset.
struct RankTimes {
    double waiting = 0.0;        ///< s, synchronising before each collective
    double communication = 0.0;  ///< s, in the collectives themselves
    std::int64_t bytes_sent = 0; ///< bytes this rank handed to all_gather_bytes and exchange
                                 ///< (to other ranks), and 8 per value of the reductions
    std::int64_t collectives = 0;
};

class TimedCommunicator final : public Communicator {
public:
    explicit TimedCommunicator(Communicator& inner) : inner_(inner) {}
    [[nodiscard]] int rank() const override { return inner_.rank(); }
    [[nodiscard]] int size() const override { return inner_.size(); }
    [[nodiscard]] std::string library() const override { return inner_.library(); }
    void barrier() override;
    [[nodiscard]] std::int64_t max(std::int64_t local) override;
    [[nodiscard]] std::int64_t sum(std::int64_t local) override;
    void max_in_place(std::vector<std::int64_t>& values) override;
    void sum_in_place(std::vector<std::int64_t>& values) override;
    void min_in_place(std::vector<double>& values) override;
    void max_in_place(std::vector<double>& values) override;
    [[nodiscard]] std::vector<std::int64_t> all_gather(std::int64_t local) override;
    [[nodiscard]] std::vector<std::vector<std::byte>>
    all_gather_bytes(std::span<const std::byte> local) override;
    [[nodiscard]] std::vector<std::vector<std::byte>>
    exchange(const std::vector<std::vector<std::byte>>& to_rank) override;

    [[nodiscard]] const RankTimes& times() const { return times_; }
    void reset() { times_ = {}; }

private:
    // Waits for every rank (timed as waiting), then times `op` as communication.
    template <class Op> decltype(auto) timed(std::int64_t bytes, Op&& op);
    Communicator& inner_;
    RankTimes times_;
};

} // namespace rubble::core
