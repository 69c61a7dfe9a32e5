// SPDX-License-Identifier: MIT
#pragma once
// Writing an HDF5 file so that a failed write cannot damage what it already holds.
//
// HDF5 updates a file in place: adding a snapshot rewrites the group's index, the extents of
// the appended series and their last chunks, and allocates the new objects at the end of the
// file. A write that fails half-way (a full disk, a file size limit) can leave the old index
// pointing at objects that were never written, and every earlier snapshot unreadable. So each
// write session first reserves, with posix_fallocate, more than the space it can need past the
// end of the file: once that succeeds no write of the session can fail for want of space, and
// if it fails nothing has been touched yet. HDF5 allocates from its own end of allocation and
// trims the file back to it when it closes, so the reservation costs nothing afterwards.
// Each session ends with fsync, so that what was written is on the disk before the next one
// starts (a crash of the machine keeps every completed session).
#include <cstdint>
#include <string>

namespace rubble::storage {

/// Extends `path` by `bytes` of reserved space past its end. Throws IoError (naming the file,
/// the size and the system's reason: no space, file too large) without changing the contents.
void reserve_space(const std::string& path, std::uint64_t bytes);

/// Flushes `path` (and, for a new file, its directory entry) to the disk. Throws IoError.
void make_durable(const std::string& path, bool new_file = false);

/// Bytes an HDF5 write session needs beyond its raw data: object headers, attributes, B-tree
/// nodes and heaps of the objects it creates or extends, with room to spare.
[[nodiscard]] std::uint64_t metadata_allowance(std::uint64_t objects);

} // namespace rubble::storage
