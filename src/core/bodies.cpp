// SPDX-License-Identifier: MIT
#include "rubble/core/bodies.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "rubble/core/polyhedron_mass.hpp"

namespace rubble {

void Bodies::resize(std::size_t n) {
    const std::size_t old = size();
    resize_table(*this, n);
    if (n < old) {
        const auto remove_past_n = [n](auto& table) {
            std::vector<std::uint8_t> gone(table.size(), 0);
            for (std::size_t k = 0; k < table.size(); ++k)
                gone[k] = table.body[k] >= static_cast<std::int64_t>(n) ? 1 : 0;
            remove_rows(table, gone);
        };
        remove_past_n(spheres);
        remove_past_n(hulls);
        return;
    }
    const std::size_t first = spheres.size();
    resize_table(spheres, first + (n - old));
    for (std::size_t k = old; k < n; ++k)
        spheres.body[first + (k - old)] = static_cast<std::int64_t>(k);
}

void Bodies::reserve(std::size_t n) {
    reserve_table(*this, n);
    reserve_table(spheres, n);
}

void Bodies::add_sphere(std::int64_t body_id, double body_mass, double body_radius, const Vec3& p,
                        const Vec3& v, const Vec3& w) {
    const std::size_t k = size();
    resize(k + 1);
    id[k] = body_id;
    pos[k] = p;
    vel[k] = v;
    spin[k] = w;
    set_free_sphere(k, body_mass, body_radius);
}

void Bodies::set_free_sphere(std::size_t k, double m, double r) {
    mass[k] = m;
    radius[k] = r;
    inertia[k] = Vec3::Constant(solid_sphere_inertia(m, r));
    principal_axes[k] = Quat::Identity();
    // Its one sphere: row k in the free-sphere layout, else found among the rows grouped by body.
    const auto row = static_cast<std::int64_t>(k);
    std::size_t s = k;
    if (s >= spheres.size() || spheres.body[s] != row) {
        s = static_cast<std::size_t>(
            std::lower_bound(spheres.body.begin(), spheres.body.end(), row) - spheres.body.begin());
    }
    if (s >= spheres.size() || spheres.body[s] != row ||
        (s + 1 < spheres.size() && spheres.body[s + 1] == row))
        throw std::logic_error("Bodies::set_free_sphere: body row " + std::to_string(k) +
                               " does not have exactly one sphere");
    spheres.offset[s] = Vec3::Zero();
    spheres.radius[s] = r;
    spheres.mass[s] = m;
}

const HullShapes& Bodies::hull_shapes() const {
    static const HullShapes none;
    return hull_shapes_ ? *hull_shapes_ : none;
}

std::int64_t Bodies::add_hull_shape(const shapes::Polyhedron& shape) {
    if (!hull_shapes_)
        hull_shapes_ = std::make_shared<HullShapes>();
    else if (hull_shapes_.use_count() > 1)
        hull_shapes_ = std::make_shared<HullShapes>(*hull_shapes_);
    const Vec3 centroid = shapes::polyhedron_centroid(shape.hull);
    hull_shapes_->push_back(shapes::translated(shape, -centroid));
    return static_cast<std::int64_t>(hull_shapes_->size()) - 1;
}

void Bodies::set_hull_shapes(HullShapes shapes) {
    hull_shapes_ = std::make_shared<HullShapes>(std::move(shapes));
}

namespace {

// The first row of each body's group in a table grouped by body (spheres, hulls), and the end:
// rows begin[k] to begin[k + 1] of the table belong to body k.
template <class Table> std::vector<std::size_t> group_starts(const Table& t, std::size_t bodies) {
    std::vector<std::size_t> begin(bodies + 1, 0);
    for (const std::int64_t body : t.body)
        ++begin[static_cast<std::size_t>(body) + 1];
    for (std::size_t k = 0; k < bodies; ++k)
        begin[k + 1] += begin[k];
    return begin;
}

// The rows of `from` at `picked`, column by column (a column is one contiguous array, so a
// gather per column touches memory in order instead of every column per row).
template <class Table>
void gather_rows(const Table& from, Table& to, std::span<const std::size_t> picked) {
    for_each_field<Table>([&](const auto& field) {
        const auto& source = from.*field.member;
        auto& target = to.*field.member;
        target.resize(picked.size());
        for (std::size_t i = 0; i < picked.size(); ++i)
            target[i] = source[picked[i]];
    });
}

// The spheres (or hulls) of the bodies at `rows`, their links rewritten to the new rows.
template <class Table>
void select_groups(const Table& from, Table& to, std::span<const std::size_t> rows,
                   std::size_t bodies) {
    if (from.size() == 0) return;
    const std::vector<std::size_t> begin = group_starts(from, bodies);
    std::vector<std::size_t> picked;
    std::vector<std::int64_t> link;
    for (std::size_t out = 0; out < rows.size(); ++out) {
        for (std::size_t i = begin[rows[out]]; i < begin[rows[out] + 1]; ++i) {
            picked.push_back(i);
            link.push_back(static_cast<std::int64_t>(out));
        }
    }
    gather_rows(from, to, picked);
    to.body = std::move(link);
}

template <class Table> void append_table(Table& to, const Table& more) {
    for_each_field<Table>([&](const auto& field) {
        const auto& source = more.*field.member;
        auto& target = to.*field.member;
        target.insert(target.end(), source.begin(), source.end());
    });
}

template <class Table> void append_groups(Table& to, const Table& more, std::size_t shift) {
    const std::size_t first = to.size();
    append_table(to, more);
    for (std::size_t i = first; i < to.size(); ++i)
        to.body[i] += static_cast<std::int64_t>(shift);
}

} // namespace

Bodies Bodies::select(std::span<const std::size_t> rows) const {
    Bodies out;
    out.hull_shapes_ = hull_shapes_;
    gather_rows(*this, out, rows);
    select_groups(spheres, out.spheres, rows, size());
    select_groups(hulls, out.hulls, rows, size());
    return out;
}

void Bodies::append(const Bodies& more) {
    if (hull_shapes_ != more.hull_shapes_ && more.hulls.size() > 0)
        throw std::logic_error("Bodies::append: the bodies name hull shapes of another catalogue");
    const std::size_t shift = size();
    append_table(*this, more);
    append_groups(spheres, more.spheres, shift);
    append_groups(hulls, more.hulls, shift);
    index_.clear();
}

bool Bodies::gravity_at_centres() const {
    return (spheres.size() == 0 && hulls.size() == size()) || all_free_spheres();
}

bool Bodies::all_free_spheres() const {
    const std::size_t n = size();
    if (spheres.size() != n) return false;
    for (std::size_t k = 0; k < n; ++k) {
        if (spheres.body[k] != static_cast<std::int64_t>(k) || !spheres.offset[k].isZero(0.0))
            return false;
    }
    return true;
}

std::vector<std::uint8_t> Bodies::free_sphere_flags() const {
    std::vector<std::uint32_t> parts(size(), 0);
    std::vector<std::uint8_t> offset(size(), 0);
    for (std::size_t s = 0; s < spheres.size(); ++s) {
        const auto k = static_cast<std::size_t>(spheres.body[s]);
        ++parts[k];
        if (!spheres.offset[s].isZero(0.0)) offset[k] = 1;
    }
    std::vector<std::uint8_t> free(size(), 0);
    for (std::size_t k = 0; k < size(); ++k)
        free[k] = parts[k] == 1 && !offset[k] ? 1 : 0;
    return free;
}

std::optional<std::size_t> Bodies::index_of(std::int64_t body_id) const {
    const auto known = [&]() -> std::optional<std::size_t> {
        const auto it = index_.find(body_id);
        if (it == index_.end() || it->second >= size() || id[it->second] != body_id)
            return std::nullopt;
        return it->second;
    };
    if (auto k = known()) return k;
    // A miss: rows may have been added, removed or reordered since the map was made.
    index_.clear();
    index_.reserve(size());
    for (std::size_t k = 0; k < size(); ++k)
        index_.emplace(id[k], k);
    return known();
}

void Bodies::check_consistent() const {
    const auto fail = [](const std::string& what) { throw std::logic_error("Bodies: " + what); };
    if (!columns_agree(*this)) fail("body arrays of different lengths");
    if (!columns_agree(spheres)) fail("sphere arrays of different lengths");
    const std::size_t n = size();
    if (!columns_agree(hulls)) fail("hull arrays of different lengths");
    // Each table's rows grouped by body, and per body the count and the sum of their masses.
    const auto tally = [&](const auto& table, const char* what, std::vector<double>& mass_sum,
                           std::vector<std::size_t>& count) {
        mass_sum.assign(n, 0.0);
        count.assign(n, 0);
        std::int64_t previous = -1;
        for (std::size_t k = 0; k < table.size(); ++k) {
            const std::int64_t owner = table.body[k];
            if (owner < 0 || owner >= static_cast<std::int64_t>(n))
                fail(std::string(what) + " " + std::to_string(k) + " links to body row " +
                     std::to_string(owner) + " of " + std::to_string(n));
            if (owner < previous)
                fail(std::string(what) + "s not grouped by body (" + what + " " +
                     std::to_string(k) + ")");
            previous = owner;
            mass_sum[static_cast<std::size_t>(owner)] += table.mass[k];
            ++count[static_cast<std::size_t>(owner)];
        }
    };
    std::vector<double> sphere_mass_sum, hull_mass;
    std::vector<std::size_t> sphere_count, hull_count;
    tally(spheres, "sphere", sphere_mass_sum, sphere_count);
    tally(hulls, "hull", hull_mass, hull_count);
    const HullShapes& shapes = hull_shapes();
    for (std::size_t k = 0; k < hulls.size(); ++k) {
        const std::int64_t shape = hulls.shape[k];
        if (shape < 0 || shape >= static_cast<std::int64_t>(shapes.size()))
            fail("hull " + std::to_string(k) + " names shape " + std::to_string(shape) + " of " +
                 std::to_string(shapes.size()));
    }
    std::unordered_map<std::int64_t, std::size_t> seen;
    seen.reserve(n);
    for (std::size_t k = 0; k < n; ++k) {
        const std::string body = "body id " + std::to_string(id[k]);
        if (!seen.emplace(id[k], k).second) fail("two bodies with id " + std::to_string(id[k]));
        if (sphere_count[k] == 0 && hull_count[k] == 0) fail(body + " has no shape");
        if (sphere_count[k] > 0 && hull_count[k] > 0) fail(body + " has spheres and a hull");
        if (hull_count[k] > 1) fail(body + " has " + std::to_string(hull_count[k]) + " hulls");
        // A body's mass is the sum of its spheres' (summed in row order, as the builders do).
        const double shape_mass = hull_count[k] > 0 ? hull_mass[k] : sphere_mass_sum[k];
        if (shape_mass != mass[k])
            fail(body + " has mass " + std::to_string(mass[k]) + " kg but its " +
                 (hull_count[k] > 0 ? "hull " : "spheres ") + std::to_string(shape_mass) + " kg");
    }
    for (std::size_t k = 0; k < hulls.size(); ++k) {
        const auto i = static_cast<std::size_t>(hulls.body[k]);
        const double r = shapes::circumradius(shapes[static_cast<std::size_t>(hulls.shape[k])]);
        if (radius[i] != r)
            fail("polyhedron id " + std::to_string(id[i]) + " has radius " +
                 std::to_string(radius[i]) + " m but its shape's circumradius is " +
                 std::to_string(r) + " m");
    }
    if (all_free_spheres()) {
        for (std::size_t k = 0; k < n; ++k)
            if (spheres.radius[k] != radius[k])
                fail("free sphere id " + std::to_string(id[k]) + " has radius " +
                     std::to_string(radius[k]) + " m but its sphere " +
                     std::to_string(spheres.radius[k]) + " m");
    }
}

void remove_flagged(Bodies& b, const std::vector<std::uint8_t>& remove) {
    // The spheres and hulls of removed bodies go too; the others' links move down by the
    // number of bodies removed before theirs.
    std::vector<std::int64_t> new_row(b.size(), -1);
    std::int64_t next = 0;
    for (std::size_t k = 0; k < b.size(); ++k)
        if (!remove[k]) new_row[k] = next++;
    const auto relink = [&](auto& table) {
        std::vector<std::uint8_t> gone(table.size(), 0);
        for (std::size_t k = 0; k < table.size(); ++k) {
            const std::int64_t row = new_row[static_cast<std::size_t>(table.body[k])];
            gone[k] = row < 0 ? 1 : 0;
            table.body[k] = row;
        }
        remove_rows(table, gone);
    };
    relink(b.spheres);
    relink(b.hulls);
    remove_rows(b, remove);
}

void make_free_spheres(Bodies& b) {
    const std::size_t n = b.size();
    b.spheres = Spheres{};
    resize_table(b.spheres, n);
    for (std::size_t k = 0; k < n; ++k) {
        b.spheres.body[k] = static_cast<std::int64_t>(k);
        b.spheres.radius[k] = b.radius[k];
        b.spheres.mass[k] = b.mass[k];
    }
}

double total_mass(const Bodies& b) {
    double m = 0.0;
    for (double mi : b.mass)
        m += mi;
    return m;
}

namespace {
// sum m_i f_i / M in body order (one definition, so every caller gets the same bits).
template <class Field> Vec3 mass_weighted_mean(const Bodies& b, const Field& field) {
    const double m = total_mass(b);
    Vec3 sum = Vec3::Zero();
    for (std::size_t i = 0; i < b.size(); ++i)
        sum += b.mass[i] * field[i];
    return m > 0.0 ? Vec3(sum / m) : Vec3::Zero();
}
} // namespace

Vec3 centre_of_mass(const Bodies& b) {
    return mass_weighted_mean(b, b.pos);
}

Vec3 centre_of_mass_velocity(const Bodies& b) {
    return mass_weighted_mean(b, b.vel);
}

double max_density(const Bodies& b) {
    double rho = 0.0;
    for (std::size_t i = 0; i < b.size(); ++i) {
        if (b.radius[i] > 0.0) rho = std::max(rho, b.mass[i] / sphere_mass(1.0, b.radius[i]));
    }
    return rho;
}

std::optional<NonFiniteValue> first_non_finite(const Bodies& b) {
    const auto count = static_cast<std::ptrdiff_t>(b.size());
    // The smallest bad index, found in parallel (the common answer, none, reads every body once).
    std::ptrdiff_t first = count;
#pragma omp parallel for schedule(static) reduction(min : first)
    for (std::ptrdiff_t k = 0; k < count; ++k) {
        const auto i = static_cast<std::size_t>(k);
        const bool finite = std::isfinite(b.mass[i]) && std::isfinite(b.radius[i]) &&
                            b.pos[i].allFinite() && b.vel[i].allFinite() && b.spin[i].allFinite() &&
                            b.orientation[i].coeffs().allFinite() && b.inertia[i].allFinite() &&
                            b.principal_axes[i].coeffs().allFinite();
        if (!finite) first = std::min(first, k);
    }
    if (first == count) return std::nullopt;
    const auto i = static_cast<std::size_t>(first);
    const char* field = !std::isfinite(b.mass[i])                ? "mass"
                        : !std::isfinite(b.radius[i])            ? "radius"
                        : !b.pos[i].allFinite()                  ? "position"
                        : !b.vel[i].allFinite()                  ? "velocity"
                        : !b.spin[i].allFinite()                 ? "spin"
                        : !b.orientation[i].coeffs().allFinite() ? "orientation"
                        : !b.inertia[i].allFinite()              ? "inertia"
                                                                 : "principal axes";
    return NonFiniteValue{i, field};
}

void move_to_centre_of_mass_frame(Bodies& b) {
    if (b.empty() || total_mass(b) <= 0.0) return;
    const Vec3 r = centre_of_mass(b);
    const Vec3 v = centre_of_mass_velocity(b);
    for (std::size_t i = 0; i < b.size(); ++i) {
        b.pos[i] -= r;
        b.vel[i] -= v;
    }
}

} // namespace rubble
