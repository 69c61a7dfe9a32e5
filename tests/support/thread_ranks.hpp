// SPDX-License-Identifier: MIT
#pragma once
// P ranks as P threads of one process, for testing code written against core::Communicator
// (domain decomposition, migration) at any rank count in the ordinary unit suite, under the
// sanitizers too, without mpirun. Each collective: every rank leaves its contribution in its
// slot, all wait, every rank computes the result from all slots in rank order, all wait again.
// The MPI suite (tests/mpi) runs the same checks over real ranks.
#include <algorithm>
#include <barrier>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <thread>
#include <vector>

#include "rubble/core/communicator.hpp"

namespace rubble::test {

class ThreadRanks {
public:
    explicit ThreadRanks(int ranks)
        : size_(ranks), sync_(ranks), ints_(static_cast<std::size_t>(ranks)),
          doubles_(static_cast<std::size_t>(ranks)), messages_(static_cast<std::size_t>(ranks)),
          gathered_(static_cast<std::size_t>(ranks)) {}

    /// Runs body(world) on every rank at once and waits for all.
    void run(const std::function<void(core::Communicator&)>& body) {
        std::vector<std::thread> threads;
        for (int r = 0; r < size_; ++r)
            threads.emplace_back([this, r, &body] {
                Rank world(*this, r);
                body(world);
            });
        for (auto& t : threads)
            t.join();
    }

private:
    class Rank final : public core::Communicator {
    public:
        Rank(ThreadRanks& all, int rank) : all_(all), rank_(rank) {}
        [[nodiscard]] int rank() const override { return rank_; }
        [[nodiscard]] int size() const override { return all_.size_; }
        [[nodiscard]] std::string library() const override { return "threads"; }
        void barrier() override { all_.sync_.arrive_and_wait(); }
        [[nodiscard]] std::int64_t max(std::int64_t local) override {
            std::vector<std::int64_t> v{local};
            max_in_place(v);
            return v[0];
        }
        [[nodiscard]] std::int64_t sum(std::int64_t local) override {
            std::vector<std::int64_t> v{local};
            sum_in_place(v);
            return v[0];
        }
        void max_in_place(std::vector<std::int64_t>& v) override {
            combine(all_.ints_, v, [](std::int64_t a, std::int64_t b) { return std::max(a, b); });
        }
        void sum_in_place(std::vector<std::int64_t>& v) override {
            combine(all_.ints_, v, [](std::int64_t a, std::int64_t b) { return a + b; });
        }
        void min_in_place(std::vector<double>& v) override {
            combine(all_.doubles_, v, [](double a, double b) { return std::min(a, b); });
        }
        void max_in_place(std::vector<double>& v) override {
            combine(all_.doubles_, v, [](double a, double b) { return std::max(a, b); });
        }
        [[nodiscard]] std::vector<std::int64_t> all_gather(std::int64_t local) override {
            all_.ints_[slot()] = {local};
            barrier();
            std::vector<std::int64_t> out;
            for (const auto& s : all_.ints_)
                out.push_back(s[0]);
            barrier();
            return out;
        }
        [[nodiscard]] std::vector<std::vector<std::byte>>
        all_gather_bytes(std::span<const std::byte> local) override {
            all_.gathered_[slot()].assign(local.begin(), local.end());
            barrier();
            std::vector<std::vector<std::byte>> out = all_.gathered_;
            barrier();
            return out;
        }
        [[nodiscard]] std::vector<std::vector<std::byte>>
        exchange(const std::vector<std::vector<std::byte>>& to_rank) override {
            all_.messages_[slot()] = to_rank;
            barrier();
            std::vector<std::vector<std::byte>> out;
            for (const auto& sent : all_.messages_)
                out.push_back(sent[slot()]);
            barrier();
            return out;
        }

    private:
        [[nodiscard]] std::size_t slot() const { return static_cast<std::size_t>(rank_); }
        template <class T, class Op>
        void combine(std::vector<std::vector<T>>& slots, std::vector<T>& v, Op op) {
            slots[slot()] = v;
            barrier();
            for (std::size_t i = 0; i < v.size(); ++i) {
                T x = slots[0][i];
                for (std::size_t r = 1; r < slots.size(); ++r)
                    x = op(x, slots[r][i]);
                v[i] = x;
            }
            barrier();
        }
        ThreadRanks& all_;
        int rank_;
    };

    int size_;
    std::barrier<> sync_;
    std::vector<std::vector<std::int64_t>> ints_;
    std::vector<std::vector<double>> doubles_;
    std::vector<std::vector<std::vector<std::byte>>> messages_;
    std::vector<std::vector<std::byte>> gathered_;
};

} // namespace rubble::test
