"""Quick-look figure of a run: the bodies at the first and last snapshots (x-y and x-z
projections of their spheres, circles to scale, and of their polyhedra, outlines of their
projections) and the conservation diagnostics over time."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from .conservation import conservation_series  # noqa: E402
from .plots import AXES, draw_hulls, draw_spheres, hull_vertices  # noqa: E402
from .reader import Run  # noqa: E402


def quicklook(path: str | Path, output: str | Path) -> Path:
    with Run(path) as run:
        first, last = run.snapshot(0), run.snapshot(-1)
        series = conservation_series(run.diagnostics(), float(first.mass.sum()))
    centre = np.average(first.position, axis=0, weights=first.mass)
    extent = 1.05 * float(np.max(np.linalg.norm(first.position - centre, axis=1) + first.radius))
    fig, axs = plt.subplots(2, 3, figsize=(15, 9.5))
    for row, snap in enumerate((first, last)):
        for col, (i, j) in enumerate(((0, 1), (0, 2))):
            ax = axs[row, col]
            draw_spheres(ax, snap.sphere_position[:, [i, j]] - centre[[i, j]],
                         snap.sphere_radius, "0.45", extent)
            vertices, start, _ = hull_vertices(snap)
            draw_hulls(ax, vertices[:, [i, j]] - centre[[i, j]], start, "0.45")
            ax.set_xlabel(f"{AXES[i]} [m]")
            ax.set_ylabel(f"{AXES[j]} [m]")
            ax.set_title(f"t = {snap.time:.4g} s")
    t = series["time_s"]
    axs[0, 2].semilogy(t, np.maximum(series["energy_error"], 1e-17))
    axs[0, 2].set_ylabel("|E - E0| / |E0|")
    axs[1, 2].semilogy(t, np.maximum(series["angular_momentum_error"], 1e-17),
                       label="|L - L0| / L_ref")
    axs[1, 2].semilogy(t, np.maximum(series["momentum_error"], 1e-17),
                       label="|P - P0| / sqrt(2 M K)")
    axs[1, 2].legend()
    for ax in axs[:, 2]:
        ax.set_xlabel("t [s]")
    spheres = first.sphere_body.size
    hulls = first.hull_body.size
    if hulls:
        made_of = f" ({hulls} polyhedra" + (f", {spheres} spheres)" if spheres else ")")
    else:
        made_of = f" ({spheres} spheres)" if spheres != first.id.size else ""
    fig.suptitle(f"{Path(path).name}: {first.id.size} bodies{made_of}")
    fig.tight_layout()
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(output, dpi=110)
    plt.close(fig)
    return output
