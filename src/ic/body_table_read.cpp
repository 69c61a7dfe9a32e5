// SPDX-License-Identifier: MIT
// Reading a body table (ic/body_table.hpp): each row checked and turned into one body.
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "rubble/core/error.hpp"
#include "rubble/core/polyhedron_mass.hpp"
#include "rubble/core/rigid_body.hpp"
#include "rubble/ic/aggregates.hpp"
#include "rubble/ic/body_table.hpp"
#include "rubble/ic/obj_shapes.hpp"
#include "rubble/ic/text_table.hpp"

namespace rubble::ic {

namespace fs = std::filesystem;

const std::vector<BodyTableColumn>& body_table_columns() {
    static const std::vector<BodyTableColumn> columns{
        {"id", "", "body identifier, a unique integer (required)"},
        {"model", "", "sphere, aggregate or polyhedron (default: from the shape columns given)"},
        {"x", "m", "centre of mass, with y and z (required)"},
        {"y", "m", ""},
        {"z", "m", ""},
        {"vx", "m/s", "velocity, with vy and vz (default 0)"},
        {"vy", "m/s", ""},
        {"vz", "m/s", ""},
        {"wx", "rad/s", "angular velocity, inertial frame, with wy and wz (default 0)"},
        {"wy", "rad/s", ""},
        {"wz", "rad/s", ""},
        {"qw", "",
         "orientation, body frame to inertial frame, as a quaternion with qx, qy, qz "
         "(normalised; default the identity)"},
        {"qx", "", ""},
        {"qy", "", ""},
        {"qz", "", ""},
        {"axis_x", "",
         "orientation as a rotation about an axis, with axis_y, axis_z and "
         "angle_deg (instead of the quaternion)"},
        {"axis_y", "", ""},
        {"axis_z", "", ""},
        {"angle_deg", "deg", ""},
        {"mass", "kg", "body mass (or density)"},
        {"density", "kg/m^3", "bulk density of the grain's material (or mass)"},
        {"radius", "m",
         "sphere: its radius; aggregate, polyhedron: the bounding radius, "
         "checked against the shape if given"},
        {"shape", "",
         "polyhedron: cube or tetrahedron (with size), an OBJ file's object (FILE.obj#OBJECT, "
         "or FILE.obj when it holds one), or a vertex file (x y z per line: their convex hull)"},
        {"size", "m",
         "circumradius the shape is scaled to about its centroid (required for cube and "
         "tetrahedron; a file's shape is otherwise used as it is)"},
        {"parts", "",
         "aggregate: its spheres, FILE.csv (columns x, y, z, radius, and mass or "
         "density) or FILE.csv#ID (the rows whose body column is ID)"},
        {"inertia_1", "kg m^2",
         "principal moments, with inertia_2 and inertia_3 and the axes "
         "(default: from the shape)"},
        {"inertia_2", "kg m^2", ""},
        {"inertia_3", "kg m^2", ""},
        {"axes_w", "",
         "principal frame to body frame, a unit quaternion with axes_x, axes_y, "
         "axes_z"},
        {"axes_x", "", ""},
        {"axes_y", "", ""},
        {"axes_z", "", ""},
        {"free_path", "m",
         "distance since the last collision, for the f_crit rule (default "
         "inf: none yet)"},
    };
    return columns;
}

namespace {

// Columns that are given together (all or none in the header, all or none in a row).
const std::vector<std::vector<std::string>> column_groups{
    {"x", "y", "z"},
    {"vx", "vy", "vz"},
    {"wx", "wy", "wz"},
    {"qw", "qx", "qy", "qz"},
    {"axis_x", "axis_y", "axis_z", "angle_deg"},
    {"inertia_1", "inertia_2", "inertia_3", "axes_w", "axes_x", "axes_y", "axes_z"},
};

// Near enough to be the same value recomputed (table_agreement), relative to `scale`.
bool agrees(double given, double derived, double scale) {
    return std::abs(given - derived) <= table_agreement * scale;
}

// A file named in a cell, found relative to the table's directory; "FILE#NAME" splits.
struct Reference {
    std::string file; // resolved
    std::optional<std::string> name;
};

// The last '#' splits, so that a file name may hold one (an object name may not).
Reference reference(const std::string& cell, const std::string& table_path) {
    const auto hash = cell.rfind('#');
    Reference r;
    const fs::path file = cell.substr(0, hash);
    r.file =
        file.is_absolute() ? file.string() : (fs::path(table_path).parent_path() / file).string();
    if (hash != std::string::npos) r.name = cell.substr(hash + 1);
    return r;
}

// One row of the table, and its cells by column name.
class RowReader {
public:
    RowReader(const TextTable& t, const TextTable::Row& row) : t_(t), row_(row) {}

