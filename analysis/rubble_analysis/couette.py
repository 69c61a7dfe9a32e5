"""Azimuthal velocity profile of a Taylor-Couette cell: v_theta(r) across the gap.

Spheres between two coaxial cylinders about the z axis (params/taylor_couette.toml): the
turning inner cylinder drags the spheres next to it through friction (eps_t < 1), and the
momentum diffuses outwards through collisions to the fixed outer cylinder, so v_theta falls
from about Omega R_i at the inner wall towards zero at the outer one (granular Couette flow,
Richardson's PiTP lectures; the shear localises near the turning wall in dense flows).

    /usr/bin/python3 -m rubble_analysis couette RUN.h5 [--bins N] [--since T] [--output PNG]
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .reader import open_run


@dataclass(frozen=True)
class Profile:
    r: np.ndarray         # (bins,) m, bin centres
    count: np.ndarray     # (bins,) sphere samples in each bin, summed over the snapshots
    v_theta: np.ndarray   # (bins,) m/s, mean azimuthal velocity (nan where count = 0)
    v_r: np.ndarray       # (bins,) m/s, mean radial velocity (zero in a steady flow)
    snapshots: int        # how many snapshots were averaged
    since: float          # s, the earliest snapshot time averaged


def azimuthal_profile(position: np.ndarray, velocity: np.ndarray, edges: np.ndarray):
    """Per-bin sample count, sum of v_theta and sum of v_r for bodies at `position` (N, 3)
    with `velocity` (N, 3), binned by cylindrical radius about z on `edges`."""
    x, y = position[:, 0], position[:, 1]
    r = np.hypot(x, y)
    with np.errstate(invalid="ignore", divide="ignore"):
        e_r = np.where(r[:, None] > 0, np.stack([x, y], axis=1) / r[:, None], 0.0)
    v_r = velocity[:, 0] * e_r[:, 0] + velocity[:, 1] * e_r[:, 1]
    v_t = -velocity[:, 0] * e_r[:, 1] + velocity[:, 1] * e_r[:, 0]
    which = np.digitize(r, edges) - 1
    inside = (which >= 0) & (which < len(edges) - 1)
    bins = len(edges) - 1
    count = np.bincount(which[inside], minlength=bins)
    return (count, np.bincount(which[inside], v_t[inside], minlength=bins),
            np.bincount(which[inside], v_r[inside], minlength=bins))


def couette_profile(path: str | Path, bins: int = 10, since: float | None = None) -> Profile:
    """Mean v_theta(r) over the snapshots at or after `since` (s; default: the second half
    of the run), in `bins` equal bins between the smallest and largest radius of a centre."""
    with open_run(path) as run:
        snaps = [run.snapshot(k) for k in range(run.snapshot_count)]
    t_end = snaps[-1].time
    start = 0.5 * t_end if since is None else since
    used = [s for s in snaps if s.time >= start] or [snaps[-1]]
    radii = np.concatenate([np.hypot(s.position[:, 0], s.position[:, 1]) for s in used])
    edges = np.linspace(radii.min(), radii.max() * (1 + 1e-12), bins + 1)
    count = np.zeros(bins, dtype=np.int64)
    sum_t = np.zeros(bins)
    sum_r = np.zeros(bins)
    for s in used:
        c, t, r = azimuthal_profile(s.position, s.velocity, edges)
        count += c
        sum_t += t
        sum_r += r
    with np.errstate(invalid="ignore", divide="ignore"):
        return Profile(r=0.5 * (edges[1:] + edges[:-1]), count=count, v_theta=sum_t / count,
                       v_r=sum_r / count, snapshots=len(used), since=used[0].time)


def format_profile(p: Profile) -> str:
    lines = [f"v_theta(r) averaged over {p.snapshots} snapshot(s) from t = {p.since:.6g} s",
             f"{'r [m]':>10} {'samples':>8} {'v_theta [m/s]':>14} {'omega [rad/s]':>14} "
             f"{'v_r [m/s]':>11}"]
    for r, n, vt, vr in zip(p.r, p.count, p.v_theta, p.v_r):
        lines.append(f"{r:10.4f} {n:8d} {vt:14.5f} {vt / r:14.5f} {vr:11.5f}")
    return "\n".join(lines) + "\n"


def plot_profile(p: Profile, output: Path) -> Path:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.plot(p.r, p.v_theta, "o-", label="v_theta")
    ax.plot(p.r, p.v_r, "s--", label="v_r")
    ax.axhline(0.0, color="grey", lw=0.5)
    ax.set_xlabel("r [m]")
    ax.set_ylabel("velocity [m/s]")
    ax.set_title(f"Couette profile, t >= {p.since:.3g} s")
    ax.legend()
    fig.tight_layout()
    fig.savefig(output, dpi=120)
    plt.close(fig)
    return output
