// SPDX-License-Identifier: MIT
#pragma once
// Checks of an HDF5 file's structure before rubble reads it (run_file.cpp, open_rubble).
//
// libhdf5 1.10 (Debian 12's) trusts what a file says about itself, and a damaged file can make
// it loop for ever, read past its buffers or crash (the HDF5 reader fuzz test found each). A
// damaged file must instead be refused with an error naming it. Two checks, in order:
//   1. the global heap collections are scanned (global_heap_check.hpp): a garbled one made
//      libhdf5 loop for ever, in any process;
//   2. a child process (isolated_call.hpp) opens the file with libhdf5 and walks it: every
//      object header, every attribute read, every dataset's storage index checked
//      (hdf5_util.hpp, check_dataset_storage). If the child crashes or hangs, the file is
//      refused; if it returns, this process reads the same structures the same way.
// The result is remembered for as long as the file's device, inode, size and modification
// time stay the same, so a run that reads its own file many times (settling replay) pays once;
// a file changed in the last few seconds is known by a hash of its content instead (file times
// tick coarsely, and a file rewritten within one tick would pass for the file checked).
#include <string>

namespace rubble::storage {

/// Throws InputError (garbled heap) or IoError (libhdf5 failed in the child) naming `path`.
void check_structure(const std::string& path);

} // namespace rubble::storage
