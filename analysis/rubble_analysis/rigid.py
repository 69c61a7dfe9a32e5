"""Rigid-body geometry of a snapshot's bodies (docs/output-format.md): rotations from the stored
quaternions, where each sphere of a body is, and each body's inertia tensor in the inertial
frame. The C++ twins are in include/rubble/core/rigid_body.hpp (sphere_centre,
principal_to_inertial, inertia_tensor)."""

from __future__ import annotations

import numpy as np


def rotation_matrices(q: np.ndarray) -> np.ndarray:
    """(N, 3, 3) rotations from (N, 4) unit quaternions (w, x, y, z)."""
    w, x, y, z = np.asarray(q, dtype=float).T
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
        np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
        np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1),
    ], axis=1)


def quaternion_product(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """(N, 4) Hamilton products p q of (N, 4) quaternions (w, x, y, z), Eigen's operator*:
    rotation(p q) = rotation(p) rotation(q)."""
    pw, pv = p[..., :1], p[..., 1:]
    qw, qv = q[..., :1], q[..., 1:]
    w = pw * qw - np.sum(pv * qv, axis=-1, keepdims=True)
    v = pw * qv + qw * pv + np.cross(pv, qv)
    return np.concatenate([w, v], axis=-1)


def principal_rotations(orientation: np.ndarray, principal_axes: np.ndarray) -> np.ndarray:
    """(N, 3, 3) rotations from each body's principal frame to the inertial frame:
    orientation (body -> inertial) times principal_axes (principal -> body), as
    principal_to_inertial composes them (core/rigid_body.hpp)."""
    return rotation_matrices(quaternion_product(orientation, principal_axes))


def inertia_tensors(orientation: np.ndarray, principal_axes: np.ndarray,
                    moments: np.ndarray) -> np.ndarray:
    """(N, 3, 3) inertia tensors about each body's centre of mass in the inertial frame,
    R diag(I) R^T with R = principal_rotations (kg m^2, as `moments`)."""
    rot = principal_rotations(orientation, principal_axes)
    return np.einsum("nij,nj,nkj->nik", rot, moments, rot)


def sphere_centres(position: np.ndarray, orientation: np.ndarray, body: np.ndarray,
                   offset: np.ndarray) -> np.ndarray:
    """(M, 3) inertial centres of spheres: x_body + R(orientation_body) offset (m), as
    sphere_centre (core/rigid_body.hpp). A zero offset gives x_body exactly."""
    rot = rotation_matrices(orientation)
    return position[body] + np.einsum("mij,mj->mi", rot[body], offset)