    [[nodiscard]] bool given(const std::string& name) const {
        const auto c = t_.column(name);
        return c && !row_.cells[*c].empty();
    }
    [[nodiscard]] std::string text(const std::string& name) const {
        const auto c = t_.column(name);
        return c ? row_.cells[*c] : std::string();
    }
    [[nodiscard]] std::string where(const std::string& name) const {
        const auto c = t_.column(name);
        return c ? t_.where(row_, *c) : line() + "column " + name + ": ";
    }
    [[nodiscard]] std::string line() const {
        return t_.path + ":" + std::to_string(row_.line) + ": ";
    }
    // The cell as a finite number (or inf where allowed), or `fallback` when it is empty.
    [[nodiscard]] double number(const std::string& name, double fallback,
                                bool infinity_allowed = false) const {
        if (!given(name)) return fallback;
        const auto v = parse_number(text(name));
        if (!v || std::isnan(*v) || (!std::isfinite(*v) && !(infinity_allowed && *v > 0.0)))
            throw InputError(where(name) + "not a finite number");
        return *v;
    }
    [[nodiscard]] double positive(const std::string& name) const {
        const double v = number(name, 0.0);
        if (!(v > 0.0)) throw InputError(where(name) + "must be > 0");
        return v;
    }
    [[nodiscard]] Vec3 vec(const char* a, const char* b, const char* c) const {
        return {number(a, 0.0), number(b, 0.0), number(c, 0.0)};
    }
    // The same, where every row must give the three (a position, a sphere's centre).
    [[nodiscard]] Vec3 required_vec(const char* a, const char* b, const char* c) const {
        for (const char* name : {a, b, c})
            if (!given(name)) throw InputError(where(name) + "every row needs a value here");
        return vec(a, b, c);
    }
    [[nodiscard]] std::int64_t id() const {
        const std::string s = text("id");
        std::int64_t v = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (s.empty() || ec != std::errc() || end != s.data() + s.size())
            throw InputError((s.empty() ? line() + "column id: " : where("id")) +
                             "every body needs an integer id");
        return v;
    }
    // Each group's cells all given or all empty.
    void check_groups() const {
        for (const auto& group : column_groups) {
            if (!t_.column(group[0])) continue;
            const bool first = given(group[0]);
            for (const std::string& name : group)
                if (given(name) != first)
                    throw InputError(line() + "columns " + joined(group) + " are given together: " +
                                     name + (first ? " is empty" : " is set") + " where " +
                                     group[0] + (first ? " is set" : " is empty"));
        }
    }
    static std::string joined(const std::vector<std::string>& names) {
        std::string s;
        for (const std::string& n : names)
            s += (s.empty() ? "" : ", ") + n;
        return s;
    }

private:
    const TextTable& t_;
    const TextTable::Row& row_;
};

// The orientation a row gives: a quaternion (normalised unless it is unit to round-off, kept
// bit for bit then), a rotation about an axis, or the identity.
Quat orientation_of(const RowReader& r) {
    if (r.given("qw") && r.given("axis_x"))
        throw InputError(r.line() + "give the orientation once: qw, qx, qy, qz or axis_x, "
                                    "axis_y, axis_z, angle_deg");
    if (r.given("qw")) {
        const Quat q(r.number("qw", 1.0), r.number("qx", 0.0), r.number("qy", 0.0),
                     r.number("qz", 0.0));
        const double n = q.norm();
        if (!(n > 0.0)) throw InputError(r.where("qw") + "the quaternion (qw, qx, qy, qz) is 0");
        return std::abs(n - 1.0) <= 1e-14 ? q : q.normalized();
    }
    if (r.given("axis_x")) {
        const Vec3 axis = r.vec("axis_x", "axis_y", "axis_z");
        if (!(axis.norm() > 0.0)) throw InputError(r.where("axis_x") + "the axis is 0");
        return Quat(Eigen::AngleAxisd(r.number("angle_deg", 0.0) * pi / 180.0, axis.normalized()));
    }
    return Quat::Identity();
}

// The principal moments and axes a row gives, checked against those its shape implies (the
// tensors compared, as degenerate moments leave the axes free), or the derived ones.
std::pair<Vec3, Quat> principal_frame(const RowReader& r, const Vec3& moments, const Quat& axes) {
    if (!r.given("inertia_1")) return {moments, axes};
    const Vec3 given = r.vec("inertia_1", "inertia_2", "inertia_3");
    Quat given_axes(r.number("axes_w", 1.0), r.number("axes_x", 0.0), r.number("axes_y", 0.0),
                    r.number("axes_z", 0.0));
    if (!(given.minCoeff() > 0.0))
        throw InputError(r.line() + "columns inertia_1, inertia_2, inertia_3: moments must be > 0");
    if (!(std::abs(given_axes.norm() - 1.0) <= 1e-12))
        throw InputError(r.where("axes_w") +
                         "axes_w, axes_x, axes_y, axes_z must be a unit quaternion");
    const Mat3 a = given_axes.toRotationMatrix(), d = axes.toRotationMatrix();
    const Mat3 difference =
        a * given.asDiagonal() * a.transpose() - d * moments.asDiagonal() * d.transpose();
    if (!(difference.norm() <= table_agreement * moments.norm()))
        throw InputError(r.line() + "the principal moments and axes given (inertia_1..3, " +
                         "axes_w..z) are not the shape's: relative difference " +
                         std::to_string(difference.norm() / moments.norm()) + " of its tensor");
    return {given, given_axes};
}

// The files a table names, each read once, and the catalogue of hull shapes it builds.
class SharedFiles {
public:
    explicit SharedFiles(std::string table) : table_(std::move(table)) {}

