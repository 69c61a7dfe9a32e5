"""Polyhedral bodies: the GJK distance against closed forms, a separating-plane certificate and
scipy's SLSQP; mass properties of boxes; contacts, aggregates and their measures of stacked
boxes (known contacts, mass, inertia, porosity 0 against the hull); synthetic files through the
reader and the commands, damaged ones refused."""

from __future__ import annotations

import json

import h5py
import numpy as np
import pytest
from scipy.optimize import minimize
from scipy.spatial import ConvexHull

from rubble_analysis import open_run
from rubble_analysis.__main__ import main
from rubble_analysis.contacts import grain_aggregates, grain_contact_pairs, hull_gap_within
from rubble_analysis.polyhedra import gjk_distance, mass_properties, world_vertices
from rubble_analysis.properties import measure
from synthetic import (box, outward_triangles, polyhedra_snapshot, quaternion_from_matrix,
                       random_quaternion, rotation, write_run)

EPS = np.finfo(float).eps
IDENTITY = np.array([1.0, 0.0, 0.0, 0.0])
TOLERANCE = 0.01  # the commands' default: gap <= 0.01 x the smaller circumradius
CUBE_R = np.sqrt(3.0) / 2.0  # circumradius of the unit cube
CUBE_GAP = TOLERANCE * CUBE_R  # largest gap between unit cubes that is a contact


def quat_about(axis, angle: float) -> np.ndarray:
    axis = np.asarray(axis, dtype=float) / np.linalg.norm(axis)
    return np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * axis])


def placed(shape, q, x) -> np.ndarray:
    """Inertial vertices of a shape turned by q and moved to x (scipy's rotation:
    independent of rubble_analysis.rigid)."""
    return np.asarray(x, dtype=float) + shape.vertices @ rotation(q).T


# GJK --------------------------------------------------------------------------------------
#
# Round-off: the closest point of a simplex is formed from the inputs with a few operations,
# so the distance is off by a few eps of the coordinates' size (4 eps for exactly
# representable inputs); vertices that were rotated carry a few eps of their size already, and
# 64 eps bounds what both sides share (the bound of rubble's own GJK tests).

CUBE = box(1.0, 1.0, 1.0)


@pytest.mark.parametrize("gap", [1.0, 1e-3, 1e-9])
def test_gjk_facing_cubes(gap):
    r = gjk_distance(CUBE.vertices, CUBE.vertices + [1.0 + gap, 0.0, 0.0])
    assert not r.overlap
    assert abs(r.distance - gap) <= 4 * EPS * (2.0 + gap)
    assert r.lower <= r.distance and r.distance - r.lower <= 4 * EPS * (2.0 + gap)
    assert abs(np.linalg.norm(r.point_a - r.point_b) - r.distance) <= 4 * EPS * 2.0
    assert abs(r.point_a[0] - 0.5) <= 4 * EPS and abs(r.point_b[0] - 0.5 - gap) <= 4 * EPS


def edge_edge(gap: float):
    """A cube turned 45 degrees about x (top: an edge along x at z = sqrt(2)/2) below one turned
    45 degrees about y (bottom: an edge along y), the edges crossing gap apart."""
    qa, qb = quat_about([1, 0, 0], np.pi / 4), quat_about([0, 1, 0], np.pi / 4)
    return placed(CUBE, qa, [0, 0, 0]), placed(CUBE, qb, [0, 0, np.sqrt(2.0) + gap])


def vertex_face(gap: float):
    """A cube standing on a corner (its diagonal (1, 1, 1) turned onto -z) above the top face
    of an upright one, the corner gap above the face."""
    d = np.array([1.0, 1.0, 1.0]) / np.sqrt(3.0)
    axis = np.cross(d, [0.0, 0.0, -1.0])
    angle = np.arccos(-d[2])
    qb = quat_about(axis, angle)
    return CUBE.vertices, placed(CUBE, qb, [0.1, -0.05, 0.5 + np.sqrt(3.0) / 2 + gap])


@pytest.mark.parametrize("case", [edge_edge, vertex_face])
@pytest.mark.parametrize("gap", [0.5, 1e-3, 1e-7])
def test_gjk_edge_edge_and_vertex_face(case, gap):
    va, vb = case(gap)
    r = gjk_distance(va, vb)
    assert not r.overlap
    assert abs(r.distance - gap) <= 64 * EPS * 2.0
    # The closest points: on the two features, along z.
    assert np.allclose((r.point_b - r.point_a)[:2], 0.0, atol=64 * EPS * 2.0)


