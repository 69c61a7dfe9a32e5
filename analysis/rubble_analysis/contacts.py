"""Aggregate identification (Ferrari et al. 2020, MNRAS, sec. 2.4.1).

Bodies (grains: free spheres or rigid aggregates of spheres, docs/aggregates.md) are the
vertices of a contact graph; an edge joins two bodies when a sphere of one and a sphere of the
other have surfaces within a tolerance of touching. Spheres of one body never make an edge:
they are held together rigidly, not by contact. Aggregates are the connected components with
more than one body; bodies in no contact are escapers. Optionally an aggregate keeps only the
bodies that are gravitationally bound to it.

Polyhedral bodies (docs/polyhedra.md) are in contact when the distance between their convex
hulls in the inertial frame, by GJK (polyhedra.gjk_distance), is within the tolerance times the
smaller of their bounding radii (circumradii about the centre of mass); a sphere and a
polyhedron, when the hull's distance from the sphere's centre less its radius is within the
tolerance times the smaller of the sphere's radius and the hull's circumradius. Overlapping
hulls are in contact (their depth is not measured).
"""

from __future__ import annotations

import dataclasses

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree

from .polyhedra import gjk_distance

ESCAPER = -1


@dataclasses.dataclass(frozen=True)
class Aggregates:
    """labels[i] is the aggregate of body i (0 = most massive) or ESCAPER."""

    labels: np.ndarray
    count: int
    criterion: str

    def members(self, k: int) -> np.ndarray:
        return np.flatnonzero(self.labels == k)

    @property
    def escapers(self) -> np.ndarray:
        return np.flatnonzero(self.labels == ESCAPER)


def sphere_pairs(position: np.ndarray, radius: np.ndarray, tolerance: float,
                 body: np.ndarray | None = None, *, same_body: bool = False) -> np.ndarray:
    """(P, 2) sphere index pairs i < j with gap |x_i - x_j| - (R_i + R_j) <= tolerance *
    min(R_i, R_j), of different bodies (body[i] != body[j]; same_body: of the same body).
    body None: every sphere a body of its own.

    Candidates come from a k-d tree ball query of radius 2 R_max (1 + max(tolerance, 0)), never
    O(N^2); a negative tolerance asks for overlaps deeper than -tolerance radii.
    """
    n = len(radius)
    if n < 2:
        return np.empty((0, 2), dtype=np.int64)
    r_max = float(np.max(radius))
    reach = 2.0 * r_max * (1.0 + max(tolerance, 0.0))
    pairs = cKDTree(position).query_pairs(reach, output_type="ndarray")
    if body is not None and len(pairs):
        pairs = pairs[(body[pairs[:, 0]] == body[pairs[:, 1]]) == same_body]
    elif same_body:
        pairs = pairs[:0]
    if len(pairs) == 0:
        return np.empty((0, 2), dtype=np.int64)
    i, j = pairs[:, 0], pairs[:, 1]
    gap = np.linalg.norm(position[i] - position[j], axis=1) - (radius[i] + radius[j])
    keep = gap <= tolerance * np.minimum(radius[i], radius[j])
    return pairs[keep].astype(np.int64)


def contact_pairs(position: np.ndarray, radius: np.ndarray, tolerance: float,
                  body: np.ndarray | None = None) -> np.ndarray:
    """(P, 2) body pairs i < j in contact, each once. position, radius: of the spheres; body:
    the body row of each sphere (None: each sphere a body, and the pairs are sphere_pairs)."""
    pairs = sphere_pairs(position, radius, tolerance, body)
    if body is None or len(pairs) == 0:
        return pairs
    return np.unique(np.sort(body[pairs], axis=1), axis=0)