    // The catalogue index of the shape a row's shape (and size) cells name.
    std::int64_t shape(const RowReader& r) {
        const std::string cell = r.text("shape");
        const std::string size = r.given("size") ? std::string("@").append(r.text("size")) : "";
        if (cell == "cube" || cell == "tetrahedron") {
            const double circumradius = r.positive("size");
            if (const auto found = index_.find(cell + size); found != index_.end())
                return found->second;
            const double edge = 2.0 * circumradius / std::sqrt(3.0); // R = edge sqrt(3) / 2
            if (!std::isfinite(edge * edge * edge))
                throw InputError(r.where("size") + "too large: its volume overflows");
            return index_[cell + size] = add(r, [&] {
                       return shapes::make_polyhedron(cell == "cube"
                                                          ? box_hull(Vec3::Constant(edge))
                                                          : tetrahedron_hull(circumradius));
                   });
        }
        const Reference ref = reference(cell, table_);
        if (!file_shapes_.count(ref.file)) load_shapes(r, ref.file, size.empty());
        const std::vector<ObjShape>& objects = file_shapes_[ref.file];
        if (!ref.name && objects.size() > 1)
            throw InputError(r.where("shape") + "the file holds " + std::to_string(objects.size()) +
                             " objects: name one as FILE.obj#OBJECT");
        const std::string name = ref.name ? *ref.name : objects.front().name;
        const std::string key = ref.file + "#" + name;
        if (const auto found = index_.find(key + size); found != index_.end()) return found->second;
        for (const ObjShape& o : objects) {
            if (o.name != name) continue;
            if (size.empty()) return index_[key] = add(r, [&] { return o.shape; });
            return index_[key + size] =
                       add(r, [&] { return scaled_to(o.shape, r.positive("size")); });
        }
        throw InputError(r.where("shape") + ref.file + " has no object named \"" + name + "\"");
    }

    // The spheres a row's parts cell names, in their file's frame, masses where the file
    // gives them (0 where it leaves them to the body).
    const std::vector<SpherePart>& parts(const RowReader& r) {
        const Reference ref = reference(r.text("parts"), table_);
        if (!parts_files_.count(ref.file)) {
            try {
                read_parts_file(ref.file);
            } catch (const InputError& e) {
                throw InputError(r.where("parts") + e.what());
            }
        }
        const PartsFile& f = parts_files_[ref.file];
        if (f.grouped != ref.name.has_value())
            throw InputError(
                r.where("parts") +
                (f.grouped ? "the file has a body column: name one as FILE.csv#ID"
                           : "the file has no body column to select #" + *ref.name + " from"));
        const auto found = f.groups.find(ref.name ? *ref.name : "");
        if (found == f.groups.end())
            throw InputError(r.where("parts") + "no row of " + ref.file + " has body " + *ref.name);
        return found->second;
    }

