"""Polyhedral bodies (docs/polyhedra.md, docs/output-format.md): the shape catalogue of a run
(/hull_shapes), the world-frame vertices of a snapshot's hulls, exact mass properties of a
closed triangulated surface, and the distance between two convex polytopes by GJK.

A hull is the convex hull of its vertices; rubble stores each shape in its body frame, about
its centroid (= the body's centre of mass), with triangles counter-clockwise seen from outside.
Its inertial vertices are x_body + R(orientation_body) v (rigid.rotation_matrices, the same
convention as the spheres' offsets).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from .rigid import rotation_matrices

EPS = float(np.finfo(float).eps)


@dataclasses.dataclass(frozen=True)
class HullShapes:
    """The /hull_shapes group: shape k's vertices are rows vertex_start[k] to
    vertex_start[k + 1] - 1 of `vertices` (body frame, about its centroid, m), its triangles
    rows triangle_start[k] to triangle_start[k + 1] - 1 of `triangles` (vertex indices within
    the shape, counter-clockwise seen from outside); volume[k] its volume (m^3)."""
    vertex_start: np.ndarray    # (S + 1,) int64
    vertices: np.ndarray        # (V, 3) float64, m
    triangle_start: np.ndarray  # (S + 1,) int64
    triangles: np.ndarray       # (T, 3) int64
    volume: np.ndarray          # (S,) float64, m^3

    def __len__(self) -> int:
        return len(self.volume)

    def vertices_of(self, k: int) -> np.ndarray:
        """(n, 3) m: shape k's vertices in its body frame."""
        return self.vertices[self.vertex_start[k]:self.vertex_start[k + 1]]

    def triangles_of(self, k: int) -> np.ndarray:
        """(t, 3): shape k's triangles, vertex indices within the shape."""
        return self.triangles[self.triangle_start[k]:self.triangle_start[k + 1]]

    @property
    def vertex_count(self) -> np.ndarray:
        return np.diff(self.vertex_start)


def ranges(start: np.ndarray, count: np.ndarray) -> np.ndarray:
    """Concatenated start[i] .. start[i] + count[i] - 1 for every i."""
    start = np.asarray(start, dtype=np.int64)
    count = np.asarray(count, dtype=np.int64)
    within = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
    return np.repeat(start, count) + within