def test_gjk_overlap_containment_coincidence():
    for vb in (CUBE.vertices + [0.9, 0.2, 0.1],        # overlapping
               0.3 * CUBE.vertices + [0.1, 0.1, 0.1],  # contained
               CUBE.vertices,                          # the same
               CUBE.vertices + [1.0, 0.0, 0.0]):       # touching faces
        r = gjk_distance(CUBE.vertices, vb)
        assert r.overlap and r.distance == 0.0
    assert gjk_distance(*edge_edge(-1e-3)).overlap
    assert gjk_distance(*vertex_face(-1e-3)).overlap


def random_hull(rng: np.random.Generator, n: int) -> np.ndarray:
    """n points on a random ellipsoid, every one a vertex of their hull."""
    u = rng.normal(size=(n, 3))
    u /= np.linalg.norm(u, axis=1)[:, None]
    return u * rng.uniform(0.5, 2.0, 3)


def slsqp_distance(va: np.ndarray, vb: np.ndarray) -> float:
    """min |A lambda - B mu| over convex combinations lambda, mu by scipy's SLSQP."""
    na, nb = len(va), len(vb)

    def f(x):
        p = x[:na] @ va - x[na:] @ vb
        return p @ p

    def grad(x):
        p = x[:na] @ va - x[na:] @ vb
        return np.concatenate([2 * va @ p, -2 * vb @ p])

    sums = [{"type": "eq", "fun": lambda x: x[:na].sum() - 1.0,
             "jac": lambda x: np.r_[np.ones(na), np.zeros(nb)]},
            {"type": "eq", "fun": lambda x: x[na:].sum() - 1.0,
             "jac": lambda x: np.r_[np.zeros(na), np.ones(nb)]}]
    x0 = np.concatenate([np.full(na, 1.0 / na), np.full(nb, 1.0 / nb)])
    res = minimize(f, x0, jac=grad, method="SLSQP", bounds=[(0.0, 1.0)] * (na + nb),
                   constraints=sums, options={"ftol": 1e-16, "maxiter": 1000})
    x = np.clip(res.x, 0.0, None)
    return float(np.linalg.norm(x[:na] @ va / x[:na].sum() - x[na:] @ vb / x[na:].sum()))


def test_gjk_random_pairs_against_a_certificate_and_slsqp():
    """Separated pairs of random hulls (8 to 32 vertices, turned and moved at random; B pushed
    along a random direction until the two are 1e-6 to 1 of their size apart along it):
    - GJK's closest points are points of the hulls, |p_a - p_b| the distance it reports, and
      the plane normal to p_a - p_b separates the hulls by as much (min over A of n.a - max
      over B of n.b, from the vertices): upper and lower bound agree to round-off, which proves
      the distance independently of GJK;
    - SLSQP on the convex combinations finds no shorter distance (beyond round-off), and
      agrees to 1e-8 of the size (its own convergence).
    Overlapping pairs (B's centroid inside A, so a common point) are overlaps."""
    rng = np.random.default_rng(21)
    worst = 0.0
    for trial in range(60):
        va = random_hull(rng, int(rng.choice([8, 16, 32])))
        vb = random_hull(rng, int(rng.choice([8, 16, 32])))
        va = va @ rotation(random_quaternion(rng)).T + rng.uniform(-5, 5, 3)
        vb = vb @ rotation(random_quaternion(rng)).T
        d = rng.normal(size=3)
        d /= np.linalg.norm(d)
        if trial % 4 == 0:
            vb = vb - vb.mean(0) + va.mean(0) + 0.1 * d
            assert gjk_distance(va, vb).overlap
            continue
        gap = 10.0 ** rng.uniform(-6, 0)
        vb = vb + ((va @ d).max() - (vb @ d).min() + gap) * d
        r = gjk_distance(va, vb)
        scale = max(np.abs(va).max(), np.abs(vb).max())
        roundoff = 64 * EPS * scale
        assert not r.overlap and r.distance >= gap - roundoff
        # p_a in A, p_b in B: inside every face plane of their hulls.
        for v, p in ((va, r.point_a), (vb, r.point_b)):
            eq = ConvexHull(v).equations
            assert np.all(eq[:, :3] @ p + eq[:, 3] <= roundoff)
        assert abs(np.linalg.norm(r.point_a - r.point_b) - r.distance) <= roundoff
        n = (r.point_b - r.point_a) / r.distance
        lower = (vb @ n).min() - (va @ n).max()
        assert r.distance - lower <= roundoff
        assert lower - roundoff <= r.lower <= r.distance
        ref = slsqp_distance(va, vb)
        assert r.distance <= ref + roundoff
        assert ref - r.distance <= 1e-8 * scale
        worst = max(worst, (r.distance - lower) / scale)
    assert worst <= 64 * EPS


