// SPDX-License-Identifier: MIT
#pragma once
// The shapes sidecar of a run (docs/output-format.md, "Shapes sidecar for ParaView"): every
// grain model drawn as its true shape. Beside RUN.h5 it keeps RUN.shapes/NAME.h5 for each
// snapshot NAME (the world-frame geometry of runfile/scene_geometry.hpp: spheres with their
// radii and body ids, hull triangles, wall surfaces) and an XDMF file per kind of shape that
// the run has, RUN.spheres.xdmf, RUN.hulls.xdmf and RUN.walls.xdmf: each a temporal
// collection of one grid per snapshot, which ParaView opens as one data set, as it does the
// bodies' sidecar (a spatial collection of the three would open as a multiblock whose blocks
// ParaView renames at every time step, so that no filter could follow one). Like the XDMF
// sidecar it is derived data: each snapshot's file is written once the snapshot is durable,
// from the bodies in memory, and made again from the run file when it is missing, unreadable
// or from another snapshot of that name (a run that resumed from before it); files of
// snapshots the run no longer has are removed. Each file is written under a temporary name
// and renamed, so a reader never sees part of one.
#include <array>
#include <cstdint>
#include <map>
#include <string>

#include "rubble/core/bodies.hpp"
#include "rubble/runfile/scene_geometry.hpp"

namespace rubble::runfile {

/// The three kinds of shape, each in an XDMF file of its own.
enum class ShapeKind { spheres, hulls, walls };

/// RUN.spheres.xdmf, RUN.hulls.xdmf or RUN.walls.xdmf for RUN.h5 (the same directory and stem).
[[nodiscard]] std::string shapes_sidecar_path(const std::string& h5_path, ShapeKind kind);
/// RUN.shapes, the directory of the per-snapshot files.
[[nodiscard]] std::string shapes_directory(const std::string& h5_path);

class ShapesSidecar {
public:
    ShapesSidecar(std::string h5_path, Scene scene)
        : h5_path_(std::move(h5_path)), scene_(std::move(scene)) {}
    /// After snapshot `index` (time t, s; step) is durable in the run file: its file from the
    /// bodies `b` as written, then the XDMF. Throws IoError naming the file it cannot write.
    void add(std::int64_t index, const Bodies& b, double time, std::int64_t step);
    /// Brings the sidecar in line with the run file (see the header comment) and writes the
    /// XDMF; returns the number of snapshots it lists. Throws IoError as add().
    std::int64_t refresh();

private:
    void write_xdmf() const;
    std::string h5_path_;
    Scene scene_;
    std::map<std::string, std::array<std::string, 3>> grids_; ///< snapshot -> grid per kind
};

/// Removes a run's shapes sidecar (the XDMF and the per-snapshot files it names by pattern),
/// for a run file made anew in its place. Errors are ignored: the sidecar is derived data.
void remove_shapes_sidecar(const std::string& h5_path);

} // namespace rubble::runfile
