"""Synthetic snapshots and run files with known answers."""

from __future__ import annotations

import h5py
import numpy as np

from rubble_analysis import Snapshot


def snapshot(position, radius, *, density: float = 2000.0, velocity=None,
             spin=None) -> Snapshot:
    position = np.asarray(position, dtype=float)
    n = len(position)
    radius = np.broadcast_to(np.asarray(radius, dtype=float), (n,)).copy()
    mass = density * 4.0 / 3.0 * np.pi * radius**3
    orientation = np.zeros((n, 4))
    orientation[:, 0] = 1.0
    return Snapshot(index=0, step=0, time=0.0, id=np.arange(n), mass=mass, radius=radius,
                    position=position,
                    velocity=np.zeros((n, 3)) if velocity is None else np.asarray(velocity, float),
                    spin=np.zeros((n, 3)) if spin is None else np.asarray(spin, float),
                    orientation=orientation,
                    inertia=np.repeat((0.4 * mass * radius**2)[:, None], 3, axis=1))


def lattice(nx: int, ny: int, nz: int, spacing: float = 2.0) -> np.ndarray:
    """Simple-cubic lattice points centred on the origin."""
    axes = [(np.arange(k) - (k - 1) / 2.0) * spacing for k in (nx, ny, nz)]
    return np.array(np.meshgrid(*axes, indexing="ij")).reshape(3, -1).T


def lattice_second_moment(k: int, spacing: float) -> float:
    """sum of x^2 over k points spaced d apart and centred: d^2 k (k^2 - 1) / 12."""
    return spacing**2 * k * (k * k - 1) / 12.0


PARAMETERS = """[units]
G = 6.6743e-11

[integrator]
dt = 1.0
n_steps = {last_step}

[ic.motion]
v0 = 0.0
w0 = 0.0
omega = {omega}
"""

DIAGNOSTIC_VECTORS = ("momentum", "angular_momentum", "angular_momentum_com", "com_position",
                      "com_velocity")
DIAGNOSTIC_SCALARS = ("kinetic_translational", "kinetic_rotational", "potential",
                      "total_energy", "angular_momentum_scale", "collisions",
                      "collisions_total", "overlaps", "overlaps_total", "merges_total",
                      "max_overlap")


def write_run(path, *, n_snapshots: int = 3, omega: float = 1e-4, chunk: int = 1024) -> None:
    """A small rubble output in the layout of docs/output-format.md (format_version 3), as
    the C++ writer lays it out (extendible diagnostics and collision log in chunks of `chunk`
    rows): a touching 2x2x2 block of 1 m spheres rotating rigidly about z, one snapshot per
    step."""
    position = lattice(2, 2, 2)
    with h5py.File(path, "w") as f:
        f.attrs.update({"format": "rubble", "format_version": 3, "code_version": "0.1.0",
                        "build": "synthetic", "start_time": 0.0, "complete": 1,
                        "relative_energy_error": 0.0, "relative_angular_momentum_error": 0.0})
        f.create_group("parameters").attrs["toml"] = PARAMETERS.format(
            last_step=n_snapshots - 1, omega=omega)
        for step in range(n_snapshots):
            _write_snapshot(f.create_group(f"snapshots/{step:06d}"), step, position, omega)
        _write_series(f.create_group("diagnostics"), n_snapshots, chunk)
        _write_collisions(f.create_group("collisions"), chunk)


def _write_snapshot(group, step: int, position: np.ndarray, omega: float) -> None:
    angle = omega * step
    c, s = np.cos(angle), np.sin(angle)
    pos = position @ np.array([[c, s, 0.0], [-s, c, 0.0], [0.0, 0.0, 1.0]])
    snap = snapshot(pos, 1.0, velocity=np.cross([0.0, 0.0, omega], pos))
    group.attrs.update({"time": float(step), "step": step, "collisions_total": 0.0,
                        "overlaps_total": 0.0, "merges_total": 0.0})
    n = len(pos)
    for name in ("id", "mass", "radius", "position", "velocity", "spin", "orientation",
                 "inertia"):
        group[name] = getattr(snap, name)
    group["principal_axes"] = np.tile([1.0, 0.0, 0.0, 0.0], (n, 1))
    group["free_path"] = np.full(n, np.inf)
    # Free spheres: sphere k is body k's, at its centre.
    spheres = group.create_group("spheres")
    spheres["body"] = np.arange(n, dtype=np.int64)
    spheres["offset"] = np.zeros((n, 3))
    spheres["radius"] = snap.radius
    spheres["mass"] = snap.mass


def _write_series(group, rows: int, chunk: int) -> None:
    group.create_dataset("step", data=np.arange(rows, dtype=np.int64), maxshape=(None,),
                         chunks=(chunk,))
    group.create_dataset("time", data=np.arange(rows, dtype=float), maxshape=(None,),
                         chunks=(chunk,))
    for name in DIAGNOSTIC_SCALARS:
        value = -1.0 if name in ("potential", "total_energy") else 1.0
        group.create_dataset(name, data=np.full(rows, value), maxshape=(None,),
                             chunks=(chunk,))
    for name in DIAGNOSTIC_VECTORS:
        group.create_dataset(name, data=np.ones((rows, 3)), maxshape=(None, 3),
                             chunks=(chunk, 3))


def _write_collisions(group, chunk: int, rows: int = 4) -> None:
    step = np.arange(1, rows + 1, dtype=np.int64)
    columns = {"step": step, "id": np.stack([step - 1, step], axis=1), "time": step - 0.5,
               "normal_speed": np.full(rows, 0.1), "tangential_speed": np.full(rows, 0.01),
               "impact_parameter": np.full(rows, 0.5)}
    for name, data in columns.items():
        group.create_dataset(name, data=data, maxshape=(None, *data.shape[1:]),
                             chunks=(chunk, *data.shape[1:]))