def test_gjk_stops_early_on_the_right_side():
    """hull_gap_within, with GJK stopped once the distance is known to be on one side of the
    limit, agrees with the full distance."""
    rng = np.random.default_rng(5)
    for _ in range(40):
        va = random_hull(rng, 16)
        vb = random_hull(rng, 16) + [3.0, 0.0, 0.0] + rng.normal(size=3) * 0.8
        d = gjk_distance(va, vb)
        for limit in (0.5 * d.distance, 2.0 * d.distance, 0.01):
            if abs(limit - d.distance) > 1e-9:
                assert hull_gap_within(va, vb, limit) == (d.overlap or d.distance <= limit)


# Mass properties ---------------------------------------------------------------------------

def test_mass_properties_of_boxes_turned_and_moved():
    rng = np.random.default_rng(3)
    for a, b, c in ((1.0, 1.0, 1.0), (1.0, 2.0, 3.0), (0.2, 5.0, 0.7)):
        shape = box(a, b, c)
        q = random_quaternion(rng)
        x = rng.uniform(-10, 10, 3)
        mp = mass_properties(placed(shape, q, x), shape.triangles)
        rot = rotation(q)
        scale = 10.0 + max(a, b, c)  # the coordinates' size
        assert abs(mp.volume - a * b * c) <= 64 * EPS * scale**3
        assert np.abs(mp.centroid - x).max() <= 64 * EPS * scale**4 / (a * b * c)
        ref = rot @ shape.inertia @ rot.T
        assert np.abs(mp.inertia - ref).max() <= 64 * EPS * scale**5


def test_mass_properties_of_a_random_hull_against_its_hull_volume():
    rng = np.random.default_rng(4)
    v = random_hull(rng, 40)
    mp = mass_properties(v, outward_triangles(v))
    assert mp.volume == pytest.approx(ConvexHull(v).volume, rel=1e-13)
    # Inertia of a solid is positive definite and satisfies the triangle inequalities.
    moments = np.linalg.eigvalsh(mp.inertia)
    assert moments[0] > 0 and moments[2] <= moments[0] + moments[1] + 1e-12 * moments[2]


# Contacts, aggregates and their measures ----------------------------------------------------

def stack(q_all=IDENTITY, x0=(0.0, 0.0, 0.0)):
    """Unit cubes (1000 kg/m^3), the configuration turned as a whole by q_all about x0:
    0, 1, 2 stacked face to face along z; 3 above 2 at half the tolerated gap (a contact);
    4 beside 0 at twice it (none); 5 far away."""
    layout = np.array([[0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 0, 3 + 0.5 * CUBE_GAP],
                       [1 + 2 * CUBE_GAP, 0, 0], [10, 10, 10]], dtype=float)
    rot = rotation(q_all)
    position = np.asarray(x0) + layout @ rot.T
    return polyhedra_snapshot([CUBE] * 6, position, [q_all] * 6)


def turned_stacks():
    rng = np.random.default_rng(7)
    return [(IDENTITY, (0.0, 0.0, 0.0))] + [
        (random_quaternion(rng), tuple(rng.uniform(-100, 100, 3))) for _ in range(3)]


@pytest.mark.parametrize("q_all, x0", turned_stacks())
def test_contacts_and_aggregates_of_stacked_cubes(q_all, x0):
    snap = stack(q_all, x0)
    assert grain_contact_pairs(snap, TOLERANCE).tolist() == [[0, 1], [1, 2], [2, 3]]
    aggs = grain_aggregates(snap, TOLERANCE)
    assert aggs.count == 1 and aggs.members(0).tolist() == [0, 1, 2, 3]
    assert aggs.escapers.tolist() == [4, 5]
    assert "circumradius" in aggs.criterion
    assert grain_aggregates(snap, TOLERANCE, G=6.6743e-11).count == 1


