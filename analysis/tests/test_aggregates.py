"""Aggregate identification and properties against inputs with known answers."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import ConvexHull

from rubble_analysis.contacts import ESCAPER, find_aggregates
from rubble_analysis.properties import critical_period, measure
from rubble_analysis.volume import fibonacci_sphere, minimum_alpha_shape
from synthetic import lattice, lattice_second_moment, snapshot

EPS = np.finfo(float).eps


def test_two_touching_spheres_form_one_aggregate_with_known_inertia():
    snap = snapshot([[-1.0, 0, 0], [1.0, 0, 0]], 1.0, density=3.0)
    aggs = find_aggregates(snap.position, snap.radius)
    assert aggs.count == 1 and aggs.labels.tolist() == [0, 0]
    p = measure(snap, aggs.members(0), volumes="none")
    m = snap.mass[0]
    # About the line of centres: two spheres' own 2/5 m R^2; across it: plus m d^2 each.
    assert p.principal_moments[0] == pytest.approx(2 * 0.4 * m, rel=8 * EPS)
    assert p.principal_moments[1] == pytest.approx(2 * 0.4 * m + 2 * m, rel=8 * EPS)
    assert p.principal_moments[2] == pytest.approx(p.principal_moments[1], rel=8 * EPS)
    assert p.elongation == pytest.approx(2.8 / 0.8, rel=8 * EPS)
    assert abs(p.principal_axes[0, 0]) == pytest.approx(1.0, rel=8 * EPS)


def test_separated_clusters_and_escapers_are_counted():
    cluster = lattice(2, 2, 2)
    pos = np.vstack([cluster, cluster + [50, 0, 0], lattice(3, 1, 1) + [0, 80, 0],
                     [[0, 0, 200.0]], [[3.1, 1, 1]]])  # an escaper 0.1 R from the cube
    snap = snapshot(pos, 1.0)
    aggs = find_aggregates(snap.position, snap.radius, 0.01, mass=snap.mass)
    assert aggs.count == 3
    assert sorted(np.bincount(aggs.labels[aggs.labels >= 0]).tolist()) == [3, 8, 8]
    assert aggs.labels[-2] == ESCAPER and aggs.labels[-1] == ESCAPER
    assert aggs.labels[0] == 0  # equal masses: ties broken by the lowest index
    # A tolerance of 0.2 radii catches the body 0.1 R away.
    assert find_aggregates(snap.position, snap.radius, 0.2).labels[-1] == 0


def test_cube_block_is_not_elongated_and_a_2_1_1_block_is_as_computed():
    cube = snapshot(lattice(4, 4, 4), 1.0)
    p = measure(cube, np.arange(64), volumes="none")
    assert p.elongation == pytest.approx(1.0, abs=64 * EPS)
    block = snapshot(lattice(8, 4, 4), 1.0)
    q = measure(block, np.arange(128), volumes="none")
    m = block.mass[0]
    sx = 16 * lattice_second_moment(8, 2.0)   # sum of x^2 over the 8 x 4 x 4 points
    sy = 32 * lattice_second_moment(4, 2.0)   # sum of y^2 (and z^2)
    own = 128 * 0.4 * m
    i_long, i_short = m * 2 * sy + own, m * (sx + sy) + own
    assert q.principal_moments[0] == pytest.approx(i_long, rel=16 * EPS)
    assert q.principal_moments[2] == pytest.approx(i_short, rel=16 * EPS)
    assert q.elongation == pytest.approx(i_short / i_long, rel=32 * EPS)


def test_rigidly_rotating_aggregate_period_is_recovered_exactly():
    w = np.array([1e-4, -2e-4, 3e-4])  # rad/s
    pos = lattice(3, 2, 4) @ np.array([[1, 0.2, 0], [0, 1, 0.1], [0.3, 0, 1]])  # skewed
    pos = pos * 1.2 + [10.0, -3.0, 7.0]
    snap = snapshot(pos, 1.0)
    com = np.average(pos, axis=0, weights=snap.mass)
    v = np.cross(w, pos - com) + [0.5, 0.0, -0.1]
    snap = snapshot(pos, 1.0, velocity=v, spin=np.tile(w, (len(pos), 1)))
    p = measure(snap, np.arange(len(pos)), volumes="none")
    assert np.allclose(p.spin, w, rtol=0, atol=64 * EPS * np.linalg.norm(w))
    assert p.period == pytest.approx(2 * np.pi / np.linalg.norm(w), rel=64 * EPS)
    assert np.allclose(p.velocity, [0.5, 0.0, -0.1], atol=64 * EPS)


def test_velocity_dispersion_is_the_motion_about_the_rigid_rotation():
    w = np.array([1e-4, -2e-4, 3e-4])  # rad/s
    pos = lattice(3, 2, 4) * 1.2 + [10.0, -3.0, 7.0]
    com = pos.mean(axis=0)
    rigid = np.cross(w, pos - com) + [0.5, 0.0, -0.1]
    spin = np.tile(w, (len(pos), 1))  # rigid: the spheres turn with the aggregate
    p = measure(snapshot(pos, 1.0, velocity=rigid, spin=spin), np.arange(len(pos)),
                volumes="none")
    r_max = np.max(np.linalg.norm(pos - com, axis=1))
    assert p.velocity_dispersion <= 64 * EPS * (np.linalg.norm(w) * r_max + 0.5)
    # A uniform expansion v = c r adds neither momentum nor angular momentum (r x r = 0), so
    # w and V stay; what is left is c times the rms distance from the centre of mass.
    c = 1e-3  # 1/s
    p = measure(snapshot(pos, 1.0, velocity=rigid + c * (pos - com), spin=spin),
                np.arange(len(pos)), volumes="none")
    rms = np.sqrt(np.mean(np.sum((pos - com) ** 2, 1)))
    # Round-off: the 0.5 m/s drift is subtracted from each velocity, relative to c rms.
    assert p.velocity_dispersion == pytest.approx(c * rms, rel=64 * EPS * 0.5 / (c * rms))


def test_critical_period_is_the_orbital_period_at_the_surface():
    # A strengthless sphere flies apart when its equator turns faster than a circular orbit
    # at its surface, T = 2 pi sqrt(R^3 / (G M)), whatever R.
    G, rho = 6.6743e-11, 1300.0
    for radius in (1.0, 250.0, 1e4):
        mass = 4.0 / 3.0 * np.pi * radius**3 * rho
        orbit = 2 * np.pi * np.sqrt(radius**3 / (G * mass))
        assert critical_period(rho, G) == pytest.approx(orbit, rel=16 * EPS)
    assert critical_period(1000.0, G) / 3600 == pytest.approx(3.30, abs=0.005)  # Pravec & Harris


def test_convex_hull_porosity_of_a_lattice_block_matches_steiner():
    n, radius, spacing, k = 4, 1.0, 2.0, 256
    snap = snapshot(lattice(n, n, n, spacing), radius)
    p = measure(snap, np.arange(n**3), volumes="hull", hull_points=k)
    # Exact hull of the spheres: the centres' cube (edge a) grown by R (Steiner formula):
    # V = a^3 + 6 a^2 R + 3 pi a R^2 + 4/3 pi R^3, area S = 6 a^2 + 6 pi a R + 4 pi R^2.
    a = (n - 1) * spacing
    v_exact = a**3 + 6 * a * a * radius + 3 * np.pi * a * radius**2 + 4 / 3 * np.pi * radius**3
    s_exact = 6 * a * a + 6 * np.pi * a * radius + 4 * np.pi * radius**2
    # The sampled polytope lies inside by at most R minus the inradius of one sphere's k-point
    # polytope (its deepest facet).
    one = ConvexHull(fibonacci_sphere(k) * radius)
    depth = radius + np.max(one.equations[:, 3])
    assert v_exact - s_exact * depth <= p.hull_volume <= v_exact
    porosity_exact = 1 - n**3 * 4 / 3 * np.pi * radius**3 / v_exact
    assert p.porosity_hull == pytest.approx(porosity_exact, abs=s_exact * depth / v_exact)
    # Far from the surface-free limit 1 - pi/6 = 0.476: the rounded faces of a small block.
    assert porosity_exact < 1 - np.pi / 6


def test_alpha_shape_brackets_the_grains_and_the_hull():
    snap = snapshot(lattice(3, 3, 3), 1.0)
    p = measure(snap, np.arange(27))
    assert 0.0 < p.porosity_alpha < p.porosity_hull
    # The tetrahedron around each centre spans its sphere (alpha >= R); the pores of a
    # simple-cubic packing (gap (sqrt 3 - 1) R) fill just above.
    assert 1.0 - 1e-9 <= p.alpha < 1.5  # radii equal within 1e-9 count as equal (volume.py)
    single = snapshot([[0.0, 0, 0]], 1.0)
    shape = minimum_alpha_shape(single.position, single.radius, 64)
    assert shape.volume == pytest.approx(ConvexHull(fibonacci_sphere(64)).volume, rel=1e-12)


def test_gravitational_binding_drops_a_fast_body():
    pos = np.vstack([lattice(3, 3, 3), [[4.0, 0, 0]]])  # last one touches the block's face
    v = np.zeros((28, 3))
    v[-1] = [10.0, 0, 0]  # m/s, far above the block's escape speed
    snap = snapshot(pos, 1.0, velocity=v)
    plain = find_aggregates(snap.position, snap.radius, mass=snap.mass)
    bound = find_aggregates(snap.position, snap.radius, mass=snap.mass, velocity=v, G=6.6743e-11)
    assert plain.labels[-1] == 0 and bound.labels[-1] == ESCAPER
    assert bound.count == 1 and np.all(bound.labels[:-1] == 0)
    assert "gravitationally bound" in bound.criterion
