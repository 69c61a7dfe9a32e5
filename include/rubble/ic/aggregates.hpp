// SPDX-License-Identifier: MIT
#pragma once
// Building rigid aggregates of spheres (docs/aggregates.md, "Building aggregates"): convex
// shapes (box, regular tetrahedron, random hull of a jittered ellipsoid) filled with spheres on
// a simple-cubic lattice, explicit layouts from a text file, and a fill whose mass and inertia
// match its hull's.
//
// Overlap convention (pkdgrav's; Richardson et al. 2009, P&SS 57, 183): every sphere is a
// homogeneous solid sphere of the one density and mass_properties sums them, so where two
// spheres overlap the lens is counted twice. For two equal spheres of radius r at distance d
// the mass is too large by the lens, V_lens / V_union = (4r + d)(2r - d)^2 / 12 / V_union
// (two_sphere_union gives the exact union); the lattice fills here only touch (d = 2r: no
// error), while the hull match may make them overlap. Spheres of a fill touch their lattice
// neighbours, so an aggregate is connected; each generator checks it.
#include <cstdint>
#include <string>
#include <vector>

#include "rubble/core/convex_hull.hpp"
#include "rubble/core/enum_names.hpp"
#include "rubble/core/random.hpp"
#include "rubble/core/rigid_body.hpp"