@pytest.mark.parametrize("q_all, x0", turned_stacks())
def test_two_touching_cubes_measured(q_all, x0):
    """Two unit cubes face to face: mass 2000 kg, centre between them, the inertia of a
    2 x 1 x 1 box (m (b^2 + c^2) / 12: 333.3, 833.3, 833.3 kg m^2) turned with them,
    lambda = 2.5, grain density 1000 kg/m^3; the convex hull of their vertices is the
    2 x 1 x 1 box, so the hull porosity is 0 (to round-off), and so is the alpha shape's."""
    snap = stack(q_all, x0)
    p = measure(snap, np.array([0, 1]))
    rot = rotation(q_all)
    scale = 100.0 + 3.0  # coordinates' size, for the round-off of the volumes
    assert p.n == 2 and p.n_polyhedra == 2 and p.n_spheres == 0
    assert p.mass == pytest.approx(2000.0, rel=4 * EPS)
    assert np.abs(p.com - (np.asarray(x0) + rot @ [0.0, 0.0, 0.5])).max() <= 64 * EPS * scale
    ref = rot @ np.diag([2000.0 * 5 / 12, 2000.0 * 5 / 12, 2000.0 * 2 / 12]) @ rot.T
    assert np.abs(p.inertia - ref).max() <= 64 * EPS * 2000.0 * 5 / 12
    assert p.principal_moments == pytest.approx([2000 / 6, 2000 * 5 / 12, 2000 * 5 / 12],
                                                rel=64 * EPS)
    assert p.elongation == pytest.approx(2.5, rel=64 * EPS)
    assert p.grain_volume == pytest.approx(2.0, rel=4 * EPS)
    assert p.grain_density == pytest.approx(1000.0, rel=4 * EPS)
    assert abs(p.hull_volume - 2.0) <= 64 * EPS * scale**3
    assert abs(p.porosity_hull) <= 64 * EPS * scale**3
    assert abs(p.porosity_alpha) <= 64 * EPS * scale**3
    # A rigid rotation: two cubes turning about z as one at omega.
    omega = np.array([0.0, 0.0, 1e-4])
    spinning = polyhedra_snapshot([CUBE] * 2, snap.position[:2], snap.orientation[:2],
                                  velocity=np.cross(omega, snap.position[:2] - p.com),
                                  spin=np.tile(omega, (2, 1)))
    q = measure(spinning, np.array([0, 1]), volumes="none")
    assert q.period == pytest.approx(2 * np.pi / 1e-4, rel=1e-12)
    assert q.velocity_dispersion <= 1e-12 * 1e-4


def test_inertia_of_turned_boxes_from_the_stored_moments():
    """Bodies of unequal boxes at random orientations: the aggregate's tensor equals the sum of
    each box's analytic tensor turned by scipy's rotation of its quaternion, plus the parallel
    axis terms; checks the principal-axes and orientation conventions for polyhedra."""
    rng = np.random.default_rng(11)
    shapes = [box(1.0, 2.0, 3.0), box(0.5, 0.5, 4.0), box(2.0, 1.0, 0.3)]
    q = [random_quaternion(rng) for _ in shapes]
    x = rng.uniform(-3, 3, (3, 3))
    snap = polyhedra_snapshot(shapes, x, q, density=1500.0)
    p = measure(snap, np.arange(3), volumes="none")
    m = np.array([1500.0 * s.volume for s in shapes])
    com = (m[:, None] * x).sum(0) / m.sum()
    ref = np.zeros((3, 3))
    for s, qk, xk, mk in zip(shapes, q, x, m):
        r = rotation(qk)
        d = xk - com
        ref += r @ (1500.0 * s.inertia) @ r.T + mk * (d @ d * np.eye(3) - np.outer(d, d))
    assert np.abs(p.inertia - ref).max() <= 256 * EPS * np.trace(ref)
    # And the world vertices follow the same convention.
    world, start = world_vertices(snap.hull_shapes, snap.hull_shape, x, np.array(q))
    for k, s in enumerate(shapes):
        assert np.abs(world[start[k]:start[k + 1]] - placed(s, q[k], x[k])).max() \
            <= 16 * EPS * 10


