// SPDX-License-Identifier: MIT
#pragma once
// An undo journal for HDF5 write sessions, so that a write interrupted at any byte (kill -9,
// a failed write(2), a crash of the program) leaves the file as it was before the session.
//
// HDF5 updates a file in place: adding a snapshot or appending rows rewrites the index of a
// group, the extent of a dataset, a node of a chunk B-tree. A process killed while it flushes
// those can leave old structures pointing at objects that were never written. The journal is
// the rollback journal of databases (SQLite's, for one), built into a virtual file driver:
// before the driver overwrites any byte that the file held when the session opened it, it
// appends the old bytes to FILE.journal; new space past the old end needs no copy. A session
// that ends well deletes the journal after fsync; one that fails is rolled back at once, and
// a journal found later (the process was killed) is rolled back by the next open of the file
// that can take its lock (FileLock): old bytes written back, the file cut to its old length.
#include <cstdint>
#include <string>

#include <hdf5.h>

#include "rubble/storage/write_fault.hpp"

namespace rubble::storage {

/// The journal's path for `path`.
[[nodiscard]] std::string journal_path(const std::string& path);

/// A file access property list for a read-write session on `path` whose contents before the
/// session are its first `old_size` bytes (space reserved past them holds nothing).
[[nodiscard]] hid_t journaled_access(std::uint64_t old_size);

/// Ends a session that succeeded: the file is made durable, then the journal is deleted.
void commit_journal(const std::string& path);

/// Restores the file from its journal, if there is one, and deletes the journal. Returns
/// whether there was one. Throws IoError if the journal cannot be applied.
bool roll_back_journal(const std::string& path);

} // namespace rubble::storage