def world_vertices(shapes: HullShapes, shape: np.ndarray, position: np.ndarray,
                   orientation: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The inertial vertices x + R(q) v of hulls of the given shapes, positions (P, 3) and
    orientations (P, 4, body to inertial): ((V, 3) m, (P + 1,) first row of each hull, then
    the total)."""
    shape = np.asarray(shape, dtype=np.int64)
    count = shapes.vertex_count[shape]
    start = np.concatenate([[0], np.cumsum(count)]).astype(np.int64)
    rows = ranges(shapes.vertex_start[shape], count)
    owner = np.repeat(np.arange(len(shape)), count)
    rot = rotation_matrices(orientation)
    world = position[owner] + np.einsum("vij,vj->vi", rot[owner], shapes.vertices[rows])
    return world, start


@dataclasses.dataclass(frozen=True)
class MassProperties:
    volume: float          # m^3
    centroid: np.ndarray   # (3,) m
    inertia: np.ndarray    # (3, 3) m^5: the inertia tensor about the centroid per unit density


def mass_properties(vertices: np.ndarray, triangles: np.ndarray) -> MassProperties:
    """Volume, centroid and inertia tensor (per unit density, about the centroid) of the solid
    bounded by a closed surface of triangles counter-clockwise seen from outside, as signed
    tetrahedra from the origin: with d = a.(b x c) (six times the signed volume),
    int x x^T dV = d/120 (a a^T + b b^T + c c^T + s s^T), s = a + b + c (Tonon 2004, J. Math.
    Stat. 1, 8), and I = tr(C) 1 - C."""
    v = np.asarray(vertices, dtype=float)
    a, b, c = (v[np.asarray(triangles)[:, i]] for i in range(3))
    d = np.einsum("ij,ij->i", a, np.cross(b, c))
    volume = float(d.sum() / 6.0)
    s = a + b + c
    centroid = (d[:, None] * s).sum(0) / 24.0 / volume
    second = np.einsum("t,tij->ij", d / 120.0,
                       np.einsum("ti,tj->tij", a, a) + np.einsum("ti,tj->tij", b, b)
                       + np.einsum("ti,tj->tij", c, c) + np.einsum("ti,tj->tij", s, s))
    second -= volume * np.outer(centroid, centroid)  # about the centroid
    return MassProperties(volume=volume, centroid=centroid,
                          inertia=np.trace(second) * np.eye(3) - second)


# ---------------------------------------------------------------------------------------------
# GJK distance between convex polytopes (Gilbert, Johnson & Keerthi 1988), the closest point of
# a simplex by its Voronoi regions (Ericson 2005, Real-Time Collision Detection, sec. 5.1), in
# plain Python floats (3-vectors as tuples: much cheaper than numpy for so few numbers) with
# numpy only for the support scans. rubble's C++ twin: include/rubble/polyhedra/gjk.hpp.

def _sub(p, q):
    return (p[0] - q[0], p[1] - q[1], p[2] - q[2])


def _dot(p, q):
    return p[0] * q[0] + p[1] * q[1] + p[2] * q[2]


def _cross(p, q):
    return (p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0])


def _segment(a, b):
    """Closest point to the origin of segment ab: (point, barycentric weights (wa, wb))."""
    ab = _sub(b, a)
    t = -_dot(a, ab)
    if t <= 0.0:
        return a, (1.0, 0.0)
    den = _dot(ab, ab)
    if t >= den:
        return b, (0.0, 1.0)
    t /= den
    return (a[0] + t * ab[0], a[1] + t * ab[1], a[2] + t * ab[2]), (1.0 - t, t)


def _triangle(a, b, c):
    """Closest point to the origin of triangle abc (Ericson 2005, ClosestPtPointTriangle):
    (point, weights (wa, wb, wc)). Inside, the projection onto the plane, whose round-off is
    relative to the distance, not to the triangle's size."""
    ab, ac = _sub(b, a), _sub(c, a)
    d1, d2 = -_dot(ab, a), -_dot(ac, a)
    if d1 <= 0.0 and d2 <= 0.0:
        return a, (1.0, 0.0, 0.0)
    d3, d4 = -_dot(ab, b), -_dot(ac, b)
    if d3 >= 0.0 and d4 <= d3:
        return b, (0.0, 1.0, 0.0)
    vc = d1 * d4 - d3 * d2
    if vc <= 0.0 and d1 >= 0.0 and d3 <= 0.0:
        t = d1 / (d1 - d3)
        return (a[0] + t * ab[0], a[1] + t * ab[1], a[2] + t * ab[2]), (1.0 - t, t, 0.0)
    d5, d6 = -_dot(ab, c), -_dot(ac, c)
    if d6 >= 0.0 and d5 <= d6:
        return c, (0.0, 0.0, 1.0)
    vb = d5 * d2 - d1 * d6
    if vb <= 0.0 and d2 >= 0.0 and d6 <= 0.0:
        t = d2 / (d2 - d6)
        return (a[0] + t * ac[0], a[1] + t * ac[1], a[2] + t * ac[2]), (1.0 - t, 0.0, t)
    va = d3 * d6 - d5 * d4
    if va <= 0.0 and d4 - d3 >= 0.0 and d5 - d6 >= 0.0:
        t = (d4 - d3) / ((d4 - d3) + (d5 - d6))
        bc = _sub(c, b)
        return (b[0] + t * bc[0], b[1] + t * bc[1], b[2] + t * bc[2]), (0.0, 1.0 - t, t)
    den = va + vb + vc
    v, w = vb / den, vc / den
    n = _cross(ab, ac)
    nn = _dot(n, n)
    if nn > 0.0:
        f = _dot(n, a) / nn
        return (f * n[0], f * n[1], f * n[2]), (1.0 - v - w, v, w)
    return (a[0] + v * ab[0] + w * ac[0], a[1] + v * ab[1] + w * ac[1],
            a[2] + v * ab[2] + w * ac[2]), (1.0 - v - w, v, w)


_FACES = ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0))


def _tetrahedron(p):
    """Closest point to the origin of tetrahedron p[0..3]: (point, weights, inside). The origin
    is inside when it is on the inner side of no face; else the nearest of the faces it lies
    outside of (Ericson 2005, sec. 5.1.6)."""
    best = None
    for i, j, k, opp in _FACES:
        a, b, c = p[i], p[j], p[k]
        n = _cross(_sub(b, a), _sub(c, a))
        side_origin = -_dot(n, a)
        side_opposite = _dot(n, _sub(p[opp], a))
        if side_origin * side_opposite >= 0.0 and side_opposite != 0.0:
            continue  # the origin is on the tetrahedron's side of this face
        q, w = _triangle(a, b, c)
        dq = _dot(q, q)
        if best is None or dq < best[0]:
            weights = [0.0] * 4
            weights[i], weights[j], weights[k] = w
            best = (dq, q, tuple(weights))
    if best is None:
        return (0.0, 0.0, 0.0), (0.25, 0.25, 0.25, 0.25), True
    return best[1], best[2], False