def test_a_sphere_on_a_cube():
    """Mixed bodies: a free sphere of radius 0.5 resting on a cube's top face (at half the
    tolerated gap) is in contact with it; raised to twice the gap, not."""
    for gap, touching in ((0.5, True), (2.0, False)):
        g = gap * TOLERANCE * 0.5  # the smaller radius is the sphere's
        snap = polyhedra_snapshot([CUBE], [[0.0, 0.0, 0.0]], [IDENTITY],
                                  spheres=[((0.2, 0.1, 1.0 + g), 0.5)])
        pairs = grain_contact_pairs(snap, TOLERANCE)
        assert pairs.tolist() == ([[0, 1]] if touching else [])
    p = measure(snap, np.array([0, 1]))
    assert p.n_polyhedra == 1 and p.n_spheres == 1
    assert p.grain_volume == pytest.approx(1.0 + 4 / 3 * np.pi * 0.125, rel=4 * EPS)


# Files ------------------------------------------------------------------------------------

def stack_at(step: int):
    """The stack, turning slowly about a tilted axis, one snapshot per step."""
    return stack(quat_about([0.3, 0.2, 1.0], 0.05 * step), (1.0, 2.0, 3.0))


def test_reader_reads_hulls_and_shapes(tmp_path):
    path = tmp_path / "boxes.h5"
    write_run(path, snapshot_at=stack_at)
    with h5py.File(path) as f:
        assert f["snapshots/000000/spheres/body"].shape == (0,)
        assert f["hull_shapes/vertices"].shape == (48, 3)
    with open_run(path) as run:
        snap = run.snapshot(-1)
    ref = stack_at(2)
    assert snap.hull_body.tolist() == list(range(6)) and snap.has_hull.all()
    assert snap.hull_of.tolist() == list(range(6))
    assert snap.sphere_body.size == 0 and snap.sphere_count.tolist() == [0] * 6
    assert snap.hull_shapes.vertex_start.tolist() == list(range(0, 56, 8))
    np.testing.assert_array_equal(snap.hull_volume, np.ones(6))
    for k in range(6):
        np.testing.assert_allclose(snap.hull_vertices(k),
                                   placed(CUBE, ref.orientation[k], ref.position[k]),
                                   rtol=0, atol=64 * EPS * 10)
        mp = mass_properties(snap.hull_vertices(k), snap.hull_triangles(k))
        assert mp.volume == pytest.approx(1.0, rel=1e-12)


def test_a_mixed_file_reads_back(tmp_path):
    """Spheres and polyhedra in one snapshot: the spheres table holds the sphere bodies only."""
    def mixed(step):
        return polyhedra_snapshot([CUBE], [[0.0, 0.0, 0.0]], [IDENTITY],
                                  spheres=[((0.2, 0.1, 1.0 + 0.001), 0.5), ((5.0, 0, 0), 1.0)])
    path = tmp_path / "mixed.h5"
    write_run(path, snapshot_at=mixed)
    with open_run(path) as run:
        snap = run.snapshot(-1)
    assert snap.hull_body.tolist() == [0] and snap.sphere_body.tolist() == [1, 2]
    assert snap.sphere_count.tolist() == [0, 1, 1] and snap.hull_of.tolist() == [0, -1, -1]
    assert grain_contact_pairs(snap, TOLERANCE).tolist() == [[0, 1]]
    aggs = grain_aggregates(snap, TOLERANCE)
    assert aggs.members(0).tolist() == [0, 1] and aggs.escapers.tolist() == [2]


def test_files_without_hulls_have_no_polyhedra(tmp_path):
    path = tmp_path / "spheres.h5"
    write_run(path)
    with open_run(path) as run:
        snap = run.snapshot(-1)
    assert snap.hulls == {} and snap.hull_shapes is None
    assert snap.hull_body.size == 0 and not snap.has_hull.any()
    assert snap.hull_of.tolist() == [-1] * 8 and snap.hull_vertex_position.shape == (0, 3)
    assert snap.sphere_body.tolist() == list(range(8))


