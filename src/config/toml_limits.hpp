// SPDX-License-Identifier: MIT
#pragma once
// Limits on parameter-file text, checked before toml++ sees it: toml++ builds (and destroys)
// one nested table per dotted-key component recursively, so a header nested 50,000 deep
// overflows the stack, and a device such as /dev/zero would be read until memory runs out.
// Internal to src/config.
#include <cstddef>
#include <string>

namespace rubble::config {

/// Parameter files are a few kB; 1 MiB leaves a wide margin and bounds what is read.
inline constexpr std::size_t max_parameter_file_bytes = std::size_t{1} << 20;
/// rubble's keys are at most 3 deep ("ic.cloud.n"); 32 leaves room for any hand-written file
/// while keeping toml++'s recursion shallow.
inline constexpr int max_toml_depth = 32;

/// Throws InputError "origin[:line]: ..." when `text` is longer than max_parameter_file_bytes,
/// contains a NUL byte, or nests keys, table headers, arrays or inline tables deeper than
/// max_toml_depth.
void check_toml_text(const std::string& text, const std::string& origin);

} // namespace rubble::config
