"""Pictures of runs: body projections coloured by aggregate, the largest aggregate's shape,
time series and the conservation diagnostics. Every axis is labelled with its unit. Bodies are
drawn as their spheres (a rigid aggregate as each of its spheres, in its body's colour) and
polyhedra as the outlines of their projections (the 2-D convex hull of their projected
inertial vertices, which is the projection of a convex polyhedron)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.collections import EllipseCollection, PolyCollection  # noqa: E402
from scipy.spatial import ConvexHull  # noqa: E402

from .polyhedra import ranges  # noqa: E402

AXES = "xyz"
VIEWS = ((0, 1), (0, 2), (1, 2))


def draw_spheres(ax, xy: np.ndarray, radius: np.ndarray, colors, extent: float) -> None:
    """Circles to scale (diameter 2R in data units)."""
    d = 2.0 * radius
    if len(d):
        ax.add_collection(EllipseCollection(d, d, np.zeros_like(d), units="xy", offsets=xy,
                                            offset_transform=ax.transData, facecolors=colors,
                                            edgecolors="k", linewidths=0.2))
    ax.set_xlim(-extent, extent)
    ax.set_ylim(-extent, extent)
    ax.set_aspect("equal")


def hull_vertices(snap, bodies: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Inertial vertices of the polyhedra among `bodies` (all bodies when None), hull by
    hull: ((V, 3) m, (P + 1,) first row of each, then the total), and their body rows (P,)."""
    hulls = np.arange(len(snap.hull_body)) if bodies is None else snap.hull_of[bodies]
    hulls = hulls[hulls >= 0]
    start = snap.hull_vertex_start
    count = start[hulls + 1] - start[hulls]
    rows = ranges(start[hulls], count)
    first = np.concatenate([[0], np.cumsum(count)]).astype(np.int64)
    return snap.hull_vertex_position[rows], first, snap.hull_body[hulls]


def draw_hulls(ax, xy: np.ndarray, start: np.ndarray, colors) -> None:
    """Each polyhedron's projection: the 2-D convex hull of its projected vertices
    xy[start[p]:start[p + 1]], filled in its colour."""
    polygons = []
    for p in range(len(start) - 1):
        points = xy[start[p]:start[p + 1]]
        try:
            polygons.append(points[ConvexHull(points).vertices])
        except Exception:  # a projection flat to round-off (qhull refuses): its points
            polygons.append(points)
    if polygons:
        ax.add_collection(PolyCollection(polygons, facecolors=colors, edgecolors="k",
                                         linewidths=0.2))


def aggregate_colors(labels: np.ndarray) -> np.ndarray:
    cmap = plt.get_cmap("tab20")
    colors = np.array([cmap(k % 20) for k in np.maximum(labels, 0)])
    colors[labels < 0] = (0.75, 0.75, 0.75, 1.0)
    return colors


def projections(snap, labels: np.ndarray, title: str, path: Path) -> None:
    """Three orthogonal views of every body's spheres, coloured by the body's aggregate
    (escapers grey)."""
    centre = np.average(snap.position, axis=0, weights=snap.mass)
    rel = snap.sphere_position - centre
    radius = snap.sphere_radius
    vertices, start, hull_body = hull_vertices(snap)
    vertices = vertices - centre
    extent = 1.05 * max(float(np.max(np.abs(rel) + radius[:, None], initial=0.0)),
                        float(np.max(np.abs(vertices), initial=0.0)))
    palette = aggregate_colors(labels)
    colors = palette[snap.sphere_body]
    fig, axs = plt.subplots(1, 3, figsize=(15, 5.2))
    for ax, (i, j) in zip(axs, VIEWS):
        draw_spheres(ax, rel[:, [i, j]], radius, colors, extent)
        draw_hulls(ax, vertices[:, [i, j]], start, palette[hull_body])
        ax.set_xlabel(f"{AXES[i]} - {AXES[i]}_cm [m]")
        ax.set_ylabel(f"{AXES[j]} - {AXES[j]}_cm [m]")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def aggregate_shape(snap, members: np.ndarray, props, title: str, path: Path) -> None:
    """The aggregate's spheres in its principal-axis frame (long axis along 1) with the
    outline of the uniform ellipsoid of the same inertia."""
    spheres = snap.spheres_of(members)
    rel = (snap.sphere_position[spheres] - props.com) @ props.principal_axes
    radius = snap.sphere_radius[spheres]
    vertices, start, _ = hull_vertices(snap, members)
    vertices = (vertices - props.com) @ props.principal_axes
    extent = 1.1 * max(float(np.max(np.abs(rel) + radius[:, None], initial=0.0)),
                       float(np.max(np.abs(vertices), initial=0.0)))
    m = props.mass
    mom = props.principal_moments
    semi = np.sqrt(np.maximum(2.5 / m * np.array([mom[1] + mom[2] - mom[0],
                                                   mom[0] + mom[2] - mom[1],
                                                   mom[0] + mom[1] - mom[2]]), 0))
    t = np.linspace(0, 2 * np.pi, 200)
    fig, axs = plt.subplots(1, 3, figsize=(15, 5.2))
    for ax, (i, j) in zip(axs, VIEWS):
        draw_spheres(ax, rel[:, [i, j]], radius, "tab:brown", extent)
        draw_hulls(ax, vertices[:, [i, j]], start, "tab:brown")
        ax.plot(semi[i] * np.cos(t), semi[j] * np.sin(t), "k--", lw=1)
        ax.set_xlabel(f"principal axis {i + 1} [m]")
        ax.set_ylabel(f"principal axis {j + 1} [m]")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def time_series(rows: list[dict], path: Path) -> None:
    """Growth, shape, spin and settling of the largest aggregate against time."""
    t = np.array([r["time_s"] for r in rows])
    fig, axs = plt.subplots(2, 2, figsize=(12, 8), sharex=True)
    axs = axs.ravel()
    axs[0].plot(t, [r["n_aggregates"] for r in rows], "o-", label="aggregates")
    axs[0].plot(t, [r["largest_n"] for r in rows], "s-", label="bodies in the largest")
    axs[0].set_ylabel("count")
    axs[0].legend()
    axs[1].plot(t, [r["largest_elongation"] for r in rows], "o-")
    axs[1].set_ylabel("elongation I_max / I_min of the largest")
    axs[2].plot(t, np.array([r["largest_period_s"] for r in rows]) / 3600.0, "o-")
    axs[2].set_ylabel("spin period of the largest [h]")
    axs[3].semilogy(t, [r["largest_velocity_dispersion_m_s"] for r in rows], "o-")
    axs[3].set_ylabel("rms speed about its rigid rotation [m/s]")
    for ax in axs[2:]:
        ax.set_xlabel("t [s]")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def conservation(series: dict[str, np.ndarray], path: Path) -> None:
    t = series["time_s"]
    fig, axs = plt.subplots(2, 2, figsize=(12, 8), sharex=True)
    panels = (("energy_error", "|E - E0| / |E0|"),
              ("momentum_error", "|P - P0| / sqrt(2 M K)"),
              ("angular_momentum_error", "|L - L0| / L_ref"),
              ("com_drift_m", "centre-of-mass drift from uniform motion [m]"))
    for ax, (key, label) in zip(axs.ravel(), panels):
        ax.semilogy(t, np.maximum(series[key], 1e-300))
        ax.set_ylabel(label)
    for ax in axs[1]:
        ax.set_xlabel("t [s]")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
