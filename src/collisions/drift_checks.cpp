// SPDX-License-Identifier: MIT
#include "rubble/collisions/drift_checks.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>

#include "rubble/core/debug_checks.hpp"

namespace rubble::collisions::checks {
namespace {

// Enough digits to tell two event times or a depth from its tolerance apart.
std::string number(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", x);
    return buf;
}

std::string at(double time) {
    return " at t = " + number(time) + " s";
}

} // namespace

void pair_clear(const SphereAt& a, const SphereAt& b, double tolerance, double time) {
    const double sigma = a.radius + b.radius;
    const double depth = sigma - (b.pos - a.pos).norm();
    RUBBLE_CHECK(!(depth > tolerance * sigma),
                 "bodies " + std::to_string(a.id) + " and " + std::to_string(b.id) +
                     " overlap by " + number(depth) + " m" + at(time) + ", beyond the tolerance " +
                     number(tolerance) + " x (R1 + R2) = " + number(tolerance * sigma) +
                     " m (a missed collision)");
}

void wall_clear(const SphereAt& s, const boundaries::Wall& w, std::size_t wall, const Vec3& p,
                double tolerance, double time) {
    const double depth = -boundaries::wall_gap(w, p, s.pos, s.radius).gap;
    RUBBLE_CHECK(!(depth > tolerance * s.radius),
                 "body " + std::to_string(s.id) + " overlaps wall " + std::to_string(wall) + " (" +
                     w.name + ") by " + number(depth) + " m" + at(time) +
                     ", beyond the tolerance " + number(tolerance) +
                     " x R = " + number(tolerance * s.radius) + " m (a missed wall contact)");
}

void no_earlier_contact(std::int64_t id, std::int64_t partner, double event_time,
                        double contact_time) {
    RUBBLE_CHECK(!(contact_time < event_time),
                 "body " + std::to_string(id) + " is resolved" + at(event_time) + " but touches " +
                     (partner < 0 ? "wall " + std::to_string(-1 - partner)
                                  : "body " + std::to_string(partner)) +
                     " earlier, at t = " + number(contact_time) +
                     " s (predicted afresh): the event queue missed that contact");
}

void inside_box(const Bodies& b, double box, double time) {
    if constexpr (!debug_checks) return;
    if (!(box > 0.0)) return;
    for (std::size_t k = 0; k < b.size(); ++k)
        for (int d = 0; d < 3; ++d) {
            const double x = b.pos[k][d];
            RUBBLE_CHECK(x >= -0.5 * box && x < 0.5 * box,
                         "body " + std::to_string(b.id[k]) + " has coordinate " +
                             std::to_string(d) + " = " + number(x) + " m" + at(time) +
                             ", outside the periodic box [-L/2, L/2) with L = " + number(box) +
                             " m");
        }
}

void ids_consistent(const Bodies& b, double time) {
    if constexpr (!debug_checks) return;
    try {
        b.check_consistent();
    } catch (const std::logic_error& e) {
        RUBBLE_CHECK(false, std::string(e.what()) + at(time));
    }
    for (std::size_t k = 0; k < b.size(); ++k) {
        const auto row = b.index_of(b.id[k]);
        RUBBLE_CHECK(row && *row == k, "body id " + std::to_string(b.id[k]) + " in row " +
                                           std::to_string(k) + " but index_of finds row " +
                                           (row ? std::to_string(*row) : "none") + at(time));
    }
}

} // namespace rubble::collisions::checks
