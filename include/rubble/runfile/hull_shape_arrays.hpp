// SPDX-License-Identifier: MIT
#pragma once
// The catalogue of hull shapes as the arrays of the run file's /hull_shapes group
// (docs/output-format.md): every shape's vertices (body frame, about its centroid) and
// triangles concatenated, with the start of each shape's rows, and each shape's volume. The one
// layout that the run file stores and the Python module hands to numpy.
#include <cstdint>
#include <vector>

#include "rubble/core/bodies.hpp"

namespace rubble::runfile {

struct HullShapeArrays {
    std::vector<std::int64_t> vertex_start{0};   ///< shape k: vertices [start[k], start[k+1])
    std::vector<double> vertices;                ///< m, x y z per vertex
    std::vector<std::int64_t> triangle_start{0}; ///< shape k: triangles [start[k], start[k+1])
    std::vector<std::int64_t> triangles;         ///< vertex indices within the shape, 3 each
    std::vector<double> volume;                  ///< m^3, one per shape
};

/// `shapes` as the arrays of /hull_shapes.
[[nodiscard]] HullShapeArrays hull_shape_arrays(const HullShapes& shapes);

} // namespace rubble::runfile
