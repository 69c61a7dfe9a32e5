"""Rigid aggregates of spheres as grains: contacts through their spheres, inertia and spin from
their own tensors, volumes from their spheres; against brute-force sums over the spheres and an
independent rotation (scipy's)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import ConvexHull

from rubble_analysis import plots, quicklook
from rubble_analysis.__main__ import main
from rubble_analysis.contacts import ESCAPER, contact_pairs, find_aggregates, grain_aggregates
from rubble_analysis.properties import measure
from rubble_analysis.report import overlap_warnings
from rubble_analysis.volume import surface_points
from synthetic import (grain, grains_snapshot, lattice, random_quaternion, rotation,
                       snapshot, sphere_sums, write_run)

EPS = np.finfo(float).eps
IDENTITY = np.array([1.0, 0.0, 0.0, 0.0])
# Round-off of one stored body: numpy's eigh is backward stable (||E|| <= p(3) eps ||I||,
# LAPACK Users' Guide sec. 4.7) and a rotation rebuilt from a quaternion, or a quaternion from
# a rotation, is off by a few eps; 32 eps bounds the lot. Sums over n terms add n eps of the
# sum of the terms' magnitudes (Higham 2002, eq. 4.4).
BODY_ROUND_OFF = 32 * EPS


def round_off(n_terms: int) -> float:
    return (n_terms + 32) * EPS


def cube(spheres_per_edge: int = 2) -> np.ndarray:
    """Centres of a touching cube fill of unit spheres (spacing 2), centred on the origin."""
    return lattice(spheres_per_edge, spheres_per_edge, spheres_per_edge)


def placed(layout: np.ndarray, q: np.ndarray, radius=1.0):
    """A grain whose spheres lie at `layout` (inertial frame) when its orientation is q: the
    body frame turned by q from the inertial one."""
    g = grain(layout, radius, body_frame=rotation(q))
    com = np.average(layout, axis=0, weights=g.mass)
    return g, com


def two_cubes(shift: np.ndarray, rng: np.random.Generator):
    """Two 2x2x2 cubes of unit spheres, the second shifted by `shift`, each with a random
    orientation (its body frame turned, its spheres where the layout puts them)."""
    qa, qb = random_quaternion(rng), random_quaternion(rng)
    (ga, ca), (gb, cb) = placed(cube(), qa), placed(cube() + shift, qb)
    return grains_snapshot([ga, gb], [ca, cb], [qa, qb])


def test_sphere_positions_follow_orientation_and_offset():
    rng = np.random.default_rng(1)
    layout = rng.normal(size=(7, 3)) * 3.0
    q = random_quaternion(rng)
    g, com = placed(layout, q, radius=rng.uniform(0.5, 1.5, 7))
    snap = grains_snapshot([g], [com], [q])
    assert snap.sphere_count.tolist() == [7]
    pair = grains_snapshot([g, g], [com, com + 20.0], [q, q])
    assert pair.spheres_of(np.array([1, 0])).tolist() == [*range(7, 14), *range(7)]
    scale = np.max(np.abs(layout))
    assert np.allclose(snap.sphere_position, layout, rtol=0, atol=BODY_ROUND_OFF * scale)


def test_two_cubes_touching_through_one_sphere_pair_form_one_aggregate():
    rng = np.random.default_rng(2)
    # Sphere (1, 1, 1) of the first and (3, 1, 1) of the second touch; every other pair of
    # spheres is at least sqrt(8) apart.
    touching = two_cubes(np.array([4.0, 2.0, 2.0]), rng)
    pairs = contact_pairs(touching.sphere_position, touching.sphere_radius, 0.01,
                          touching.sphere_body)
    assert pairs.tolist() == [[0, 1]]
    aggs = grain_aggregates(touching)
    assert aggs.count == 1 and aggs.labels.tolist() == [0, 0]
    # Half a radius further along x no sphere touches, though the bounding spheres (radius
    # 1 + sqrt 3 each) still overlap: not an aggregate, where bounding spheres would make one.
    apart = two_cubes(np.array([4.5, 2.0, 2.0]), rng)
    distance = np.linalg.norm(apart.position[1] - apart.position[0])
    assert distance < apart.radius.sum()
    assert grain_aggregates(apart).labels.tolist() == [ESCAPER, ESCAPER]
    assert find_aggregates(apart.position, apart.radius).count == 1
    # A grain's own spheres touch each other but never make it an aggregate by itself.
    alone = grains_snapshot([placed(cube(), IDENTITY)[0]], [[0.0, 0, 0]], [IDENTITY])
    assert grain_aggregates(alone).count == 0


def test_free_spheres_give_the_contacts_and_aggregates_of_spheres():
    rng = np.random.default_rng(3)
    pos = np.vstack([lattice(3, 3, 3), lattice(2, 2, 2) + [30.0, 0, 0],
                     rng.uniform(-60, 60, (40, 3))])
    snap = snapshot(pos, rng.uniform(0.8, 1.2, len(pos)))
    spheres = contact_pairs(snap.position, snap.radius, 0.01)
    grains = contact_pairs(snap.sphere_position, snap.sphere_radius, 0.01, snap.sphere_body)
    assert sorted(spheres.tolist()) == grains.tolist()
    assert np.array_equal(grain_aggregates(snap).labels,
                          find_aggregates(snap.position, snap.radius, mass=snap.mass).labels)


def test_overlaps_between_grains_are_warned_about_and_those_within_told_apart():
    dumbbell = grain([[0.0, 0, 0], [1.5, 0, 0]], 1.0)  # its two spheres overlap by 0.5 R
    far = grains_snapshot([dumbbell, dumbbell], [[0.0, 0, 0], [10.0, 0, 0]], [IDENTITY] * 2)
    (within,) = overlap_warnings(far)
    assert within.startswith("2 rigid bodies have spheres of their own overlapping")
    near = grains_snapshot([dumbbell, dumbbell], [[0.0, 0, 0], [0.0, 1.9, 0]], [IDENTITY] * 2)
    between, _ = overlap_warnings(near)
    assert between.startswith("2 pairs of spheres overlap by more than 1 % of a radius")
    assert overlap_warnings(two_cubes(np.array([4.0, 2.0, 2.0]), np.random.default_rng(8))) \
        == []


def random_grain_layout(rng: np.random.Generator, k: int) -> tuple[np.ndarray, np.ndarray]:
    """k spheres of random radii, each touching or overlapping one placed before (a connected
    grain, like a layout file's)."""
    radius = rng.uniform(0.5, 1.5, k)
    centres = np.zeros((k, 3))
    for i in range(1, k):
        j = rng.integers(i)
        u = rng.normal(size=3)
        centres[i] = centres[j] + u / np.linalg.norm(u) * 0.9 * (radius[i] + radius[j])
    return centres, radius


def pile(rng: np.random.Generator, n: int = 6):
    """n random grains at random places and orientations, moving and spinning."""
    grains, coms, qs = [], [], []
    for _ in range(n):
        centres, radius = random_grain_layout(rng, int(rng.integers(2, 9)))
        q = random_quaternion(rng)
        g, com = placed(centres @ rotation(random_quaternion(rng)).T
                        + rng.uniform(-8, 8, 3), q, radius)
        grains.append(g)
        coms.append(com)
        qs.append(q)
    return grains_snapshot(grains, coms, qs, velocity=rng.normal(size=(n, 3)) * 0.1,
                           spin=rng.normal(size=(n, 3)) * 0.01)


def test_inertia_and_spin_of_a_pile_are_the_sums_over_its_spheres():
    rng = np.random.default_rng(4)
    snap = pile(rng)
    members = np.arange(len(snap.id))
    p = measure(snap, members, volumes="hull")
    # Brute force over the spheres, from scipy's rotations.
    ref = sphere_sums(snap)
    m, radius = snap.sphere_mass, snap.sphere_radius
    tol = BODY_ROUND_OFF + round_off(len(m))
    assert np.abs(p.inertia - ref.inertia).max() <= tol * ref.inertia_scale
    assert np.abs(p.angular_momentum - ref.angular_momentum).max() \
        <= tol * ref.angular_momentum_scale
    x = ref.position
    assert np.allclose(p.com, np.average(x, axis=0, weights=m), rtol=0,
                       atol=round_off(len(m)) * np.max(np.abs(x)))
    assert p.n == len(snap.id) and p.n_spheres == len(m)
    assert p.grain_volume == pytest.approx(np.sum(4 / 3 * np.pi * radius**3),
                                           rel=round_off(len(m)))
    assert p.grain_density == pytest.approx(2000.0, rel=round_off(len(m)))
    # The hull of the spheres (each sampled as volume.py does), not of the bounding spheres.
    hull = ConvexHull(surface_points(x, radius, 128)).volume
    assert p.hull_volume == pytest.approx(hull, rel=round_off(len(m)))


def asymmetric_layout() -> tuple[np.ndarray, np.ndarray]:
    """An L of unequal spheres: three distinct principal moments, axes off the lattice."""
    centres = np.array([[0.0, 0, 0], [2, 0, 0], [4, 0, 0], [4, 2.2, 0], [4, 2.2, 1.8]])
    return centres, np.array([1.0, 1.0, 1.0, 1.1, 0.8])


def test_a_grain_measures_the_same_in_any_body_frame():
    """One layout of spheres stored three ways: body frame = inertial frame (principal axes not
    the identity), body frame = principal frame (principal axes the identity, orientation
    not), and an arbitrary body frame (neither)."""
    rng = np.random.default_rng(5)
    centres, radius = asymmetric_layout()
    w, v = np.array([[1e-3, -2e-3, 5e-4]]), np.array([[0.1, 0.0, -0.2]])
    inertial = grain(centres, radius)
    axes = rotation(inertial.principal_axes)
    assert np.abs(axes - np.eye(3)).max() > 0.1  # a test of principal_axes
    q_principal = inertial.principal_axes
    q_random = random_quaternion(rng)
    grains = {"inertial": (inertial, IDENTITY),
              "principal": (grain(centres, radius, body_frame=axes), q_principal),
              "random": (grain(centres, radius, body_frame=rotation(q_random)), q_random)}
    com = np.average(centres, axis=0, weights=inertial.mass)
    props = {}
    for name, (g, q) in grains.items():
        snap = grains_snapshot([g], [com], [q], velocity=v, spin=w)
        assert np.allclose(snap.sphere_position, centres, rtol=0, atol=BODY_ROUND_OFF * 8)
        props[name] = measure(snap, np.array([0]))
    assert abs(rotation(grains["principal"][0].principal_axes) - np.eye(3)).max() \
        <= BODY_ROUND_OFF
    ref = props["inertial"]
    scale = np.trace(ref.inertia)
    for name, p in props.items():
        assert np.abs(p.inertia - ref.inertia).max() <= 2 * BODY_ROUND_OFF * scale, name
        assert np.abs(p.angular_momentum - ref.angular_momentum).max() \
            <= 2 * BODY_ROUND_OFF * scale * np.linalg.norm(w), name
        assert np.allclose(p.spin, w[0], rtol=0, atol=4 * BODY_ROUND_OFF * np.linalg.norm(w))
        assert p.hull_volume == pytest.approx(ref.hull_volume, rel=round_off(5 * 128))
        assert p.alpha_volume == pytest.approx(ref.alpha_volume, rel=round_off(5 * 48))


def test_a_rotated_grain_measures_as_the_same_grain_unrotated():
    """The layout in its principal frame, unrotated (orientation and principal axes the
    identity), against the same grain turned by orientation * principal_axes with neither
    the identity: moments, shape and spin the same, the tensor turned."""
    rng = np.random.default_rng(6)
    centres, radius = asymmetric_layout()
    principal = grain(centres, radius, body_frame=rotation(grain(centres, radius)
                                                            .principal_axes))
    w = np.array([2e-3, 1e-3, -1e-3])
    flat = grains_snapshot([principal], [[0.0, 0, 0]], [IDENTITY], spin=[w])
    # A body frame turned by p from the principal frame (the offsets R(p) o), the body turned
    # by q: the spheres at R(q) R(p) o.
    p_axes, q = random_quaternion(rng), random_quaternion(rng)
    turned = grain(principal.offset @ rotation(p_axes).T, radius)
    total = rotation(q) @ rotation(p_axes)
    spun = grains_snapshot([turned], [[0.0, 0, 0]], [q], spin=[total @ w])
    assert np.abs(rotation(spun.principal_axes[0]) - np.eye(3)).max() > 0.1
    assert np.allclose(spun.sphere_position, principal.offset @ total.T, rtol=0,
                       atol=BODY_ROUND_OFF * 8)
    a, b = measure(flat, np.array([0]), volumes="none"), measure(spun, np.array([0]),
                                                                 volumes="none")
    scale = np.trace(a.inertia)
    assert np.abs(a.inertia - np.diag(principal.moments)).max() <= BODY_ROUND_OFF * scale
    assert np.abs(b.inertia - total @ a.inertia @ total.T).max() <= 4 * BODY_ROUND_OFF * scale
    assert np.allclose(b.principal_moments, a.principal_moments, rtol=0,
                       atol=4 * BODY_ROUND_OFF * scale)
    assert b.elongation == pytest.approx(a.elongation, rel=8 * BODY_ROUND_OFF)
    assert b.period == pytest.approx(a.period, rel=8 * BODY_ROUND_OFF)
    assert np.allclose(b.spin, total @ w, rtol=0, atol=8 * BODY_ROUND_OFF * np.linalg.norm(w))


def test_pictures_draw_each_grain_as_its_spheres(monkeypatch, tmp_path):
    rng = np.random.default_rng(7)
    snap = two_cubes(np.array([4.0, 2.0, 2.0]), rng)
    drawn = []
    original = plots.draw_spheres

    def record(ax, xy, radius, colors, extent):
        drawn.append((xy, radius))
        original(ax, xy, radius, colors, extent)

    monkeypatch.setattr(plots, "draw_spheres", record)
    aggs = grain_aggregates(snap)
    plots.projections(snap, aggs.labels, "two cubes", tmp_path / "views.png")
    plots.aggregate_shape(snap, aggs.members(0), measure(snap, aggs.members(0)), "pair",
                          tmp_path / "largest.png")
    centre = np.average(snap.position, axis=0, weights=snap.mass)
    xy, radius = drawn[0]
    assert len(xy) == 16 and np.array_equal(radius, snap.sphere_radius)
    assert np.allclose(xy, (snap.sphere_position - centre)[:, :2], rtol=0, atol=1e-14)
    assert all(len(xy) == 16 for xy, _ in drawn)


def test_a_file_of_two_touching_cubes_is_reported_and_drawn_as_spheres(monkeypatch, tmp_path,
                                                                      capsys):
    snap = two_cubes(np.array([4.0, 2.0, 2.0]), np.random.default_rng(9))
    path = tmp_path / "cubes.h5"
    write_run(path, snapshot_at=lambda step: snap)
    drawn = []
    original = quicklook.draw_spheres

    def record(ax, xy, radius, colors, extent):
        drawn.append(len(xy))
        original(ax, xy, radius, colors, extent)

    monkeypatch.setattr(quicklook, "draw_spheres", record)
    assert main(["quicklook", str(path), "--output", str(tmp_path / "look.png")]) == 0
    assert drawn == [16] * 4  # two snapshots, two projections
    assert main(["report", str(path), "--output", str(tmp_path / "report")]) == 0
    assert "bodies        2 (100.0 % of all), 16 spheres" in capsys.readouterr().out
