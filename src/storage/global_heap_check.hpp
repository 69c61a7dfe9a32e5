// SPDX-License-Identifier: MIT
#pragma once
// A check of an HDF5 file's global heap collections before libhdf5 reads it.
//
// HDF5 keeps variable-length strings (rubble's string attributes: format, parameters, units)
// in global heap collections (HDF5 file format specification, section III.E): "GCOL", version
// 1, three reserved bytes, the collection's size, then objects of a 16-byte header (index,
// reference count, reserved, size) and their data padded to 8 bytes. libhdf5 1.10 trusts the
// object sizes: a garbled one makes it loop for ever or copy past its buffer (found by the
// fuzz test of the readers). So before a file is opened, every collection's objects must add
// up to the collection's size. The scan reads the file once (at disk speed); structure_check.hpp
// runs it and remembers the result.
#include <cstdint>
#include <string>

namespace rubble::storage {

/// Scans the `length` bytes of the open file `fd`; throws InputError naming `path` and the byte
/// offset if a global heap collection is garbled.
void check_global_heaps(int fd, std::uint64_t length, const std::string& path);

} // namespace rubble::storage
