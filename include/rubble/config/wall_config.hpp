// SPDX-License-Identifier: MIT
#pragma once
// The [[walls]] tables of a parameter file as walls (boundaries/wall.hpp), with the checks
// that involve several keys of a table, and the start-up check that no body starts inside a
// wall.
#include <string>
#include <vector>

#include "rubble/boundaries/fixed_hull.hpp"
#include "rubble/boundaries/wall.hpp"
#include "rubble/config/parameters.hpp"
#include "rubble/core/bodies.hpp"

namespace rubble::config {

/// The walls of the parameter set but its hulls, in table order, a box as its six planes; each
/// wall's name
/// says which table it came from ("walls[2] (cylinder, inside)"). Throws InputError (naming the
/// file and line, "walls[k].key" and the value) for a missing type, a key the type does not
/// take, a required key left out, a zero normal or axis, a box whose min is not below its max
/// in every coordinate, or a finite cylinder.
[[nodiscard]] std::vector<boundaries::Wall> make_walls(const ParameterSet& p,
                                                       std::vector<std::string>* sources = nullptr);

/// The [[walls]] tables of type hull as fixed hulls (boundaries/fixed_hull.hpp), in table
/// order, named "walls[k] (hull)"; `sources` gets where each table is. Throws InputError (naming
/// the file and line, "walls[k].key" and the value) for a vertex file that cannot be read or
/// has no hull, an angle without an axis, a zero axis.
[[nodiscard]] std::vector<boundaries::FixedHull>
make_fixed_hulls(const ParameterSet& p, std::vector<std::string>* sources = nullptr);

/// Refuses (InputError naming the wall's table, the wall, the body id and the depth) bodies
/// that start overlapping a wall by more than `tolerance` of their radius, at time t (s: the
/// walls may move): a sphere or an aggregate's constituent sphere, or a hull's vertex (the
/// bounding sphere of a hull outside a cylinder). `sources`: where each wall's table is
/// (make_walls).
void check_bodies_clear_of_walls(const std::vector<boundaries::Wall>& walls,
                                 const std::vector<std::string>& sources, const Bodies& b, double t,
                                 double tolerance);

/// Refuses (InputError naming the hull's table, the hull, the body id and the depth) polyhedral
/// bodies that start overlapping a fixed hull deeper than `tolerance` of their radius (the
/// sharp shapes, EPA depth). Bodies that are not polyhedra are left to make_stepper's refusal.
void check_bodies_clear_of_fixed_hulls(const std::vector<boundaries::FixedHull>& hulls,
                                       const std::vector<std::string>& sources, const Bodies& b,
                                       double tolerance);

} // namespace rubble::config
