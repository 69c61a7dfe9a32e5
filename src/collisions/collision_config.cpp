// SPDX-License-Identifier: MIT
#include "rubble/collisions/collision_config.hpp"

#include <charconv>
#include <cmath>
#include <string>

#include "rubble/core/error.hpp"

namespace rubble::collisions {
namespace {

void non_negative(const char* key, double x, const char* unit = "") {
    if (!(x >= 0.0) || !std::isfinite(x))
        throw KeyError(key, x, std::string("must be >= 0") + unit + " and finite");
}

std::string text(double x) {
    char buf[32];
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, x).ptr);
}

} // namespace

void check_collision_config(const CollisionConfig& c) {
    boundaries::check_contact_config(c);
    non_negative("collisions.stick_speed", c.stick_speed, " m/s");
    if (!(c.eps_t >= -1.0 && c.eps_t <= 1.0))
        throw KeyError("collisions.eps_t", c.eps_t, "must be in [-1, 1]");
    if (c.mu > 0.0 && c.eps_t != 1.0)
        throw KeyError("collisions.mu", c.mu,
                       "Coulomb friction replaces the tangential restitution: set "
                       "collisions.eps_t = 1 (now " +
                           text(c.eps_t) + ") or collisions.mu = 0");
    if (!(c.v_ref > 0.0) || !std::isfinite(c.v_ref))
        throw KeyError("collisions.eps_n_v_ref", c.v_ref, "must be > 0 m/s and finite");
    non_negative("collisions.eps_n_exponent", c.exponent);
    non_negative("collisions.f_crit", c.f_crit);
    non_negative("collisions.skin", c.skin);
    if (!(c.max_per_body >= 1 && c.max_per_body <= 1000000000))
        throw KeyError("collisions.max_per_body", static_cast<double>(c.max_per_body),
                       "must be in [1, 1e9]");
    non_negative("collisions.periodic_box", c.periodic_box, " m");
}

} // namespace rubble::collisions
