// SPDX-License-Identifier: MIT
#pragma once
// Replacing a small file so that a reader sees either the old contents or the new, never a
// part: the text goes to a temporary file in the same directory (rename is atomic only within
// one file system), is flushed to the disk, then renamed over the target, and the directory is
// flushed so the rename survives a crash of the machine (rename(2), POSIX; the same sequence
// as file_space.hpp's make_durable for a new file).
#include <string>

namespace rubble::storage {

/// Writes `text` to `path` atomically. Throws IoError naming the file and the system's reason;
/// on failure `path` is unchanged and the temporary file is removed.
void replace_file_atomically(const std::string& path, const std::string& text);

} // namespace rubble::storage