def _close_pairs(tree_a: cKDTree, radius_a: np.ndarray, tree_b: cKDTree | None,
                 radius_b: np.ndarray, tolerance: float) -> np.ndarray:
    """(P, 2) pairs (a, b) whose bounding spheres have the gap |x_a - x_b| - (R_a + R_b) <=
    tolerance * min(R_a, R_b): a k-d tree search of reach R_a,max + R_b,max (1 + max(T, 0)).
    tree_b None: pairs a < b within tree_a."""
    if len(radius_a) == 0 or len(radius_b) == 0:
        return np.empty((0, 2), dtype=np.int64)
    grow = 1.0 + max(tolerance, 0.0)
    reach = (float(np.max(radius_a)) + float(np.max(radius_b))) * grow
    if tree_b is None:
        pairs = tree_a.query_pairs(reach, output_type="ndarray")
        xb = tree_a.data
    else:
        pairs = tree_a.sparse_distance_matrix(tree_b, reach, output_type="ndarray")
        pairs = np.column_stack([pairs["i"], pairs["j"]]) if len(pairs) else \
            np.empty((0, 2), dtype=np.int64)
        xb = tree_b.data
    if len(pairs) == 0:
        return np.empty((0, 2), dtype=np.int64)
    i, j = pairs[:, 0], pairs[:, 1]
    ra, rb = radius_a[i], radius_b[j]
    gap = np.linalg.norm(tree_a.data[i] - xb[j], axis=1) - (ra + rb)
    return pairs[gap <= tolerance * np.minimum(ra, rb)].astype(np.int64)


def hull_gap_within(va: np.ndarray, vb: np.ndarray, limit: float, radius: float = 0.0) -> bool:
    """Whether the hulls of the point sets va and vb (inertial vertices; vb a single point for
    a sphere of `radius`) are at most `limit` apart (overlapping ones are), by GJK stopped as
    soon as the answer is known."""
    reach = limit + radius
    stop = reach if reach >= 0.0 else None  # below 0 only overlaps qualify: run to the end
    result = gjk_distance(va, vb, within=stop, beyond=stop)
    return result.overlap or result.distance <= reach


def hull_contact_pairs(snap, tolerance: float) -> np.ndarray:
    """(P, 2) body pairs i < j of a Snapshot in contact through a polyhedron: hull-hull and
    sphere-hull, candidates from the bounding spheres (k-d trees), decided by GJK."""
    hb = snap.hull_body
    if len(hb) == 0:
        return np.empty((0, 2), dtype=np.int64)
    out = []
    x, r = snap.position[hb], snap.radius[hb]
    tree = cKDTree(x)
    for p, q in _close_pairs(tree, r, None, r, tolerance):
        if hull_gap_within(snap.hull_vertices(p), snap.hull_vertices(q),
                           tolerance * min(r[p], r[q])):
            out.append((hb[p], hb[q]))
    sb = snap.sphere_body
    if len(sb):
        centres, radii = snap.sphere_position, snap.sphere_radius
        for s, p in _close_pairs(cKDTree(centres), radii, tree, r, tolerance):
            if hull_gap_within(snap.hull_vertices(p), centres[s:s + 1],
                               tolerance * min(radii[s], r[p]), radii[s]):
                out.append((sb[s], hb[p]))
    if not out:
        return np.empty((0, 2), dtype=np.int64)
    return np.unique(np.sort(np.array(out, dtype=np.int64), axis=1), axis=0)


def grain_contact_pairs(snap, tolerance: float) -> np.ndarray:
    """Body pairs of a Snapshot in contact through any of their spheres or hulls."""
    spheres = contact_pairs(snap.sphere_position, snap.sphere_radius, tolerance,
                            snap.sphere_body)
    if len(snap.hull_body) == 0:
        return spheres
    pairs = np.concatenate([spheres.reshape(-1, 2), hull_contact_pairs(snap, tolerance)])
    if len(pairs) == 0:
        return np.empty((0, 2), dtype=np.int64)
    return np.unique(pairs, axis=0)


def _components(n: int, pairs: np.ndarray) -> np.ndarray:
    graph = coo_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(n, n))
    return connected_components(graph, directed=False)[1]


