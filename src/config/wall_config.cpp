// SPDX-License-Identifier: MIT
#include "rubble/config/wall_config.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "rubble/core/error.hpp"
#include "rubble/core/polyhedron.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/ic/aggregates.hpp"
#include "rubble/polyhedra/epa.hpp"
#include "rubble/polyhedra/point3_eigen.hpp"
#include "rubble/polyhedra/support.hpp"

namespace rubble::config {
namespace {

using boundaries::Wall;
using boundaries::WallShape;

// Which keys each wall type takes (parameter_specs.cpp documents them).
struct TypeKeys {
    const char* type;
    std::vector<std::string> required, optional;
};
const std::vector<TypeKeys>& type_keys() {
    static const std::vector<TypeKeys> keys = {
        {"plane", {"point", "normal"}, {"velocity", "angular_velocity"}},
        {"box", {"min", "max"}, {"velocity"}},
        {"cylinder",
         {"point", "axis", "radius"},
         {"side", "length", "caps", "velocity", "angular_velocity"}},
        {"hull", {"vertices", "point"}, {"axis", "angle"}},
    };
    return keys;
}

std::string listed(const TypeKeys& t) {
    std::string s = "type";
    for (const auto* group : {&t.required, &t.optional})
        for (const std::string& k : *group)
            s += ", " + k;
    return s;
}

Vec3 vector_of(const ParamVector& v) {
    return Vec3(v[0], v[1], v[2]);
}

// Key `name` of table k, or its documented default.
ParamValue value_or_default(const ParameterSet& p, std::size_t k, const std::string& name) {
    if (const ParamValue* v = p.wall_value(k, name)) return *v;
    const std::string& d = find_wall_spec(name)->default_text;
    if (name == "velocity") return ParamVector{0.0, 0.0, 0.0};
    if (name == "side") return d.substr(1, d.size() - 2);
    if (name == "caps") return false;
    return 0.0; // length, angular_velocity, angle
}

Vec3 direction(const ParameterSet& p, std::size_t k, const std::string& name) {
    const Vec3 v = vector_of(std::get<ParamVector>(*p.wall_value(k, name)));
    const double len = v.norm();
    if (!(len > 0.0) || !std::isfinite(len))
        throw p.wall_error(k, name, "must be a non-zero direction of finite length");
    return v / len;
}

const TypeKeys& checked_keys(const ParameterSet& p, std::size_t k) {
    const ParamValue* type = p.wall_value(k, "type");
    if (!type) throw p.wall_error(k, "type", "missing key 'type' (plane, box, cylinder or hull)");
    const std::string& name = std::get<std::string>(*type);
    const TypeKeys& t = *std::find_if(type_keys().begin(), type_keys().end(),
                                      [&](const TypeKeys& x) { return name == x.type; });
    for (const std::string& key : p.wall_keys(k)) {
        if (key == "type") continue;
        const auto in = [&](const std::vector<std::string>& v) {
            return std::find(v.begin(), v.end(), key) != v.end();
        };
        if (!in(t.required) && !in(t.optional))
            throw p.wall_error(k, key,
                               "a " + name + " wall has no key '" + key +
                                   "' (its keys: " + listed(t) + ")");
    }
    for (const std::string& key : t.required)
        if (!p.wall_value(k, key))
            throw p.wall_error(k, key, "a " + name + " wall needs key '" + key + "'");
    return t;
}

// length and caps of cylinder k: a finite cylinder runs from point to point + length axis.
void finite_shape(const ParameterSet& p, std::size_t k, Wall& w) {
    w.length = std::get<double>(value_or_default(p, k, "length"));
    w.caps = std::get<bool>(value_or_default(p, k, "caps"));
    const std::string at = "walls[" + std::to_string(k) + "]";
    if (w.caps && !(w.length > 0.0))
        throw p.wall_error(k, "caps",
                           "end caps need a finite cylinder: set " + at +
                               ".length > 0 (m), or bound the infinite one with plane walls");
    if (w.length > 0.0 && !w.caps && !w.inside)
        throw p.wall_error(k, "side",
                           "an open finite tube (caps = false) is a thin shell whose two faces "
                           "are both walls, so it has no outside; leave 'side' out, or set " +
                               at + ".caps = true for a solid post");
}

std::string kind_of(const Wall& w) {
    if (!(w.length > 0.0)) return w.inside ? "inside" : "outside";
    if (!w.caps) return "open tube";
    return w.inside ? "closed can" : "post";
}

} // namespace

std::vector<Wall> make_walls(const ParameterSet& p, std::vector<std::string>* sources) {
    std::vector<Wall> walls;
    for (std::size_t k = 0; k < p.wall_count(); ++k) {
        const std::string type = checked_keys(p, k).type;
        const std::string name = "walls[" + std::to_string(k) + "]";
        if (type == "hull") continue; // make_fixed_hulls
        const Vec3 velocity = vector_of(std::get<ParamVector>(value_or_default(p, k, "velocity")));
        if (type == "box") {
            const Vec3 lo = vector_of(std::get<ParamVector>(*p.wall_value(k, "min")));
            const Vec3 hi = vector_of(std::get<ParamVector>(*p.wall_value(k, "max")));
            if (!(lo.array() < hi.array()).all())
                throw p.wall_error(k, "max",
                                   "must exceed walls[" + std::to_string(k) +
                                       "].min = " + to_toml_text(*p.wall_value(k, "min")) +
                                       " in every coordinate");
            for (const Wall& w : boundaries::box_walls(lo, hi, velocity, name))
                walls.push_back(w);
        } else {
            Wall w;
            w.velocity = velocity;
            w.point = vector_of(std::get<ParamVector>(*p.wall_value(k, "point")));
            w.angular_velocity = std::get<double>(value_or_default(p, k, "angular_velocity"));
            if (type == "plane") {
                w.shape = WallShape::plane;
                w.normal = direction(p, k, "normal");
                w.name = name + " (plane)";
            } else {
                w.shape = WallShape::cylinder;
                w.normal = direction(p, k, "axis");
                w.radius = std::get<double>(*p.wall_value(k, "radius"));
                w.inside = std::get<std::string>(value_or_default(p, k, "side")) == "inside";
                finite_shape(p, k, w);
                w.name = name + " (cylinder, " + kind_of(w) + ")";
            }
            walls.push_back(w);
        }
        if (sources) sources->resize(walls.size(), p.wall_source(k));
    }
    return walls;
}

std::vector<boundaries::FixedHull> make_fixed_hulls(const ParameterSet& p,
                                                    std::vector<std::string>* sources) {
    std::vector<boundaries::FixedHull> hulls;
    for (std::size_t k = 0; k < p.wall_count(); ++k) {
        if (std::string(checked_keys(p, k).type) != "hull") continue;
        boundaries::FixedHull h;
        try {
            h.shape = shapes::make_polyhedron(
                ic::read_hull_vertices(std::get<std::string>(*p.wall_value(k, "vertices"))));
        } catch (const InputError& e) {
            throw p.wall_error(k, "vertices", e.what());
        }
        h.position = vector_of(std::get<ParamVector>(*p.wall_value(k, "point")));
        const double angle = std::get<double>(value_or_default(p, k, "angle"));
        if (p.wall_value(k, "axis")) {
            h.orientation = Quat(Eigen::AngleAxisd(angle, direction(p, k, "axis")));
        } else if (angle != 0.0) {
            throw p.wall_error(k, "angle",
                               "turns the hull about walls[" + std::to_string(k) +
                                   "].axis, which is missing");
        }
        h.name = "walls[" + std::to_string(k) + "] (hull)";
        hulls.push_back(std::move(h));
        if (sources) sources->push_back(p.wall_source(k));
    }
    return hulls;
}

namespace {

// How deep (m) each body reaches into wall w (point p): through its spheres (a free sphere,
// an aggregate's constituents, as the contacts see them) or its hull's vertices. A convex
// hull's deepest point into a plane, or out of a cylinder it is inside, is a vertex; into a
// cylinder it is outside of, an edge or face may reach deeper, and an open tube has no inside
// for a vertex to be in, so there the bounding sphere stands in for the hull (refusing a start
// it may not have to, never missing one).
std::vector<double> depths_into(const Wall& w, const Vec3& p, const Bodies& b) {
    std::vector<double> depth(b.size(), -std::numeric_limits<double>::infinity());
    for (std::size_t s = 0; s < b.spheres.size(); ++s) {
        const auto i = static_cast<std::size_t>(b.spheres.body[s]);
        depth[i] = std::max(
            depth[i], -boundaries::wall_gap(w, p, sphere_centre(b, s), b.spheres.radius[s]).gap);
    }
    // An open finite tube's gap is the distance to its shell, never negative for a point.
    const bool open_tube = w.length > 0.0 && !w.caps;
    const bool vertices_suffice =
        w.shape == boundaries::WallShape::plane || (w.inside && !open_tube);
    for (std::size_t row = 0; row < b.hulls.size(); ++row) {
        const auto i = static_cast<std::size_t>(b.hulls.body[row]);
        if (!vertices_suffice) {
            depth[i] = -boundaries::wall_gap(w, p, b.pos[i], b.radius[i]).gap;
            continue;
        }
        const auto& shape = b.hull_shapes()[static_cast<std::size_t>(b.hulls.shape[row])];
        for (const Vec3& v : shape.hull.vertices)
            depth[i] = std::max(
                depth[i], -boundaries::wall_gap(w, p, b.pos[i] + b.orientation[i] * v, 0.0).gap);
    }
    return depth;
}

} // namespace

void check_bodies_clear_of_walls(const std::vector<Wall>& walls,
                                 const std::vector<std::string>& sources, const Bodies& b, double t,
                                 double tolerance) {
    for (std::size_t k = 0; k < walls.size(); ++k) {
        const Vec3 p = boundaries::wall_point_at(walls[k], t);
        const std::vector<double> depths = depths_into(walls[k], p, b);
        for (std::size_t i = 0; i < b.size(); ++i) {
            const double depth = depths[i];
            if (!(depth > tolerance * b.radius[i])) continue;
            char buf[200];
            std::snprintf(
                buf, sizeof buf,
                ": body id %lld starts %.6g m inside the wall (%.3g of its radius %.6g m)",
                static_cast<long long>(b.id[i]), depth, depth / b.radius[i], b.radius[i]);
            throw InputError(sources[k] + ": " + walls[k].name + buf +
                             "; move the wall or the bodies (collisions.overlap_tolerance "
                             "allows contact within round-off)");
        }
    }
}

void check_bodies_clear_of_fixed_hulls(const std::vector<boundaries::FixedHull>& hulls,
                                       const std::vector<std::string>& sources, const Bodies& b,
                                       double tolerance) {
    using polyhedra::to_point3;
    for (std::size_t k = 0; k < hulls.size(); ++k) {
        const boundaries::FixedHull& h = hulls[k];
        std::vector<polyhedra::Point3> fixed;
        for (const Vec3& v : h.shape.hull.vertices)
            fixed.push_back(to_point3(h.position + h.orientation * v));
        for (std::size_t row = 0; row < b.hulls.size(); ++row) {
            const auto i = static_cast<std::size_t>(b.hulls.body[row]);
            const auto& shape = b.hull_shapes()[static_cast<std::size_t>(b.hulls.shape[row])];
            std::vector<polyhedra::Point3> body;
            for (const Vec3& v : shape.hull.vertices)
                body.push_back(to_point3(b.pos[i] + b.orientation[i] * v));
            const polyhedra::WorldPolytopeSupport sa{body.data(), static_cast<int>(body.size())};
            const polyhedra::WorldPolytopeSupport sf{fixed.data(), static_cast<int>(fixed.size())};
            const polyhedra::PenetrationResult e =
                polyhedra::penetration_depth(sa, sf, to_point3(h.position - b.pos[i]));
            if (!e.overlap || !(e.depth > tolerance * b.radius[i])) continue;
            char buf[200];
            std::snprintf(buf, sizeof buf,
                          ": body id %lld starts %.6g m inside the hull (%.3g of its radius "
                          "%.6g m)",
                          static_cast<long long>(b.id[i]), e.depth, e.depth / b.radius[i],
                          b.radius[i]);
            throw InputError(sources[k] + ": " + h.name + buf +
                             "; move the hull or the bodies (collisions.overlap_tolerance "
                             "allows contact within round-off)");
        }
    }
}

} // namespace rubble::config
