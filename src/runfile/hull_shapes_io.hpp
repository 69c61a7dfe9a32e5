// SPDX-License-Identifier: MIT
#pragma once
// The catalogue of hull shapes in a run file, written once per file (shapes never change during
// a run) in the group /hull_shapes: each shape's vertices (body frame, about its centroid) and
// triangles, concatenated, with the start of each shape's rows (docs/output-format.md). The
// reader rebuilds each polyhedron from its vertices and triangles (core/polyhedron.hpp), which
// gives back the same bits and checks that the surface is closed and convex. The arrays
// themselves: runfile/hull_shape_arrays.hpp.
#include <string>

#include "rubble/core/bodies.hpp"
#include "rubble/storage/hdf5_util.hpp"

namespace rubble::runfile {

/// Writes `shapes` as the group /hull_shapes of file f.
void write_hull_shapes(hid_t f, const HullShapes& shapes);

/// Reads /hull_shapes of file f (`where` names the file in errors). Throws InputError naming
/// the dataset or the shape for a missing group, inconsistent starts or a shape that is not a
/// closed convex polyhedron.
[[nodiscard]] HullShapes read_hull_shapes(hid_t f, const std::string& where);

} // namespace rubble::runfile
