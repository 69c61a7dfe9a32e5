// SPDX-License-Identifier: MIT
#include "rubble/mpi/mpi_session.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <limits>
#include <sched.h>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <mpi.h>
#include <omp.h>

namespace rubble::mpi {
namespace {

// Any failing MPI call ends the job: MPI's default handler on MPI_COMM_WORLD
// (MPI_ERRORS_ARE_FATAL) is kept, so a return code is never left unchecked.
class MpiCommunicator final : public core::Communicator {
public:
    MpiCommunicator() {
        MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
        MPI_Comm_rank(comm_, &rank_);
        MPI_Comm_size(comm_, &size_);
    }
    ~MpiCommunicator() override { MPI_Comm_free(&comm_); }
    MpiCommunicator(const MpiCommunicator&) = delete;
    MpiCommunicator& operator=(const MpiCommunicator&) = delete;

    [[nodiscard]] int rank() const override { return rank_; }
    [[nodiscard]] int size() const override { return size_; }
    [[nodiscard]] std::string library() const override {
        char text[MPI_MAX_LIBRARY_VERSION_STRING];
        int length = 0;
        MPI_Get_library_version(text, &length);
        std::string s(text, static_cast<std::size_t>(length));
        // The first line names the library and its version; the rest is build detail.
        if (const auto eol = s.find_first_of(",\n"); eol != std::string::npos) s.resize(eol);
        return s;
    }
    // Waits without spinning: a rank that has done its share (a campaign's last run) sleeps
    // while the others work and leaves them its core, where MPI_Barrier would poll at full
    // speed on an oversubscribed node. A millisecond at first, at most a tenth of a second.
    void barrier() override {
        MPI_Request request = MPI_REQUEST_NULL;
        MPI_Ibarrier(comm_, &request);
        auto pause = std::chrono::milliseconds(1);
        for (int done = 0;;) {
            MPI_Test(&request, &done, MPI_STATUS_IGNORE);
            if (done != 0) return;
            std::this_thread::sleep_for(pause);
            pause = std::min(2 * pause, std::chrono::milliseconds(100));
        }
    }
    [[nodiscard]] std::int64_t max(std::int64_t local) override {
        std::int64_t out = 0;
        MPI_Allreduce(&local, &out, 1, MPI_INT64_T, MPI_MAX, comm_);
        return out;
    }
    [[nodiscard]] std::int64_t sum(std::int64_t local) override {
        std::int64_t out = 0;
        MPI_Allreduce(&local, &out, 1, MPI_INT64_T, MPI_SUM, comm_);
        return out;
    }
    void max_in_place(std::vector<std::int64_t>& values) override {
        reduce(values.data(), values.size(), MPI_INT64_T, MPI_MAX);
    }
    void sum_in_place(std::vector<std::int64_t>& values) override {
        reduce(values.data(), values.size(), MPI_INT64_T, MPI_SUM);
    }
    void min_in_place(std::vector<double>& values) override {
        reduce(values.data(), values.size(), MPI_DOUBLE, MPI_MIN);
    }
    void max_in_place(std::vector<double>& values) override {
        reduce(values.data(), values.size(), MPI_DOUBLE, MPI_MAX);
    }
    [[nodiscard]] std::vector<std::int64_t> all_gather(std::int64_t local) override {
        std::vector<std::int64_t> out(static_cast<std::size_t>(size_));
        MPI_Allgather(&local, 1, MPI_INT64_T, out.data(), 1, MPI_INT64_T, comm_);
        return out;
    }
    [[nodiscard]] std::vector<std::vector<std::byte>>
    all_gather_bytes(std::span<const std::byte> local) override {
        const auto p = static_cast<std::size_t>(size_);
        // Sizes first, so that every rank knows them and refuses alike (-1: too large).
        const int mine = fits_int(local.size()) ? static_cast<int>(local.size()) : -1;
        std::vector<int> count(p), offset(p);
        MPI_Allgather(&mine, 1, MPI_INT, count.data(), 1, MPI_INT, comm_);
        std::size_t total = 0;
        bool fits = true;
        for (std::size_t r = 0; r < p; ++r) {
            fits = fits && count[r] >= 0 && fits_int(total);
            offset[r] = fits ? static_cast<int>(total) : 0;
            total += count[r] >= 0 ? static_cast<std::size_t>(count[r]) : 0;
        }
        if (!fits || !fits_int(total))
            throw std::length_error("all_gather_bytes: more than 2^31 - 1 bytes in all");
        std::vector<std::byte> all(total);
        MPI_Allgatherv(local.data(), mine, MPI_BYTE, all.data(), count.data(), offset.data(),
                       MPI_BYTE, comm_);
        std::vector<std::vector<std::byte>> out(p);
        for (std::size_t r = 0; r < p; ++r)
            out[r].assign(all.data() + offset[r], all.data() + offset[r] + count[r]);
        return out;
    }
    [[nodiscard]] std::vector<std::vector<std::byte>>
    exchange(const std::vector<std::vector<std::byte>>& to_rank) override {
        const auto p = static_cast<std::size_t>(size_);
        if (to_rank.size() != p)
            throw std::logic_error("Communicator::exchange: one message per rank is needed");
        // Every rank checks what it sends and receives in all, and all refuse together if
        // any cannot (MPI's counts and displacements are ints).
        std::size_t sending = 0;
        for (const auto& m : to_rank)
            sending += m.size();
        bool fits = fits_int(sending);
        std::vector<int> send_count(p), send_offset(p), receive_count(p), receive_offset(p);
        std::vector<std::byte> sent;
        if (fits) sent.reserve(sending);
        for (std::size_t r = 0; r < p; ++r) {
            send_count[r] = fits ? static_cast<int>(to_rank[r].size()) : 0;
            send_offset[r] = fits ? static_cast<int>(sent.size()) : 0;
            if (fits) sent.insert(sent.end(), to_rank[r].begin(), to_rank[r].end());
        }
        MPI_Alltoall(send_count.data(), 1, MPI_INT, receive_count.data(), 1, MPI_INT, comm_);
        std::size_t total = 0;
        for (std::size_t r = 0; r < p; ++r) {
            receive_offset[r] = fits_int(total) ? static_cast<int>(total) : 0;
            total += static_cast<std::size_t>(receive_count[r]);
        }
        fits = fits && fits_int(total);
        if (max(fits ? 0 : 1) != 0)
            throw std::length_error("exchange: a rank sends or receives more than 2^31 - 1 "
                                    "bytes in all");
        std::vector<std::byte> received(total);
        MPI_Alltoallv(sent.data(), send_count.data(), send_offset.data(), MPI_BYTE, received.data(),
                      receive_count.data(), receive_offset.data(), MPI_BYTE, comm_);
        std::vector<std::vector<std::byte>> out(p);
        for (std::size_t r = 0; r < p; ++r) {
            const auto* begin = received.data() + receive_offset[r];
            out[r].assign(begin, begin + receive_count[r]);
        }
        return out;
    }

private:
    // The vectors reduced have one length on every rank (the interface's contract), so a
    // length beyond MPI's int count fails alike everywhere.
    void reduce(void* values, std::size_t n, MPI_Datatype type, MPI_Op op) {
        if (!fits_int(n)) throw std::length_error("an MPI reduction of more than 2^31 - 1 values");
        MPI_Allreduce(MPI_IN_PLACE, values, static_cast<int>(n), type, op, comm_);
    }
    static bool fits_int(std::size_t n) {
        return n <= static_cast<std::size_t>(std::numeric_limits<int>::max());
    }