@dataclasses.dataclass(frozen=True)
class Distance:
    distance: float     # m: |point_a - point_b|, an upper bound (0 when overlapping)
    lower: float        # m: certified lower bound (the plane normal to v through the support)
    point_a: np.ndarray  # (3,) closest point on A (a convex combination of A's vertices);
    point_b: np.ndarray  # (3,) closest point on B; both meaningless for an overlap
    overlap: bool       # the hulls intersect (or touch to round-off)
    iterations: int


def gjk_distance(va: np.ndarray, vb: np.ndarray, *, relative_tolerance: float = 1e-12,
                 within: float | None = None, beyond: float | None = None,
                 max_iterations: int = 200) -> Distance:
    """Distance between the convex hulls of the point sets va (n, 3) and vb (m, 3), by GJK on
    C = A - B: the point v of the simplex nearest the origin, the support point w of C along
    -v, until |v| and the lower bound v.w / |v| agree to relative_tolerance (or to round-off:
    the new support point already in the simplex, or v no closer). Overlap when the origin is
    inside a tetrahedron of C or v reaches it to round-off (16 eps of the coordinates' size).

    within, beyond: stop as soon as the distance is known to be <= within (|v| <= within) or
    > beyond (lower bound > beyond); the result then holds the bounds reached so far."""
    va = np.asarray(va, dtype=float)
    vb = np.asarray(vb, dtype=float)
    scale = max(float(np.abs(va).max()), float(np.abs(vb).max()), 1e-300)
    zero = 16.0 * EPS * scale  # round-off of a point of C
    la, lb = va.tolist(), vb.tolist()
    # Start from the difference of the centroids, a point of C.
    ca, cb = va.mean(0), vb.mean(0)
    v = tuple((ca - cb).tolist())
    simplex = []   # [(index_a, index_b)]: the simplex's points of C as vertex pairs
    points = []    # those points of C
    weights = []   # barycentric weights of v in them
    lower = 0.0
    vv = _dot(v, v)
    if vv == 0.0:  # the centroids coincide: a point of both
        return Distance(distance=0.0, lower=0.0, point_a=ca, point_b=cb, overlap=True,
                        iterations=0)
    it = 0
    overlap = False
    while it < max_iterations:
        it += 1
        ia = int(np.argmin(va @ np.array(v)))
        ib = int(np.argmax(vb @ np.array(v)))
        a, b = la[ia], lb[ib]
        w = (a[0] - b[0], a[1] - b[1], a[2] - b[2])
        if simplex:
            norm = math.sqrt(vv)
            lower = max(lower, _dot(v, w) / norm)
            if beyond is not None and lower > beyond:
                break
            if norm - lower <= max(relative_tolerance * norm, zero) or (ia, ib) in simplex:
                break
        simplex.append((ia, ib))
        points.append(w)
        if len(points) == 1:
            q, wts, inside = points[0], (1.0,), False
        elif len(points) == 2:
            q, wts = _segment(*points)
            inside = False
        elif len(points) == 3:
            q, wts = _triangle(*points)
            inside = False
        else:
            q, wts, inside = _tetrahedron(points)
        qq = _dot(q, q)
        if inside or qq <= zero * zero:
            weights = list(wts)
            overlap = True
            lower = 0.0
            vv = 0.0
            break
        if len(simplex) > 1 and qq >= vv:
            # No progress (round-off): keep the previous simplex and v.
            simplex.pop()
            points.pop()
            break
        keep = [i for i, x in enumerate(wts) if x > 0.0]
        simplex = [simplex[i] for i in keep]
        points = [points[i] for i in keep]
        weights = [wts[i] for i in keep]
        v, vv = q, qq
        if within is not None and math.sqrt(vv) <= within:
            break
    total = sum(weights) if weights else 1.0
    pa = np.zeros(3)
    pb = np.zeros(3)
    for (ia, ib), wt in zip(simplex, weights):
        pa += (wt / total) * va[ia]
        pb += (wt / total) * vb[ib]
    distance = 0.0 if overlap else math.sqrt(vv)
    return Distance(distance=distance, lower=0.0 if overlap else min(lower, distance),
                    point_a=pa, point_b=pb, overlap=overlap, iterations=it)
