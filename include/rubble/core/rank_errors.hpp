// SPDX-License-Identifier: MIT
#pragma once
// Errors of one rank made the error of every rank (issue 34; docs/plans/
// mpi-distributed-runs.md). When one rank of a run meets an error (a body no longer finite in
// its domain, a failed write on rank 0) and throws alone, the others wait in their next
// collective for ever. So a distributed loop calls throw_together at the points where every
// rank meets: each passes what it caught, or nothing, and if any rank caught something every
// rank throws the error of the lowest such rank, as the same kind (InputError, IoError,
// PhysicsError, Interrupted; anything else as std::runtime_error) with the same text. Every
// rank then leaves the same way with the same exit code, and rank 0, which prints, can say
// what went wrong wherever it happened.
#include <exception>

#include "rubble/core/communicator.hpp"

namespace rubble::core {

/// Collective. Rethrows `local` on this rank (one rank: unchanged), or the lowest failing
/// rank's error on every rank; returns when no rank has an error.
void throw_together(Communicator& world, std::exception_ptr local);

/// Runs `work` and then throw_together with what it threw: a step of a distributed loop
/// that may fail on some ranks only.
template <class Work> void together(Communicator& world, Work&& work) {
    std::exception_ptr error;
    try {
        work();
    } catch (...) {
        error = std::current_exception();
    }
    throw_together(world, error);
}

} // namespace rubble::core