    MPI_Comm comm_ = MPI_COMM_NULL;
    int rank_ = 0;
    int size_ = 1;
};

// OpenMP threads per rank when OMP_NUM_THREADS does not say: the cores a rank may run on
// (its affinity mask, which a launcher's binding or a scheduler's cgroup narrows) shared with
// the other ranks of the node whose masks overlap it, instead of one thread per usable core
// each (P unbound ranks would oversubscribe the node P times, ranks bound to one socket the
// socket). Collective over the node's ranks, whatever the environment says, so that every
// rank makes the same calls.
void share_the_node_between_ranks(MPI_Comm world) {
    MPI_Comm node = MPI_COMM_NULL;
    MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int ranks_here = 1;
    MPI_Comm_size(node, &ranks_here);
    cpu_set_t mask;
    CPU_ZERO(&mask);
    const bool known = sched_getaffinity(0, sizeof mask, &mask) == 0;
    std::vector<cpu_set_t> masks(static_cast<std::size_t>(ranks_here));
    MPI_Allgather(&mask, static_cast<int>(sizeof mask), MPI_BYTE, masks.data(),
                  static_cast<int>(sizeof mask), MPI_BYTE, node);
    MPI_Comm_free(&node);
    if (!known || std::getenv("OMP_NUM_THREADS") != nullptr) return;
    int sharing = 0; // ranks whose cores overlap this one's, this one included
    for (cpu_set_t& other : masks) {
        cpu_set_t both;
        CPU_AND(&both, &mask, &other);
        sharing += CPU_COUNT(&both) > 0 ? 1 : 0;
    }
    if (sharing > 1) omp_set_num_threads(std::max(1, CPU_COUNT(&mask) / sharing));
}

} // namespace

MpiSession::MpiSession(int& argc, char**& argv) {
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    if (provided < MPI_THREAD_FUNNELED) {
        MPI_Finalize();
        throw std::runtime_error("the MPI library gives no MPI_THREAD_FUNNELED support, which "
                                 "rubble's OpenMP threads inside each rank need");
    }
    world_ = std::make_unique<MpiCommunicator>();
    share_the_node_between_ranks(MPI_COMM_WORLD);
}

MpiSession::~MpiSession() {
    world_.reset(); // frees its communicator before MPI ends
    MPI_Finalize();
}

core::Communicator& MpiSession::world() {
    return *world_;
}

} // namespace rubble::mpi
