// SPDX-License-Identifier: MIT
#pragma once
// Fault injection into the writes of the undo journal's sessions (undo_journal.hpp): what its
// tests use to fail or end the process at every write of a session.
#include <cstdint>

namespace rubble::storage {

/// Fault injection for the tests of this guarantee: the writes of journaled sessions are
/// counted, and write number `at` (from 0) fails, either with an error (as a full disk or a
/// broken device would) or by ending the process after half of its bytes (as kill -9 would,
/// with a torn write). Internal; nothing but tests sets it.
struct WriteFault {
    enum class Kind { error, die_half_way };
    std::int64_t at = -1;
    Kind kind = Kind::error;
    std::int64_t writes = 0; ///< journaled writes seen so far
};
/// Installs `fault` (nullptr: none) for every later journaled write of this process.
void inject_write_fault(WriteFault* fault);

} // namespace rubble::storage
