// SPDX-License-Identifier: MIT
#pragma once
// The processes of one rubble job and what they tell each other (issue 34, docs/mpi.md).
//
// A run started as `rubble ...` is one process: the SerialCommunicator, for which every
// collective is the identity. Started as `mpirun -np P rubble-built-with-MPI ...` it is one
// of P ranks, and the MPI layer (src/mpi, linked only into the MPI build of the executable)
// hands the command line an MpiCommunicator over the same interface. The layers below the
// command line see only this interface, so the serial executable never links MPI and the
// code that runs over ranks is the code that runs serially with P = 1 (the way HOOMD-blue's
// ExecutionConfiguration carries its MPI configuration, but as an interface rather than
// #ifdef ENABLE_MPI in every layer: SWIFT and HOOMD pay for their #ifdefs with two code paths
// that are tested unequally).
//
// Every collective must be called by all ranks in the same order; what each returns is the
// same on every rank.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace rubble::core {

class Communicator {
public:
    virtual ~Communicator() = default;
    /// This process's rank, 0 to size() - 1.
    [[nodiscard]] virtual int rank() const = 0;
    /// The number of ranks.
    [[nodiscard]] virtual int size() const = 0;
    /// Which MPI library carries the ranks ("" for the serial communicator).
    [[nodiscard]] virtual std::string library() const = 0;
    /// Waits for every rank.
    virtual void barrier() = 0;
    /// The largest of the ranks' values.
    [[nodiscard]] virtual std::int64_t max(std::int64_t local) = 0;
    /// The sum of the ranks' values.
    [[nodiscard]] virtual std::int64_t sum(std::int64_t local) = 0;
    /// Element by element the largest of the ranks' vectors, which must have one length.
    virtual void max_in_place(std::vector<std::int64_t>& values) = 0;
    /// Element by element the sum of the ranks' vectors, which must have one length. Integer
    /// sums are exact, so the result does not depend on the order MPI adds in.
    virtual void sum_in_place(std::vector<std::int64_t>& values) = 0;
    /// Element by element the smallest (largest) of the ranks' vectors, which must have one
    /// length. Exact for doubles too, whatever the order.
    virtual void min_in_place(std::vector<double>& values) = 0;
    virtual void max_in_place(std::vector<double>& values) = 0;
    /// Every rank's value, in rank order.
    [[nodiscard]] virtual std::vector<std::int64_t> all_gather(std::int64_t local) = 0;
    /// Every rank's bytes, in rank order (MPI_Allgatherv). At most 2^31 - 1 bytes in all
    /// (MPI's int counts and displacements); beyond, std::length_error on every rank.
    [[nodiscard]] virtual std::vector<std::vector<std::byte>>
    all_gather_bytes(std::span<const std::byte> local) = 0;
    /// Sends to_rank[r] to rank r, for every r (to_rank has size() entries); returns what each
    /// rank sent this one, indexed by the sender's rank. What one rank sends in all, and what
    /// one rank receives in all, is at most 2^31 - 1 bytes (MPI's int counts and
    /// displacements); beyond, std::length_error on every rank: a caller with more sends it
    /// in several exchanges.
    [[nodiscard]] virtual std::vector<std::vector<std::byte>>
    exchange(const std::vector<std::vector<std::byte>>& to_rank) = 0;
};

/// One process: rank 0 of 1, collectives return their argument.
class SerialCommunicator final : public Communicator {
public:
    [[nodiscard]] int rank() const override { return 0; }
    [[nodiscard]] int size() const override { return 1; }
    [[nodiscard]] std::string library() const override { return ""; }
    void barrier() override {}
    [[nodiscard]] std::int64_t max(std::int64_t local) override { return local; }
    [[nodiscard]] std::int64_t sum(std::int64_t local) override { return local; }
    void max_in_place(std::vector<std::int64_t>& /*values*/) override {}
    void sum_in_place(std::vector<std::int64_t>& /*values*/) override {}
    void min_in_place(std::vector<double>& /*values*/) override {}
    void max_in_place(std::vector<double>& /*values*/) override {}
    [[nodiscard]] std::vector<std::int64_t> all_gather(std::int64_t local) override {
        return {local};
    }
    [[nodiscard]] std::vector<std::vector<std::byte>>
    all_gather_bytes(std::span<const std::byte> local) override {
        return {std::vector<std::byte>(local.begin(), local.end())};
    }
    [[nodiscard]] std::vector<std::vector<std::byte>>
    exchange(const std::vector<std::vector<std::byte>>& to_rank) override {
        return to_rank;
    }
};

/// The communicator of a process that is not one of several ranks.
[[nodiscard]] Communicator& serial_communicator();

} // namespace rubble::core
