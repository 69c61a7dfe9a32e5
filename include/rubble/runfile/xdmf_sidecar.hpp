// SPDX-License-Identifier: MIT
#pragma once
// The XDMF sidecar of a run (docs/output-format.md, "XDMF sidecar for ParaView"): RUN.xdmf
// beside RUN.h5, a temporal collection of the snapshots in which each body is a point carrying
// the snapshot's per-body datasets as attributes. It holds no data, only references into the
// HDF5 file by its bare name, so the pair can be moved together. It is derived data: written
// from what the HDF5 file holds, after every snapshot and on resume by RunFile, and by
// `rubble xdmf RUN.h5` for runs written before it existed.
#include <cstdint>
#include <map>
#include <string>

namespace rubble::runfile {

/// The sidecar of the HDF5 file `h5_path`: the same directory and stem with the extension
/// .xdmf (RUN.h5 -> RUN.xdmf). A run file that itself ends in .xdmf gets RUN.xdmf.xdmf.
[[nodiscard]] std::string xdmf_sidecar_path(const std::string& h5_path);

/// The sidecar of one run file, for the RunFile that writes it. It keeps the text of the
/// snapshots it has described, so that writing the sidecar after a snapshot reads the metadata
/// of the new snapshot only (a snapshot is never changed once written; forget() after any
/// are removed, since a later one may take the same name).
class XdmfSidecar {
public:
    explicit XdmfSidecar(std::string h5_path) : h5_path_(std::move(h5_path)) {}
    /// Writes the sidecar from what the file holds, as write_xdmf_sidecar.
    std::int64_t write();
    void forget() { grids_.clear(); }

private:
    std::string h5_path_;
    std::map<std::string, std::string> grids_; ///< snapshot name -> its grid ("" if none)
};

/// Writes the sidecar of the rubble output `h5_path` (atomically: a reader never sees part of
/// it) and returns the number of snapshots it lists. Every group under /snapshots with a finite
/// `time`, a one-dimensional `id` of N > 0 rows and an N x 3 `position` becomes one time step;
/// each other numeric dataset of N rows in it becomes a point attribute of its shape (N:
/// scalar, N x 3: vector, N x 6: symmetric tensor, N x 9 or N x 3 x 3: tensor, else matrix).
/// Subgroups, and datasets of another length or type, are left out. Reads the file only.
/// Throws IoError (naming the file) if it cannot read it or write the sidecar, or if the file
/// name contains ':' (which XDMF cannot refer to).
std::int64_t write_xdmf_sidecar(const std::string& h5_path);

} // namespace rubble::runfile