    [[nodiscard]] const HullShapes& catalogue() const { return shapes_; }
    [[nodiscard]] HullShapes take_catalogue() { return std::move(shapes_); }

private:
    struct PartsFile {
        bool grouped = false;
        std::map<std::string, std::vector<SpherePart>> groups;
    };

    // The shape `make` gives, centred on its centroid unless it is there to round-off already
    // (kept bit for bit); a shape that cannot be made is said with the row's shape cell.
    template <class Make> std::int64_t add(const RowReader& r, Make&& make) {
        try {
            shapes::Polyhedron p = make();
            const Vec3 c = shapes::polyhedron_centroid(p.hull);
            if (c.norm() > 1e-12 * shapes::circumradius(p)) p = shapes::translated(p, -c);
            shapes_.push_back(std::move(p));
        } catch (const std::logic_error& e) { // invalid_argument among them
            throw InputError(r.where("shape") + e.what());
        }
        return static_cast<std::int64_t>(shapes_.size()) - 1;
    }

    // The shapes of an OBJ file or a vertex file ("x y z" per line: their convex hull). An
    // OBJ file's objects all join the catalogue, in file order, when one is first used at its
    // own size: a table exported from a run then has the run's catalogue.
    void load_shapes(const RowReader& r, const std::string& file, bool own_size) {
        std::vector<ObjShape> objects;
        try {
            const std::string ext = fs::path(file).extension().string();
            if (ext == ".obj" || ext == ".OBJ")
                objects = read_obj_shapes(file);
            else
                objects.push_back({"", shapes::make_polyhedron(read_hull_vertices(file))});
        } catch (const InputError& e) {
            throw InputError(r.where("shape") + e.what());
        }
        if (own_size)
            for (const ObjShape& o : objects)
                index_[file + "#" + o.name] = add(r, [&] { return o.shape; });
        file_shapes_[file] = std::move(objects);
    }

    // The shape about its centroid, scaled to this circumradius (m).
    static shapes::Polyhedron scaled_to(const shapes::Polyhedron& p, double circumradius) {
        const shapes::Polyhedron centred =
            shapes::translated(p, -shapes::polyhedron_centroid(p.hull));
        const double f = circumradius / shapes::circumradius(centred);
        std::vector<Vec3> vertices = centred.hull.vertices;
        for (Vec3& v : vertices)
            v *= f;
        return shapes::polyhedron_from_faces(std::move(vertices), centred.hull.faces);
    }

    void read_parts_file(const std::string& path) {
        const TextTable t = read_text_table(path, "parts file");
        for (const char* name : {"x", "y", "z", "radius"})
            if (!t.column(name))
                throw InputError(path + ": the header has no column " + std::string(name) +
                                 " (a parts file has x, y, z, radius, and may have mass or "
                                 "density and body)");
        for (const std::string& name : t.header)
            if (name != "x" && name != "y" && name != "z" && name != "radius" && name != "mass" &&
                name != "density" && name != "body")
                throw InputError(path + ": unknown column " + name +
                                 " (a parts file has x, y, z, radius, mass, density, body)");
        PartsFile f;
        f.grouped = t.column("body").has_value();
        for (const TextTable::Row& row : t.rows) {
            const RowReader r(t, row);
            SpherePart s{r.required_vec("x", "y", "z"), r.positive("radius"), 0.0};
            if (r.given("mass") && r.given("density"))
                throw InputError(r.line() + "give mass or density, not both");
            if (r.given("mass")) s.mass = r.positive("mass");
            if (r.given("density")) s.mass = sphere_mass(r.positive("density"), s.radius);
            if (f.grouped && !r.given("body"))
                throw InputError(r.line() + "column body: every row names its body");
            f.groups[f.grouped ? r.text("body") : ""].push_back(s);
        }
        if (f.groups.empty()) throw InputError(path + ": the parts file has no rows");
        parts_files_[path] = std::move(f);
    }

