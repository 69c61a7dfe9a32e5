"""Volumes of a set of spheres (and polyhedra) for bulk density and porosity (Ferrari et al.
2020, sec. 2.4.2).

The shape of an aggregate is bounded by two surfaces: the convex hull of the spheres (largest
reasonable volume) and the minimum-volume alpha shape, the union of the Delaunay tetrahedra of
points on the sphere surfaces whose circumradius is below alpha (Edelsbrunner & Muecke 1994),
at the smallest alpha for which that union is one piece without internal cavities.

Polyhedral grains enter through their vertices (`vertices`, inertial frame), which describe
them exactly (a convex polyhedron is the hull of its vertices), and their centroids
(`centres`, which the shape must hold, as it must hold every sphere's centre).
"""

from __future__ import annotations

import dataclasses

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.spatial import ConvexHull, Delaunay


def fibonacci_sphere(k: int) -> np.ndarray:
    """k nearly uniform unit vectors (golden-angle spiral, Gonzalez 2010)."""
    i = np.arange(k) + 0.5
    z = 1.0 - 2.0 * i / k
    phi = np.pi * (3.0 - np.sqrt(5.0)) * i
    s = np.sqrt(1.0 - z * z)
    return np.column_stack((s * np.cos(phi), s * np.sin(phi), z))


def surface_points(position: np.ndarray, radius: np.ndarray, k: int) -> np.ndarray:
    """k points on the surface of every sphere, (N k, 3)."""
    unit = fibonacci_sphere(k)
    return (position[:, None, :] + radius[:, None, None] * unit[None, :, :]).reshape(-1, 3)


def convex_hull_volume(position: np.ndarray, radius: np.ndarray, k: int = 128,
                       vertices: np.ndarray | None = None) -> float:
    """Volume of the convex hull of k surface points per sphere and of the polyhedra's
    vertices (m^3). The polytope lies inside the true hull by at most the depth of one
    sampling cell of a sphere, R (1 - cos theta); the polyhedra's part is exact."""
    points = surface_points(position, radius, k)
    if vertices is not None and len(vertices):
        points = np.concatenate([points, vertices])
    return float(ConvexHull(points).volume)


@dataclasses.dataclass(frozen=True)
class AlphaShape:
    alpha: float   # m, smallest alpha giving one piece without cavities
    volume: float  # m^3


def _circumradii_and_volumes(points: np.ndarray, simplices: np.ndarray):
    a, b, c, d = (points[simplices[:, i]] for i in range(4))
    u, v, w = b - a, c - a, d - a
    vxw, wxu, uxv = np.cross(v, w), np.cross(w, u), np.cross(u, v)
    det = np.einsum("ij,ij->i", u, vxw)
    # Circumcentre offset from a: (|u|^2 v x w + |v|^2 w x u + |w|^2 u x v) / (2 u.(v x w)).
    num = (np.sum(u * u, 1)[:, None] * vxw + np.sum(v * v, 1)[:, None] * wxu
           + np.sum(w * w, 1)[:, None] * uxv)
    with np.errstate(divide="ignore", invalid="ignore"):
        radius = np.linalg.norm(num, axis=1) / np.abs(2.0 * det)
    radius[~np.isfinite(radius)] = np.inf  # flat slivers never enter the shape
    return radius, np.abs(det) / 6.0


def _face_graph(neighbors: np.ndarray, mask: np.ndarray):
    """Face adjacency among the tetrahedra selected by mask."""
    t = np.repeat(np.arange(len(neighbors)), 4)
    nb = neighbors.ravel()
    ok = (nb >= 0) & mask[t] & mask[np.maximum(nb, 0)]
    n = len(neighbors)
    return coo_matrix((np.ones(int(ok.sum())), (t[ok], nb[ok])), shape=(n, n))


def _is_solid(tri: Delaunay, inside: np.ndarray, centre_simplex: np.ndarray,
              sliver: np.ndarray) -> bool:
    """Every sphere filled (the tetrahedron holding its centre is in), one face-connected
    piece (slivers, having no volume, do not count as pieces), and every empty tetrahedron
    connected to the outside (no internal cavity)."""
    if not inside.any() or np.any(centre_simplex < 0) or not inside[centre_simplex].all():
        return False
    n_in, lab_in = connected_components(_face_graph(tri.neighbors, inside), directed=False)
    if len(np.unique(lab_in[inside & ~sliver])) != 1:
        return False
    outside = ~inside
    if not outside.any():
        return True
    _, lab_out = connected_components(_face_graph(tri.neighbors, outside), directed=False)
    on_hull = outside & (tri.neighbors == -1).any(axis=1)
    open_components = np.unique(lab_out[on_hull])
    return bool(np.isin(lab_out[outside], open_components).all())


def minimum_alpha_shape(position: np.ndarray, radius: np.ndarray, k: int = 48,
                        vertices: np.ndarray | None = None,
                        centres: np.ndarray | None = None) -> AlphaShape:
    """Smallest alpha (bisection over the tetrahedra's circumradii) whose alpha shape is solid;
    solidity grows with alpha, so the bisection finds its threshold. Since the tetrahedron
    around a sphere's centre spans that sphere, alpha >= the largest radius. Polyhedra: their
    inertial vertices and their centroids (each must be inside, as a sphere's centre)."""
    points = surface_points(position, radius, k)
    inner = position
    if vertices is not None and len(vertices):
        points = np.concatenate([points, vertices])
        inner = np.concatenate([position, centres])
    tri = Delaunay(points)
    centre_simplex = tri.find_simplex(inner)
    circ, vol = _circumradii_and_volumes(points, tri.simplices)
    # Points on one sphere are cospherical: their tetrahedra share the circumradius R up to
    # round-off, and nearly flat ones (slivers) have an ill-conditioned one. Radii within a
    # relative 1e-9 count as equal, and slivers (no volume) are always in, so neither
    # round-off nor slivers open cavities inside a sphere.
    sliver = vol <= 1e-10 * np.median(vol)
    candidates = np.unique(circ[np.isfinite(circ) & ~sliver])

    def inside(alpha: float) -> np.ndarray:
        return sliver | (circ <= alpha * (1.0 + 1e-9))

    lo, hi = 0, len(candidates) - 1
    if not _is_solid(tri, inside(candidates[hi]), centre_simplex, sliver):
        # Not even the whole triangulation qualifies (a sphere's centre outside it).
        return AlphaShape(alpha=np.inf, volume=float(vol[np.isfinite(circ)].sum()))
    while lo < hi:
        mid = (lo + hi) // 2
        if _is_solid(tri, inside(candidates[mid]), centre_simplex, sliver):
            hi = mid
        else:
            lo = mid + 1
    volume = float(vol[inside(candidates[hi])].sum())
    return AlphaShape(alpha=float(candidates[hi]), volume=volume)
