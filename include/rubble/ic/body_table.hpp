// SPDX-License-Identifier: MIT
#pragma once
// Bodies from a table and back (ic.type = "table", `rubble export --table`; the format is
// documented in docs/parameters.md, "Bodies from a table"): one row per body, its columns
// named by the header, so a user can place bodies from a spreadsheet or another code, and a
// snapshot written as a table reads back bit for bit.
//
// Each row is a free sphere (radius), a rigid aggregate (its spheres from a parts file) or a
// polyhedron (a built-in shape at a size, or an object of an OBJ file). Position is the centre
// of mass; a parts file or shape may use any origin and is moved so its centre of mass is at
// the body's origin (left as it is when it is there to 1e-12 of its size, which is what makes
// an exported table read back unchanged). What a user leaves out is derived: inertia and
// principal axes from the shape, mass from the density (or the density from the mass). What
// an export writes besides (principal moments and axes, the bounding radius, the free path
// of the f_crit rule) is taken as written once checked against the shape, so that nothing is
// recomputed with other round-off.
#include <string>
#include <vector>

#include "rubble/core/bodies.hpp"

namespace rubble::ic {

/// One column a body table may have.
struct BodyTableColumn {
    const char* name;
    const char* unit;
    const char* meaning;
};

/// Every column a body table may have, in the order an export writes them (docs).
[[nodiscard]] const std::vector<BodyTableColumn>& body_table_columns();

/// Relative agreement required between a value an export wrote (moments, radius, an
/// aggregate's total mass) and the one its shape implies: far above the round-off of
/// recomputing it, far below any real difference of shape or mass.
inline constexpr double table_agreement = 1e-9;

/// The bodies of the table at `path`, in row order, with the ids it gives. Files it names
/// (parts files, OBJ shapes) are found relative to the table's directory. Throws InputError
/// naming the file, line, column and cell of the first problem: an unknown or incomplete
/// column set, a cell that is not a number where one is needed, a value out of range, a
/// model whose columns are missing or contradict it, a file it names that cannot be read.
/// Overlaps, duplicate ids and the like are left to ic::validate_bodies.
[[nodiscard]] Bodies read_body_table(const std::string& path);

/// Writes `b` as a body table at `path` (CSV), with its aggregates' spheres in
/// STEM.parts.csv and its hull shapes in STEM.shapes.obj beside it when it has any (STEM:
/// `path` less a ".csv" or ".txt" ending), each file replaced atomically, companions first.
/// `comment` heads each file (where the bodies came from). Returns the paths written. Throws
/// IoError naming the file that could not be written.
std::vector<std::string> write_body_table(const Bodies& b, const std::string& path,
                                          const std::string& comment);

} // namespace rubble::ic