    std::string table_;
    HullShapes shapes_;
    std::map<std::string, std::int64_t> index_; // "FILE#OBJECT[@SIZE]", "cube@SIZE" -> shape
    std::map<std::string, std::vector<ObjShape>> file_shapes_; // shape file -> its shapes
    std::map<std::string, PartsFile> parts_files_;
};

enum class Model { sphere, aggregate, polyhedron };

Model model_of(const RowReader& r) {
    const Model implied = r.given("parts")   ? Model::aggregate
                          : r.given("shape") ? Model::polyhedron
                                             : Model::sphere;
    if (r.given("parts") && r.given("shape"))
        throw InputError(r.where("shape") + "a body has parts (an aggregate) or a shape (a "
                                            "polyhedron), not both");
    if (!r.given("model")) return implied;
    const std::string m = r.text("model");
    const Model named =
        m == "sphere"      ? Model::sphere
        : m == "aggregate" ? Model::aggregate
        : m == "polyhedron"
            ? Model::polyhedron
            : throw InputError(r.where("model") + "must be sphere, aggregate or polyhedron");
    if (named != implied)
        throw InputError(r.where("model") +
                         (named == Model::aggregate ? "an aggregate needs its parts"
                          : named == Model::polyhedron
                              ? "a polyhedron needs its shape"
                              : "a sphere has a radius, not " +
                                    std::string(r.given("parts") ? "parts" : "a shape")));
    return named;
}

// Mass xor density, as the row gives it.
void check_mass_or_density(const RowReader& r) {
    if (r.given("mass") == r.given("density"))
        throw InputError(r.line() + "columns mass, density: give exactly one for each body");
}

void add_sphere_row(Bodies& b, const RowReader& r) {
    if (!r.given("radius")) throw InputError(r.line() + "column radius: a sphere needs its radius");
    check_mass_or_density(r);
    const double radius = r.positive("radius");
    const double mass =
        r.given("mass") ? r.positive("mass") : sphere_mass(r.positive("density"), radius);
    const std::size_t k = b.size();
    b.resize(k + 1);
    b.set_free_sphere(k, mass, radius);
    const auto [moments, axes] = principal_frame(r, b.inertia[k], b.principal_axes[k]);
    b.inertia[k] = moments;
    b.principal_axes[k] = axes;
}

void add_aggregate_row(Bodies& b, const RowReader& r, SharedFiles& files) {
    std::vector<SpherePart> parts = files.parts(r);
    const bool masses_given = parts.front().mass > 0.0;
    for (const SpherePart& s : parts)
        if ((s.mass > 0.0) != masses_given)
            throw InputError(r.where("parts") + "give every sphere a mass (or density), or none");
    double volume = 0.0;
    for (const SpherePart& s : parts)
        volume += sphere_mass(1.0, s.radius);
    if (!masses_given) {
        check_mass_or_density(r);
        const double rho = r.given("density") ? r.positive("density") : r.positive("mass") / volume;
        for (SpherePart& s : parts)
            s.mass = sphere_mass(rho, s.radius);
    } else if (r.given("density")) {
        throw InputError(r.where("density") + "the parts give their own masses");
    }
    MassProperties p;
    try {
        p = mass_properties(parts);
    } catch (const std::invalid_argument& e) {
        throw InputError(r.where("parts") + e.what());
    }
    if (masses_given && r.given("mass") && !agrees(r.positive("mass"), p.mass, p.mass))
        throw InputError(r.where("mass") + "the parts' masses add up to " + std::to_string(p.mass) +
                         " kg");
    // Kept as given when the centre of mass is at the origin to round-off.
    const bool centred = p.centre.norm() <= 1e-12 * p.bounding_radius;
    const std::size_t k = b.size();
    resize_table(b, k + 1);
    double mass = 0.0, radius = 0.0; // the mass summed in row order, as check_consistent does
    for (const SpherePart& s : parts) {
        const Vec3 offset = centred ? s.centre : Vec3(s.centre - p.centre);
        b.spheres.body.push_back(static_cast<std::int64_t>(k));
        b.spheres.offset.push_back(offset);
        b.spheres.radius.push_back(s.radius);
        b.spheres.mass.push_back(s.mass);
        mass += s.mass;
        radius = std::max(radius, offset.norm() + s.radius);
    }
    if (r.given("radius")) {
        const double given = r.positive("radius");
        if (!agrees(given, radius, radius))
            throw InputError(r.where("radius") + "the parts reach " + std::to_string(radius) +
                             " m from their centre of mass");
        radius = given;
    }
    b.mass[k] = mass;
    b.radius[k] = radius;
    const auto [moments, axes] = principal_frame(r, p.moments, p.axes);
    b.inertia[k] = moments;
    b.principal_axes[k] = axes;
}

void add_polyhedron_row(Bodies& b, const RowReader& r, SharedFiles& files) {
    const std::int64_t shape = files.shape(r);
    check_mass_or_density(r);
    const shapes::Polyhedron& p = files.catalogue()[static_cast<std::size_t>(shape)];
    const double volume = shapes::polyhedron_volume(p.hull);
    const double rho = r.given("density") ? r.positive("density") : r.positive("mass") / volume;
    const MassProperties m = shapes::polyhedron_mass_properties(p.hull, rho);
    const double mass = r.given("mass") ? r.positive("mass") : m.mass;
    const double radius = shapes::circumradius(p);
    if (r.given("radius") && !agrees(r.positive("radius"), radius, radius))
        throw InputError(r.where("radius") + "the shape's circumradius is " +
                         std::to_string(radius) + " m");
    const std::size_t k = b.size();
    resize_table(b, k + 1);
    b.mass[k] = mass;
    b.radius[k] = radius;
    const auto [moments, axes] = principal_frame(r, m.moments, m.axes);
    b.inertia[k] = moments;
    b.principal_axes[k] = axes;
    b.hulls.body.push_back(static_cast<std::int64_t>(k));
    b.hulls.shape.push_back(shape);
    b.hulls.mass.push_back(mass);
}

void check_header(const TextTable& t) {
    const std::string at = t.path + ":" + std::to_string(t.header_line) + ": ";
    std::set<std::string> known;
    for (const BodyTableColumn& c : body_table_columns())
        known.insert(c.name);
    for (const std::string& name : t.header)
        if (!known.count(name)) {
            std::string names;
            for (const BodyTableColumn& c : body_table_columns())
                names += (names.empty() ? "" : ", ") + std::string(c.name);
            throw InputError(at + "unknown column " + name + "; a body table's columns are " +
                             names + " (docs/parameters.md)");
        }
    for (const char* needed : {"id", "x", "y", "z"})
        if (!t.column(needed))
            throw InputError(at + "the header has no column " + std::string(needed) +
                             " (every body needs id, x, y, z)");
    for (const auto& group : column_groups)
        for (const std::string& name : group)
            if (t.column(name).has_value() != t.column(group[0]).has_value())
                throw InputError(at + "columns " + RowReader::joined(group) +
                                 " come together; the header has " +
                                 (t.column(name) ? name : group[0]) + " without " +
                                 (t.column(name) ? group[0] : name));
}

} // namespace

Bodies read_body_table(const std::string& path) {
    const TextTable t = read_text_table(path, "body table");
    check_header(t);
    if (t.rows.empty()) throw InputError(path + ": the body table has no rows");
    Bodies b;
    b.reserve(t.rows.size());
    SharedFiles files(path);
    for (const TextTable::Row& row : t.rows) {
        const RowReader r(t, row);
        r.check_groups();
        const std::int64_t id = r.id();
        const Model model = model_of(r);
        if (model != Model::polyhedron && r.given("size"))
            throw InputError(r.where("size") +
                             "scales a polyhedron's shape; a sphere has its radius, an "
                             "aggregate its parts");
        if (model == Model::sphere) {
            add_sphere_row(b, r);
        } else if (model == Model::aggregate) {
            add_aggregate_row(b, r, files);
        } else {
            add_polyhedron_row(b, r, files);
        }
        const std::size_t k = b.size() - 1;
        b.id[k] = id;
        b.pos[k] = r.required_vec("x", "y", "z");
        b.vel[k] = r.vec("vx", "vy", "vz");
        b.spin[k] = r.vec("wx", "wy", "wz");
        b.orientation[k] = orientation_of(r);
        b.free_path[k] = r.number("free_path", b.free_path[k], true);
        if (!(b.free_path[k] >= 0.0))
            throw InputError(r.where("free_path") + "must be >= 0 (inf: no collision yet)");
    }
    if (!files.catalogue().empty()) b.set_hull_shapes(files.take_catalogue());
    return b;
}

} // namespace rubble::ic