def test_report_and_quicklook_of_a_polyhedral_file(tmp_path, capsys):
    path = tmp_path / "boxes.h5"
    write_run(path, snapshot_at=stack_at)
    out = tmp_path / "report"
    assert main(["report", str(path), "--output", str(out)]) == 0
    printed = capsys.readouterr().out
    summary = json.loads((out / "summary.json").read_text())
    assert summary["n_polyhedra"] == 6 and summary["n_spheres"] == 0
    assert summary["n_aggregates"] == 1 and summary["n_escapers"] == 2
    largest = summary["largest"]
    assert largest["n"] == 4 and largest["n_polyhedra"] == 4
    assert largest["mass_fraction"] == pytest.approx(4 / 6, rel=1e-15)
    # Four cubes in a column (the top one CUBE_GAP / 2 up): hull volume 4 + the gap's slab.
    assert largest["porosity_hull"] == pytest.approx(1 - 4 / (4 + 0.5 * CUBE_GAP), rel=1e-9)
    assert "bodies        4 (66.7 % of all), 4 polyhedra" in printed
    for name in ("views.png", "largest.png", "timeseries.png", "final_aggregates.csv"):
        assert (out / name).stat().st_size > 0
    assert main(["quicklook", str(path), "--output", str(tmp_path / "q.png")]) == 0
    assert main(["compare", str(path), str(path), "--output", str(tmp_path / "cmp")]) == 0


def damage(name: str):
    """Ways to break the hulls of a polyhedral file (path, h5py file) -> None."""
    def hull_body_out_of_range(f):
        del f["snapshots/000002/hulls/body"]
        f["snapshots/000002/hulls/body"] = np.array([0, 1, 2, 3, 4, 9])

    def hull_shape_out_of_range(f):
        del f["snapshots/000002/hulls/shape"]
        f["snapshots/000002/hulls/shape"] = np.array([0, 1, 2, 3, 4, 6])

    def triangle_outside_its_shape(f):
        t = f["hull_shapes/triangles"][()]
        t[20, 1] = 8
        del f["hull_shapes/triangles"]
        f["hull_shapes/triangles"] = t

    def vertex_start_short(f):
        v = f["hull_shapes/vertex_start"][()]
        del f["hull_shapes/vertex_start"]
        f["hull_shapes/vertex_start"] = v[:-1]

    def vertex_start_wrong_total(f):
        v = f["hull_shapes/vertex_start"][()]
        v[-1] -= 1
        del f["hull_shapes/vertex_start"]
        f["hull_shapes/vertex_start"] = v

    def no_hull_shapes(f):
        del f["hull_shapes"]

    def body_without_shape(f):
        for name in ("body", "shape", "mass"):
            v = f[f"snapshots/000002/hulls/{name}"][()]
            del f[f"snapshots/000002/hulls/{name}"]
            f[f"snapshots/000002/hulls/{name}"] = v[:-1]

    def negative_volume(f):
        v = f["hull_shapes/volume"][()]
        v[2] = -1.0
        del f["hull_shapes/volume"]
        f["hull_shapes/volume"] = v

    return locals()[name]


@pytest.mark.parametrize("fault, message", [
    ("hull_body_out_of_range", "hulls/body: not a body row"),
    ("hull_shape_out_of_range", "hulls/shape: not a shape"),
    ("triangle_outside_its_shape", "hull_shapes/triangles: a vertex index outside"),
    ("vertex_start_short", "triangle_start has 7 rows but /hull_shapes/vertex_start has 6"),
    ("vertex_start_wrong_total", "hull_shapes/vertex_start runs from 0 to 47"),
    ("no_hull_shapes", "no /hull_shapes"),
    ("body_without_shape", "body row 5 has no sphere and no hull"),
    ("negative_volume", "hull_shapes/volume: zero, negative"),
])
def test_damaged_hulls_are_refused_in_one_line(tmp_path, capsys, fault, message):
    path = tmp_path / "boxes.h5"
    write_run(path, snapshot_at=stack_at)
    with h5py.File(path, "r+") as f:
        damage(fault)(f)
    assert main(["report", str(path), "--output", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("error: ") and message in err, err


def test_quaternion_helper_round_trip():
    rng = np.random.default_rng(0)
    q = random_quaternion(rng)
    back = quaternion_from_matrix(rotation(q))
    assert min(np.abs(back - q).max(), np.abs(back + q).max()) <= 16 * EPS
