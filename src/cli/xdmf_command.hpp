// SPDX-License-Identifier: MIT
#pragma once
// `rubble xdmf RUN.h5 ...`: writes the XDMF sidecar (RUN.xdmf, for ParaView) of existing run
// files, for runs written before rubble wrote sidecars or whose sidecar was lost. A run keeps
// its own sidecar current while it writes its file.
#include <ostream>
#include <string>
#include <vector>

namespace rubble::cli {

/// Returns 0 and says what it wrote on `out`. Throws InputError (exit 2: not a rubble output,
/// or a file a running rubble is writing) and IoError (exit 1: the sidecar cannot be written).
int xdmf_command(const std::vector<std::string>& paths, std::ostream& out);

} // namespace rubble::cli
