"""Synthetic snapshots with known answers."""

from __future__ import annotations

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
                    inertia=np.repeat((0.4 * mass * radius**2)[:, None], 3, axis=1),
                    aggregate=np.full(n, -1))


def lattice(nx: int, ny: int, nz: int, spacing: float = 2.0) -> np.ndarray:
    """Simple-cubic lattice points centred on the origin."""
    axes = [(np.arange(k) - (k - 1) / 2.0) * spacing for k in (nx, ny, nz)]
    return np.array(np.meshgrid(*axes, indexing="ij")).reshape(3, -1).T


def lattice_second_moment(k: int, spacing: float) -> float:
    """sum of x^2 over k points spaced d apart and centred: d^2 k (k^2 - 1) / 12."""
    return spacing**2 * k * (k * k - 1) / 12.0
