// SPDX-License-Identifier: MIT
#include "rubble/ic/validate.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <unordered_set>

#include "rubble/core/error.hpp"
#include "sphere_grid.hpp"

namespace rubble::ic {
namespace {

bool finite(const Vec3& v) {
    return v.allFinite();
}

std::string body_error(const std::string& origin, std::int64_t id, const std::string& what) {
    return origin + ": body id " + std::to_string(id) + ": " + what;
}

std::string vec_text(const Vec3& v) {
    std::ostringstream os;
    os << "(" << v.x() << ", " << v.y() << ", " << v.z() << ")";
    return os.str();
}

} // namespace

OverlapReport find_overlaps(const Bodies& b, std::size_t max_report) {
    OverlapReport report;
    if (b.empty()) return report;
    const double r_max = *std::max_element(b.radius.begin(), b.radius.end());
    SphereGrid grid(std::max(2.0 * r_max, 1e-300));
    for (std::size_t i = 0; i < b.size(); ++i) {
        grid.for_each_near(b.pos[i], [&](std::size_t j) {
            const double s = b.radius[i] + b.radius[j];
            const double limit = s * (1.0 - overlap_tolerance);
            const double d2 = (b.pos[i] - b.pos[j]).squaredNorm();
            if (d2 >= limit * limit) return;
            ++report.count;
            report.deepest.push_back({b.id[j], b.id[i], std::sqrt(d2), s});
        });
        grid.insert(i, b.pos[i]);
        if (report.deepest.size() > 4 * max_report + 64) { // keep memory bounded
            std::sort(report.deepest.begin(), report.deepest.end(),
                      [](const Overlap& x, const Overlap& y) { return x.depth() > y.depth(); });
            report.deepest.resize(max_report);
        }
    }
    std::sort(report.deepest.begin(), report.deepest.end(),
              [](const Overlap& x, const Overlap& y) { return x.depth() > y.depth(); });
    if (report.deepest.size() > max_report) report.deepest.resize(max_report);
    return report;
}

void validate_bodies(const Bodies& b, const std::string& origin) {
    b.check_consistent();
    if (b.empty()) throw InputError(origin + ": no bodies");
    std::unordered_set<std::int64_t> ids;
    ids.reserve(b.size());
    for (std::size_t i = 0; i < b.size(); ++i) {
        const std::int64_t id = b.id[i];
        if (!ids.insert(id).second) throw InputError(body_error(origin, id, "duplicate id"));
        if (!(std::isfinite(b.mass[i]) && b.mass[i] > 0.0))
            throw InputError(
                body_error(origin, id, "mass = " + std::to_string(b.mass[i]) + ": must be > 0"));
        if (!(std::isfinite(b.radius[i]) && b.radius[i] > 0.0))
            throw InputError(body_error(
                origin, id, "radius = " + std::to_string(b.radius[i]) + ": must be > 0"));
        if (!finite(b.pos[i]))
            throw InputError(
                body_error(origin, id, "position " + vec_text(b.pos[i]) + " is not finite"));
        if (!finite(b.vel[i]))
            throw InputError(
                body_error(origin, id, "velocity " + vec_text(b.vel[i]) + " is not finite"));
        if (!finite(b.spin[i]))
            throw InputError(
                body_error(origin, id, "spin " + vec_text(b.spin[i]) + " is not finite"));
        if (!(b.inertia[i].allFinite() && b.inertia[i].minCoeff() > 0.0))
            throw InputError(body_error(
                origin, id, "inertia " + vec_text(b.inertia[i]) + " must be finite and > 0"));
        if (!(std::abs(b.orientation[i].norm() - 1.0) < 1e-6))
            throw InputError(body_error(origin, id, "orientation is not a unit quaternion"));
    }
    const OverlapReport overlaps = find_overlaps(b);
    if (overlaps.count > 0) {
        const Overlap& o = overlaps.deepest.front();
        std::ostringstream os;
        os << origin << ": " << overlaps.count << " overlapping pair(s) of spheres; deepest: ids "
           << o.id_a << " and " << o.id_b << " overlap by " << o.depth() << " m (centre distance "
           << o.distance << " m, sum of radii " << o.sum_radii << " m)";
        throw InputError(os.str());
    }
}

} // namespace rubble::ic
