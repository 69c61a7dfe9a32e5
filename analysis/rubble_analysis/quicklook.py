"""Quick-look figure of a run: the bodies at the first and last snapshots (x-y and x-z
projections, circles drawn to scale) and the conservation diagnostics over time."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.collections import EllipseCollection  # noqa: E402

from .reader import Run  # noqa: E402


def _bodies(ax, snap, axes: tuple[int, int], extent: float) -> None:
    xy = snap.position[:, axes]
    d = 2.0 * snap.radius
    ax.add_collection(EllipseCollection(d, d, np.zeros_like(d), units="xy", offsets=xy,
                                        offset_transform=ax.transData, facecolors="0.45",
                                        edgecolors="k", linewidths=0.2))
    ax.set_xlim(-extent, extent)
    ax.set_ylim(-extent, extent)
    ax.set_aspect("equal")
    names = "xyz"
    ax.set_xlabel(f"{names[axes[0]]} [m]")
    ax.set_ylabel(f"{names[axes[1]]} [m]")
    ax.set_title(f"t = {snap.time:.4g} s, {names[axes[0]]}-{names[axes[1]]}")


def quicklook(path: str | Path, output: str | Path) -> Path:
    with Run(path) as run:
        first, last = run.snapshot(0), run.snapshot(-1)
        diag = run.diagnostics()
    centre = np.average(first.position, axis=0, weights=first.mass)
    extent = 1.05 * np.max(np.linalg.norm(first.position - centre, axis=1) + first.radius)
    fig, axs = plt.subplots(2, 3, figsize=(15, 9.5))
    for row, snap in enumerate((first, last)):
        _bodies(axs[row, 0], snap, (0, 1), extent)
        _bodies(axs[row, 1], snap, (0, 2), extent)
    t = diag["time"]
    e = diag["total_energy"]
    scale = abs(e[0]) if e[0] != 0 else 1.0
    axs[0, 2].semilogy(t, np.maximum(np.abs(e - e[0]) / scale, 1e-17))
    axs[0, 2].set_xlabel("t [s]")
    axs[0, 2].set_ylabel("|E - E0| / |E0|")
    axs[0, 2].set_title("energy error")
    l = diag["angular_momentum_com"]
    lref = np.maximum.reduce([np.linalg.norm(l[0]) * np.ones_like(t),
                              diag["angular_momentum_scale"],
                              np.full_like(t, diag["angular_momentum_scale"][0])])
    axs[1, 2].semilogy(t, np.maximum(np.linalg.norm(l - l[0], axis=1) / lref, 1e-17),
                       label="|L - L0| / L_ref")
    p = diag["momentum"]
    axs[1, 2].semilogy(t, np.maximum(np.linalg.norm(diag["com_position"] - diag["com_position"][0],
                                                    axis=1) / extent, 1e-17),
                       label="centre-of-mass drift / R")
    axs[1, 2].set_xlabel("t [s]")
    axs[1, 2].set_title(f"momentum |P| at end = {np.linalg.norm(p[-1]):.3g} kg m/s")
    axs[1, 2].legend()
    fig.suptitle(f"{Path(path).name}: {first.id.size} bodies")
    fig.tight_layout()
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(output, dpi=110)
    plt.close(fig)
    return output
