#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A small rubble pile built, run and looked at from Python (docs/python.md walks through it).

50 rigid aggregates of four spheres each (a tetrahedron of 4 m spheres) are placed on a lattice
with random orientations and slow random spins, and fall together under their own gravity;
their collisions (eps_n = 0.5, eps_t = 0.8, with default.toml's guards v_min and f_crit) pile
them up. Every 2000 s the script asks the analysis package, on the live simulation, how many
grains touch in the largest pile; at the end it plots the constituent spheres seen from +z and
from +x (matplotlib) and leaves the run file, whose shapes sidecar ParaView opens.

    PYTHONPATH=build/release/python:analysis /usr/bin/python3 python/examples/aggregate_pile.py \
        [OUTPUT_DIR] [--t-end SECONDS]
"""
import argparse
from pathlib import Path

import numpy as np

import rubble
import rubble_analysis
from rubble_analysis.report import identify

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("out", nargs="?", default="out/python_pile")
parser.add_argument("--t-end", type=float, default=40000.0, help="s (default 40000)")
args = parser.parse_args()
out = Path(args.out)
out.mkdir(parents=True, exist_ok=True)

# One grain: four spheres of radius 4 m on the corners of a regular tetrahedron (edge 8 m, so
# neighbours touch), 2000 kg/m^3. A parts file: x, y, z, radius, density per sphere, in the
# grain's frame (rubble moves it so its centre of mass is at the origin).
corners = np.array([[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]]) * (8.0 / np.sqrt(8.0))
parts = out / "tetrahedron.csv"
with open(parts, "w") as f:
    f.write("x,y,z,radius,density\n")
    for x, y, z in corners:
        f.write(f"{x!r},{y!r},{z!r},4.0,2000.0\n")

# 50 grains on the sites of a 4 x 4 x 4 lattice 24 m apart (no two touch), turned at random,
# spinning at up to 1e-4 rad/s and moving at up to 4 mm/s in random directions.
rng = np.random.default_rng(2026)
sites = np.stack(np.meshgrid(*[np.arange(4.0)] * 3, indexing="ij"), -1).reshape(-1, 3)
sites = (sites[rng.permutation(len(sites))[:50]] - 1.5) * 24.0
n = len(sites)
quaternions = rng.normal(size=(n, 4))
quaternions /= np.linalg.norm(quaternions, axis=1)[:, None]


def random_vectors(scale):
    v = rng.normal(size=(n, 3))
    return v / np.linalg.norm(v, axis=1)[:, None] * scale * rng.uniform(size=(n, 1))


bodies = {"id": np.arange(n), "position": sites, "orientation": quaternions,
          "velocity": random_vectors(4e-3), "spin": random_vectors(1e-4),
          "parts": np.array([str(parts.resolve())] * n)}
params = {"random.seed": 2026,
          "integrator": {"dt": 20.0, "t_end": args.t_end},
          "gravity": {"backend": "direct"},
          # default.toml's contact parameters, with its guards against inelastic collapse:
          # slow and repeated contacts are elastic (v_min, f_crit; docs/collisions.md).
          "collisions": {"enabled": True, "outcome": "bounce", "eps_n": 0.5, "eps_t": 0.8,
                         "v_min": 2.2e-3, "f_crit": 0.01},
          "output": {"file": str(out / "pile.h5"), "overwrite": True,
                     "snapshot_interval": 2000.0, "diagnostics_interval": 400.0}}

sim = rubble.Simulation(params, bodies, say=None)
print(f"{n} aggregates, {len(sim.state['spheres']['body'])} spheres, to t = {args.t_end:g} s")
while sim.running:
    sim.run(t=sim.time + 2000.0)
    snap = rubble_analysis.snapshot_of(sim)  # the state now, as the analysis reads a file
    piles = identify(snap, 0.01, None)  # grains whose spheres touch (gap <= 1 % of a radius)
    largest = len(piles.members(0)) if piles.count else 1
    centre = snap.mass @ snap.position / snap.mass.sum()
    spread = np.median(np.linalg.norm(snap.position - centre, axis=1))
    print(f"t = {sim.time:7.0f} s: the largest pile holds {largest:2d} of {n} grains; half the "
          f"grains lie within {spread:5.1f} m of the centre of mass", flush=True)
print(f"{sim.result['end']}: |E - E0| / |E0| = {sim.result['energy_error']:.2f} (what the "
      f"collisions dissipated), output {sim.output}")

# The constituent spheres, seen from +z and from +x, coloured by grain.
import matplotlib  # noqa: E402 (only after the run: the plot is optional)
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.collections import EllipseCollection  # noqa: E402

snap = rubble_analysis.snapshot_of(sim)
xyz = snap.sphere_position
colour = plt.cm.tab20(snap.sphere_body % 20)
fig, axes = plt.subplots(1, 2, figsize=(10, 5))
for ax, (i, j), name in zip(axes, [(0, 1), (1, 2)], ["seen from +z", "seen from +x"]):
    d = 2.0 * snap.sphere_radius
    ax.add_collection(EllipseCollection(d, d, 0.0, units="xy", offsets=xyz[:, [i, j]],
                                        offset_transform=ax.transData, facecolors=colour,
                                        edgecolors="k", linewidths=0.3))
    ax.set_xlim(xyz[:, i].min() - 10, xyz[:, i].max() + 10)
    ax.set_ylim(xyz[:, j].min() - 10, xyz[:, j].max() + 10)
    ax.set_aspect("equal")
    ax.set_xlabel("xyz"[i] + " (m)")
    ax.set_ylabel("xyz"[j] + " (m)")
    ax.set_title(f"t = {snap.time:g} s, {name}")
fig.tight_layout()
fig.savefig(out / "pile.png", dpi=120)
print(f"plot: {out / 'pile.png'}")