def _bound_members(idx: np.ndarray, mass, position, velocity, G: float) -> np.ndarray:
    """Iteratively drops the most unbound members: with e_i = m_i |v_i - V|^2 / 2 +
    sum_j -G m_i m_j / r_ij over the other members (V the centre-of-mass velocity of the
    members kept so far), remove those with e_i > max(e) / 2 while max(e) > 0, then
    re-evaluate (unbinding as in halo finders, e.g. Knollmann & Knebe 2009, AHF). Removing
    only the most unbound first keeps one fast body from dragging V and unbinding the rest."""
    keep = idx
    while len(keep) > 1:
        m, x, v = mass[keep], position[keep], velocity[keep]
        vcm = np.average(v, axis=0, weights=m)
        kinetic = 0.5 * m * np.sum((v - vcm) ** 2, axis=1)
        potential = np.zeros(len(keep))
        for start in range(0, len(keep), 2048):  # bounded memory for large aggregates
            block = slice(start, start + 2048)
            d = np.linalg.norm(x[block, None, :] - x[None, :, :], axis=2)
            with np.errstate(divide="ignore"):
                inv = np.where(d > 0, 1.0 / d, 0.0)
            potential[block] = -G * m[block] * (inv @ m)
        energy = kinetic + potential
        if energy.max() < 0:
            break
        keep = keep[energy <= 0.5 * energy.max()]
    return keep if len(keep) > 1 else keep[:0]


def find_aggregates(position: np.ndarray, radius: np.ndarray, tolerance: float = 0.01, *,
                    mass: np.ndarray | None = None, velocity: np.ndarray | None = None,
                    G: float | None = None, pairs: np.ndarray | None = None) -> Aggregates:
    """Connected components of the contact graph with at least two bodies, ordered by mass
    (largest first). position, radius: the bodies' centres of mass and, for bodies that are
    single spheres, their radii; pairs: the body pairs in contact, when the bodies are not
    single spheres (grain_contact_pairs). With mass, velocity and G given, each component
    keeps only its gravitationally bound members, the bodies as point masses at their centres
    of mass; the others become escapers."""
    n = len(radius)
    labels = np.full(n, ESCAPER, dtype=np.int64)
    if pairs is None:
        pairs = contact_pairs(position, radius, tolerance)
    comp = _components(n, pairs) if n else labels
    sizes = np.bincount(comp, minlength=1) if n else np.zeros(0, dtype=np.int64)
    groups = [np.flatnonzero(comp == c) for c in np.flatnonzero(sizes > 1)]
    criterion = f"contact: gap <= {tolerance:g} x smaller radius"
    binding = G is not None
    if binding:
        if mass is None or velocity is None:
            raise ValueError("the binding criterion needs mass and velocity")
        groups = [g for g in (_bound_members(g, mass, position, velocity, G) for g in groups)
                  if len(g) > 1]
        criterion += " + gravitationally bound to the aggregate"
    weights = mass if mass is not None else radius**3
    groups.sort(key=lambda g: (-float(np.sum(weights[g])), int(g[0])))
    for k, g in enumerate(groups):
        labels[g] = k
    return Aggregates(labels=labels, count=len(groups), criterion=criterion)


def grain_aggregates(snap, tolerance: float = 0.01, G: float | None = None) -> Aggregates:
    """Aggregates of the bodies of a Snapshot, in contact through their spheres; with G, only
    gravitationally bound members count."""
    pairs = grain_contact_pairs(snap, tolerance)
    if G is None:
        aggs = find_aggregates(snap.position, snap.radius, tolerance, mass=snap.mass,
                               pairs=pairs)
    else:
        aggs = find_aggregates(snap.position, snap.radius, tolerance, mass=snap.mass,
                               velocity=snap.velocity, G=G, pairs=pairs)
    if len(snap.hull_body):
        criterion = aggs.criterion.replace(
            "smaller radius", "smaller radius (polyhedra: circumradius; gap by GJK)")
        aggs = dataclasses.replace(aggs, criterion=criterion)
    return aggs
