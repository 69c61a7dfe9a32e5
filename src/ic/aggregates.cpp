// SPDX-License-Identifier: MIT
#include "rubble/ic/aggregates.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "rubble/core/error.hpp"
#include "rubble/core/polyhedron_mass.hpp"
#include "sphere_grid.hpp"

namespace rubble::ic {
namespace {

// Lattice points on a face are inside: round-off in placing them is ~1e-16 of the spacing.
constexpr double on_face = 1e-9;
// Secant steps of fill_hull_count: count ~ V / s^3 converges in 3 or 4; more only revisit.
constexpr int count_steps = 12;
// fill_hull_count's last refinement: the spacing to 2^-20 of itself.
constexpr int spacing_bisections = 20;
// match_hull stops when no axis is stretched by more than this (a few round-offs) ...
constexpr double match_converged = 1e-13;
// ... or after this many rounds; each round shrinks the change by the ratio of the spheres'
// own inertia to the layout's (~(R/L)^2), so a handful suffice.
constexpr int match_rounds = 50;

shapes::ConvexHull hull_or_input_error(const std::vector<Vec3>& points) {
    try {
        return shapes::convex_hull(points);
    } catch (const std::invalid_argument& e) {
        throw InputError(e.what());
    }
}

std::vector<SpherePart> lattice(const shapes::ConvexHull& hull, double s, const Vec3& shift,
                                const Vec3& centre, double density, FillRule rule) {
    Vec3 lo = hull.vertices.front(), hi = lo;
    for (const Vec3& v : hull.vertices) {
        lo = lo.cwiseMin(v);
        hi = hi.cwiseMax(v);
    }
    const Vec3 origin = centre + shift * s;
    const auto range = [&](int axis) {
        return std::pair{static_cast<long>(std::floor((lo[axis] - origin[axis]) / s)),
                         static_cast<long>(std::ceil((hi[axis] - origin[axis]) / s))};
    };
    const auto [x0, x1] = range(0);
    const auto [y0, y1] = range(1);
    const auto [z0, z1] = range(2);
    const double r = 0.5 * s;
    const double limit = (rule == FillRule::spheres_inside ? -r : 0.0) + on_face * s;
    std::vector<SpherePart> out;
    for (long k = z0; k <= z1; ++k)
        for (long j = y0; j <= y1; ++j)
            for (long i = x0; i <= x1; ++i) {
                const Vec3 c = origin + s * Vec3(static_cast<double>(i), static_cast<double>(j),
                                                 static_cast<double>(k));
                if (shapes::plane_distance(hull, c) <= limit)
                    out.push_back(SpherePart{c, r, sphere_mass(density, r)});
            }
    return out;
}

// Inertia tensor of parts about `centre` in the frame whose columns are `axes`, split into
// the layout's second moments S (diagonal of sum m y y^T) and the spheres' own P.
struct Layout {
    Vec3 s = Vec3::Zero();
    double p = 0.0;
};
Layout layout_moments(const std::vector<SpherePart>& parts, const Vec3& centre, const Mat3& axes) {
    Layout l;
    for (const SpherePart& q : parts) {
        const Vec3 y = axes.transpose() * (q.centre - centre);
        l.s += q.mass * y.cwiseProduct(y);
        l.p += solid_sphere_inertia(q.mass, q.radius);
    }
    return l;
}

double circumradius(const shapes::ConvexHull& h, const Vec3& centre) {
    double r = 0.0;
    for (const Vec3& v : h.vertices)
        r = std::max(r, (v - centre).norm());
    return r;
}

} // namespace

shapes::ConvexHull make_grain_hull(const GrainConfig& g, double r, Rng& rng) {
    shapes::ConvexHull h;
    switch (g.kind) {
    case GrainKind::cube:
        h = box_hull(Vec3::Ones());
        break;
    case GrainKind::box:
        h = box_hull(g.aspect);
        break;
    case GrainKind::tetrahedron:
        h = tetrahedron_hull(1.0);
        break;
    case GrainKind::vertices:
        h = g.vertex_hull;
        break;
    default:
        h = random_ellipsoid_hull(g.aspect, rng);
        break;
    }
    const Vec3 c = shapes::polyhedron_mass_properties(h, 1.0).centre;
    const double a = r / circumradius(h, c);
    return shapes::scaled(h, a, -a * c);
}

shapes::ConvexHull box_hull(const Vec3& e) {
    std::vector<Vec3> corners;
    for (int i = 0; i < 8; ++i)
        corners.emplace_back((i & 1 ? 0.5 : -0.5) * e.x(), (i & 2 ? 0.5 : -0.5) * e.y(),
                             (i & 4 ? 0.5 : -0.5) * e.z());
    return hull_or_input_error(corners);
}

shapes::ConvexHull tetrahedron_hull(double r) {
    const double base = r * std::sqrt(8.0) / 3.0; // circumradius of a face
    const double z = -r / 3.0, c = 0.5 * std::sqrt(3.0) * base;
    return hull_or_input_error(
        {Vec3(0, 0, r), Vec3(0, base, z), Vec3(-c, -0.5 * base, z), Vec3(c, -0.5 * base, z)});
}

shapes::ConvexHull random_ellipsoid_hull(const Vec3& semi_axes, Rng& rng) {
    std::vector<Vec3> points;
    for (int i = 0; i < hull_points; ++i) {
        const double stretch = 1.0 + rng.uniform(-hull_jitter, hull_jitter);
        points.push_back(stretch * semi_axes.cwiseProduct(rng.unit_vector()));
    }
    return hull_or_input_error(points);
}

std::vector<SpherePart> fill_hull(const shapes::ConvexHull& hull, double spacing, double density,
                                  FillRule rule) {
    const Vec3 centre = shapes::polyhedron_mass_properties(hull, 1.0).centre;
    std::vector<SpherePart> best;
    bool best_connected = false;
    for (int shift = 0; shift < 8; ++shift) {
        const Vec3 half((shift & 1) ? 0.5 : 0.0, (shift & 2) ? 0.5 : 0.0, (shift & 4) ? 0.5 : 0.0);
        std::vector<SpherePart> parts = lattice(hull, spacing, half, centre, density, rule);
        const bool connected = is_connected(parts);
        if (std::pair(connected, parts.size()) > std::pair(best_connected, best.size())) {
            best = std::move(parts);
            best_connected = connected;
        }
    }
    return best;
}

std::vector<SpherePart> fill_hull_count(const shapes::ConvexHull& hull, std::int64_t k,
                                        double density, FillRule rule) {
    const double volume = shapes::polyhedron_volume(hull);
    const double inf = std::numeric_limits<double>::infinity();
    const auto miss = [k, inf](std::size_t n) {
        return n < 2 ? inf : std::abs(static_cast<double>(n) - static_cast<double>(k));
    };
    // Secant steps on count ~ V / s^3 towards k ...
    double s = std::cbrt(volume / static_cast<double>(k)), best_s = s;
    std::size_t best_n = 0;
    for (int step = 0; step < count_steps; ++step) {
        const std::size_t n = fill_hull(hull, s, density, rule).size();
        if (step == 0 || miss(n) < miss(best_n) || (miss(n) == miss(best_n) && s > best_s)) {
            best_n = n;
            best_s = s;
        }
        if (n == static_cast<std::size_t>(k)) break;
        // A step past the target is damped in the second half so the search cannot cycle.
        const double ratio =
            n > 0 ? std::cbrt(static_cast<double>(n) / static_cast<double>(k)) : 0.5;
        s *= step < count_steps / 2 ? ratio : std::sqrt(ratio);
    }
    if (best_n < 2)
        throw InputError("a lattice fill of this grain has fewer than 2 spheres at any spacing "
                         "tried; an aggregate needs at least 2");
    // ... then the largest spacing that keeps that count, so the spheres fill the shape (a
    // box of n^3 gets spacing edge / n, its spheres touching the faces).
    double lo = best_s, hi = 2.0 * best_s;
    for (int step = 0; step < spacing_bisections; ++step) {
        const double mid = 0.5 * (lo + hi);
        (fill_hull(hull, mid, density, rule).size() == best_n ? lo : hi) = mid;
    }
    return fill_hull(hull, lo, density, rule);
}

bool is_connected(const std::vector<SpherePart>& parts) {
    if (parts.empty()) return false;
    double r_max = 0.0;
    for (const SpherePart& q : parts)
        r_max = std::max(r_max, q.radius);
    // Touching spheres are within 2 r_max of each other: neighbours in the 27 cells around.
    SphereGrid grid(2.0 * r_max * (1.0 + 1e-9));
    for (std::size_t i = 0; i < parts.size(); ++i)
        grid.insert(i, parts[i].centre);
    std::vector<char> seen(parts.size(), 0);
    std::vector<std::size_t> stack{0};
    seen[0] = 1;
    std::size_t reached = 1;
    while (!stack.empty()) {
        const std::size_t i = stack.back();
        stack.pop_back();
        grid.for_each_near(parts[i].centre, [&](std::size_t j) {
            if (seen[j]) return;
            const double reach = (parts[i].radius + parts[j].radius) * (1.0 + 1e-9);
            if ((parts[i].centre - parts[j].centre).squaredNorm() <= reach * reach) {
                seen[j] = 1;
                ++reached;
                stack.push_back(j);
            }
        });
    }
    return reached == parts.size();
}

double principal_moment_mismatch(const MassProperties& a, const MassProperties& b) {
    return ((a.moments - b.moments).cwiseAbs().cwiseQuotient(b.moments)).maxCoeff();
}

HullMatch match_hull(const shapes::ConvexHull& hull, std::vector<SpherePart> parts,
                     double density) {
    const MassProperties target = shapes::polyhedron_mass_properties(hull, density);
    const Mat3 hull_axes = target.axes.toRotationMatrix();
    double sphere_volume = 0.0;
    for (const SpherePart& q : parts)
        sphere_volume += q.mass / density;
    double rho = target.mass / sphere_volume; // one density for every sphere
    for (SpherePart& q : parts)
        q.mass = sphere_mass(rho, q.radius);
    const Vec3& t = target.moments;
    // I_k = S_j + S_l + P  =>  S_k = (I_j + I_l - I_k - P) / 2, in the principal frame.
    const Vec3 sum_of_others(t.y() + t.z() - t.x(), t.x() + t.z() - t.y(), t.x() + t.y() - t.z());
    for (int round = 0; round < match_rounds; ++round) {
        const MassProperties now = mass_properties(parts);
        const Mat3 axes = now.axes.toRotationMatrix();
        const Layout l = layout_moments(parts, now.centre, axes);
        const Vec3 want = 0.5 * (sum_of_others - Vec3::Constant(l.p));
        if (want.minCoeff() <= 0.0)
            throw InputError("ic.cloud.match_hull: the " + std::to_string(parts.size()) +
                             " spheres alone carry more inertia about an axis than the hull "
                             "(too coarse for so flat a hull); use more spheres per grain");
        if (!(l.s.minCoeff() > 0.0))
            throw InputError("ic.cloud.match_hull: a fill of " + std::to_string(parts.size()) +
                             " spheres in one plane or line cannot be stretched to a solid's "
                             "inertia; use more spheres per grain");
        // S is diagonal in the aggregate's principal frame, so scaling along those axes keeps
        // it diagonal; turning them onto the hull's (ascending moments to ascending) makes the
        // whole tensor the hull's.
        const Vec3 stretch = want.cwiseQuotient(l.s).cwiseSqrt();
        const double grow = std::max(1.0, stretch.maxCoeff());
        for (SpherePart& q : parts) {
            const Vec3 y = axes.transpose() * (q.centre - now.centre);
            q.centre = target.centre + hull_axes * stretch.cwiseProduct(y);
            q.radius *= grow;
        }
        if (grow > 1.0) {
            // Growing the radii added volume: lower the one density to keep the hull's mass.
            rho /= grow * grow * grow;
            for (SpherePart& q : parts)
                q.mass = sphere_mass(rho, q.radius);
        }
        if ((stretch - Vec3::Ones()).cwiseAbs().maxCoeff() < match_converged) break;
    }
    if (!is_connected(parts))
        throw InputError("match_hull: the matched aggregate is not connected");
    HullMatch out;
    out.residual = principal_moment_mismatch(mass_properties(parts), target);
    out.parts = std::move(parts);
    return out;
}

namespace {

// A numbered line of a text table and its numbers.
struct NumberRow {
    int line;
    std::vector<std::string> words; // as written, for messages
    std::vector<double> values;
};

// The rows of a text file of `columns` finite numbers per line ('#' starts a comment, blank
// lines skipped), refusing by file, line and field anything else; `what` names the file's kind
// and `fields` the numbers, for the messages.
std::vector<NumberRow> read_number_rows(const std::string& path, std::size_t columns,
                                        const std::string& what, const std::string& fields) {
    std::ifstream in(path);
    if (!in) throw InputError(path + ": cannot read the " + what);
    std::vector<NumberRow> rows;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        const std::string where = path + ":" + std::to_string(number) + ": ";
        const std::string text = line.substr(0, line.find('#'));
        std::istringstream stream(text);
        std::vector<std::string> words;
        for (std::string w; stream >> w;)
            words.push_back(w);
        if (words.empty()) continue;
        if (words.size() != columns)
            throw InputError(where + "\"" + text + "\": expected " + std::to_string(columns) +
                             " numbers " + fields + ", got " + std::to_string(words.size()) +
                             " fields");
        NumberRow row{number, words, {}};
        for (const std::string& w : words) {
            char* end = nullptr;
            const double v = std::strtod(w.c_str(), &end);
            if (end != w.c_str() + w.size() || !std::isfinite(v))
                throw InputError(where + "\"" + w + "\" is not a finite number");
            row.values.push_back(v);
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace

std::vector<SpherePart> read_layout(const std::string& path, double density) {
    std::vector<SpherePart> parts;
    for (const NumberRow& row : read_number_rows(path, 4, "grain layout file", "x y z r (m)")) {
        const std::vector<double>& v = row.values;
        if (!(v[3] > 0.0))
            throw InputError(path + ":" + std::to_string(row.line) + ": radius " + row.words[3] +
                             ": must be > 0");
        parts.push_back(SpherePart{Vec3(v[0], v[1], v[2]), v[3], sphere_mass(density, v[3])});
    }
    if (parts.size() < 2)
        throw InputError(path + ": " + std::to_string(parts.size()) +
                         " sphere(s); an aggregate needs at least 2");
    if (!is_connected(parts))
        throw InputError(path + ": the spheres are not connected (each must touch or overlap "
                                "the rest through a chain of others)");
    return parts;
}

shapes::ConvexHull read_hull_vertices(const std::string& path) {
    std::vector<Vec3> points;
    for (const NumberRow& row : read_number_rows(path, 3, "hull vertex file", "x y z (m)"))
        points.emplace_back(row.values[0], row.values[1], row.values[2]);
    try {
        return shapes::convex_hull(points);
    } catch (const std::invalid_argument& e) {
        throw InputError(path + ": " + e.what());
    }
}

std::vector<SpherePart> make_grain(const GrainConfig& g, double r, double density, Rng& rng) {
    if (g.kind == GrainKind::file) {
        std::vector<SpherePart> layout = g.layout;
        for (SpherePart& q : layout)
            q.mass = sphere_mass(density, q.radius);
        return scaled_grain(layout, r / mass_properties(layout).bounding_radius);
    }
    return grain_of_hull(g, make_grain_hull(g, r, rng), r, density);
}

std::vector<SpherePart> grain_of_hull(const GrainConfig& g, const shapes::ConvexHull& hull,
                                      double r, double density) {
    // A fill to be matched reaches the hull's faces with its centres: matching then shrinks
    // it, which keeps neighbours touching (docs/aggregates.md).
    const FillRule rule = g.match_hull ? FillRule::centres_inside : FillRule::spheres_inside;
    std::vector<SpherePart> parts = g.sphere_radius > 0.0
                                        ? fill_hull(hull, 2.0 * g.sphere_radius, density, rule)
                                        : fill_hull_count(hull, g.spheres_per_grain, density, rule);
    if (parts.size() < 2)
        throw InputError("ic.cloud.sphere_radius = " + std::to_string(g.sphere_radius) +
                         " m: a grain of size " + std::to_string(r) + " m holds " +
                         std::to_string(parts.size()) +
                         " sphere(s) of it; an aggregate needs at least 2");
    if (!is_connected(parts))
        throw InputError("ic.cloud.grain: a lattice fill of " + std::to_string(parts.size()) +
                         " spheres is not connected; choose more spheres per grain");
    if (g.match_hull) parts = match_hull(hull, std::move(parts), density).parts;
    return parts;
}

std::vector<SpherePart> scaled_grain(std::vector<SpherePart> parts, double a) {
    for (SpherePart& q : parts) {
        q.centre *= a;
        q.radius *= a;
        q.mass *= a * a * a;
    }
    return parts;
}

Quat random_orientation(Rng& rng) {
    const double u1 = rng.uniform(), u2 = 2.0 * pi * rng.uniform(), u3 = 2.0 * pi * rng.uniform();
    const double a = std::sqrt(1.0 - u1), b = std::sqrt(u1);
    return Quat(b * std::cos(u3), a * std::sin(u2), a * std::cos(u2), b * std::sin(u3));
}

TwoSphereUnion two_sphere_union(double r, double d, double rho) {
    const double h = r - 0.5 * d;
    const double v_sphere = 4.0 / 3.0 * pi * r * r * r;
    const double v_cap = pi * h * h * (3.0 * r - h) / 3.0;
    const double i_cap = pi * rho * h * h * h * (20.0 * r * r - 15.0 * r * h + 3.0 * h * h) / 30.0;
    return {2.0 * v_sphere - 2.0 * v_cap,
            2.0 * solid_sphere_inertia(rho * v_sphere, r) - 2.0 * i_cap};
}

} // namespace rubble::ic