namespace rubble::ic {

/// The shape of a cloud's grains. vertices: the convex hull of a vertex file's points.
enum class GrainKind { sphere, cube, box, tetrahedron, hull, file, vertices };

/// ic.cloud.grain's names.
inline constexpr EnumNames<GrainKind, 7> grain_kind_names{{{"sphere", GrainKind::sphere},
                                                           {"cube", GrainKind::cube},
                                                           {"box", GrainKind::box},
                                                           {"tetrahedron", GrainKind::tetrahedron},
                                                           {"hull", GrainKind::hull},
                                                           {"file", GrainKind::file},
                                                           {"vertices", GrainKind::vertices}}};

/// What a grain of a hull kind becomes: a rigid aggregate of spheres filling the hull, or the
/// polyhedron itself (docs/polyhedra.md).
enum class GrainModel { aggregate, polyhedron };

/// ic.cloud.grain_model's names.
inline constexpr EnumNames<GrainModel, 2> grain_model_names{
    {{"aggregate", GrainModel::aggregate}, {"polyhedron", GrainModel::polyhedron}}};

/// Points of a random hull: Ferrari et al. 2020 (MNRAS) take the convex hull of 16 random
/// points on an ellipsoid.
inline constexpr int hull_points = 16;
/// Each random point's distance from the centre is the ellipsoid's times 1 + u, u uniform in
/// [-hull_jitter, hull_jitter]: irregular faces without spikes.
inline constexpr double hull_jitter = 0.1;

/// How a cloud's grains are built (ic.cloud.grain and the keys after it). The initialisers are
/// the keys' defaults (config/parameter_specs.cpp binds them); layout and vertex_hull are read
/// from ic.cloud.grain_file by config/run_config.cpp.
struct GrainConfig {
    GrainKind kind = GrainKind::sphere;
    std::int64_t spheres_per_grain = 20; ///< target count of a lattice fill
    double sphere_radius = 0.0;          ///< m; > 0: fill at this radius, the count follows
    Vec3 aspect = Vec3::Ones();          ///< box edges, ellipsoid semi-axes (ratios)
    bool match_hull = false;             ///< match mass and inertia of the hull (match_hull())
    std::vector<SpherePart> layout;      ///< kind file: centres and radii (m), masses unused
    shapes::ConvexHull vertex_hull;      ///< kind vertices: the file's hull (m, as read)
    GrainModel model = GrainModel::aggregate;
};

/// True for the kinds that are a convex hull (all but sphere and file): those a grain model
/// of polyhedra can take, and those match_hull can match.
[[nodiscard]] inline bool is_hull_kind(GrainKind k) {
    return k != GrainKind::sphere && k != GrainKind::file;
}

/// Box centred at the origin with these edge lengths (m), faces normal to the axes.
[[nodiscard]] shapes::ConvexHull box_hull(const Vec3& edges);
/// Regular tetrahedron with circumradius r (m), its centroid at the origin, apex on +z and
/// base face at z = -r/3 with one edge along x: lattice layers and rows in it are nested, so
/// its lattice fills are connected.
[[nodiscard]] shapes::ConvexHull tetrahedron_hull(double r);
/// Convex hull of hull_points points on the ellipsoid of these semi-axes (m), each at a
/// uniformly random direction and jittered radially by hull_jitter.
[[nodiscard]] shapes::ConvexHull random_ellipsoid_hull(const Vec3& semi_axes, Rng& rng);

/// Which lattice points a fill keeps: those whose whole sphere is in the hull (touching its
/// faces allowed), or those whose centre is (spheres reach up to a radius beyond it).
enum class FillRule { spheres_inside, centres_inside };

/// Spheres of radius spacing/2 and the given density at the points of a simple-cubic lattice of
/// this spacing (m) that the rule keeps, the lattice centred on the hull's centroid and
/// shifted by half a spacing along the axes where that keeps more spheres (connected fills
/// first). Neighbours touch. Empty when none fits.
[[nodiscard]] std::vector<SpherePart> fill_hull(const shapes::ConvexHull& hull, double spacing,
                                                double density,
                                                FillRule rule = FillRule::spheres_inside);
/// fill_hull with a count closest to k (the count of a lattice fill moves in steps, so it can
/// differ from k; found by secant steps on count ~ V / spacing^3), at the largest spacing that
/// gives that count (to 2^-20): a box of n^3 gets spacing edge / n. Throws InputError when no
/// spacing tried gives at least 2 spheres.
[[nodiscard]] std::vector<SpherePart> fill_hull_count(const shapes::ConvexHull& hull,
                                                      std::int64_t k, double density,
                                                      FillRule rule = FillRule::spheres_inside);

/// True when the graph of touching or overlapping spheres (|c_i - c_j| <= (R_i + R_j)
/// (1 + 1e-9)) is connected. O(K) with a hash grid.
[[nodiscard]] bool is_connected(const std::vector<SpherePart>& parts);

/// Largest relative difference between the ascending principal moments of a and b,
/// max_k |a_k - b_k| / b_k.
[[nodiscard]] double principal_moment_mismatch(const MassProperties& a, const MassProperties& b);

/// A fill changed so that its mass properties match the hull's filled with `density`.
struct HullMatch {
    std::vector<SpherePart> parts;
    double residual = 0.0; ///< principal_moment_mismatch(aggregate, hull)
};
/// Sets every sphere's mass so the total is the hull's (one density), then scales the layout
/// along its own principal axes so its principal moments are the hull's (I_k = S_j + S_l + P,
/// S_k = sum m x_k^2 in that frame, P = sum 2/5 m R^2), turns those axes onto the hull's and
/// puts its centre of mass on the hull's: the aggregate's inertia tensor is then the hull's.
/// Where a stretch exceeds 1 the radii grow by it so stretched neighbours still touch (the
/// density drops to keep the mass), which changes P: the rounds repeat until every stretch is
/// within 1e-13 of 1, so the residual is round-off. Throws InputError when the spheres alone
/// carry more inertia than the hull (spheres too large) or the result is not connected.
[[nodiscard]] HullMatch match_hull(const shapes::ConvexHull& hull, std::vector<SpherePart> parts,
                                   double density);

/// The layout of a text file: one sphere per line, "x y z r" (m), blank lines and text after
/// '#' ignored; masses from the density. Throws InputError naming the file, the line and the
/// value for unreadable files, malformed lines, radii <= 0, fewer than 2 spheres, or spheres
/// that are not connected.
[[nodiscard]] std::vector<SpherePart> read_layout(const std::string& path, double density);

/// The convex hull of the points of a text file, one vertex per line "x y z" (m), '#' starting
/// a comment (a polyhedral grain's shape). Throws InputError naming the file and line of a
/// malformed line, or the file and the problem when the points have no hull (fewer than 4,
/// coinciding, coplanar: shapes::convex_hull); points inside the hull are dropped.
[[nodiscard]] shapes::ConvexHull read_hull_vertices(const std::string& path);

/// The hull of a grain of a hull kind (is_hull_kind) at size r: circumradius r about its
/// centroid, which is at the origin. A random hull draws its points from rng.
[[nodiscard]] shapes::ConvexHull make_grain_hull(const GrainConfig& g, double r, Rng& rng);

/// One grain of size r (m): for the hull kinds the hull is scaled to circumradius r about its
/// centroid, then filled (and matched); a file layout is scaled to bounding radius r. The
/// spheres of a fill lie inside the hull, so the grain's bounding radius is at most r (a
/// matched fill may reach slightly beyond the hull).
/// Not for GrainKind::sphere.
[[nodiscard]] std::vector<SpherePart> make_grain(const GrainConfig& g, double r, double density,
                                                 Rng& rng);

/// The aggregate of a hull kind's grain of size r (m) from its hull (make_grain_hull): the
/// lattice fill of g.spheres_per_grain spheres (or of g.sphere_radius), matched to the hull's
/// mass and inertia when g.match_hull. make_grain is make_grain_hull and then this.
[[nodiscard]] std::vector<SpherePart>
grain_of_hull(const GrainConfig& g, const shapes::ConvexHull& hull, double r, double density);

/// True when make_grain builds the same shape at every size (all kinds but hull, at a set
/// sphere count): a cloud then scales one grain with scaled_grain.
[[nodiscard]] inline bool same_shape_at_every_size(const GrainConfig& g) {
    return g.kind != GrainKind::hull && !(g.sphere_radius > 0.0);
}

/// The grain with lengths times a and masses times a^3 (its density unchanged).
[[nodiscard]] std::vector<SpherePart> scaled_grain(std::vector<SpherePart> parts, double a);

/// Uniformly random rotation (Shoemake 1992, Graphics Gems III, "Uniform random rotations").
[[nodiscard]] Quat random_orientation(Rng& rng);

/// Exact volume (m^3) and moment of inertia about the line of centres (kg m^2, density rho)
/// of the union of two spheres of radius r at distance d < 2r: the pair minus its lens of
/// two caps of height h = r - d/2, V_cap = pi h^2 (3r - h)/3,
/// I_cap = pi rho h^3 (20 r^2 - 15 r h + 3 h^2) / 30 (a stack of disks, integrated).
struct TwoSphereUnion {
    double volume;
    double axial_inertia;
};
[[nodiscard]] TwoSphereUnion two_sphere_union(double r, double d, double rho);

} // namespace rubble::ic
