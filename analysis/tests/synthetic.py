"""Synthetic snapshots and run files with known answers."""

from __future__ import annotations

import dataclasses

import h5py
import numpy as np
from scipy.spatial import ConvexHull
from scipy.spatial.transform import Rotation

from rubble_analysis import Snapshot
from rubble_analysis.polyhedra import HullShapes


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


def quaternion_from_matrix(rot: np.ndarray) -> np.ndarray:
    """Unit quaternion (w, x, y, z) of a proper rotation matrix (Shepperd 1978: from the
    largest of w, x, y, z, which keeps the division well conditioned)."""
    t = np.trace(rot)
    big = int(np.argmax([t, rot[0, 0], rot[1, 1], rot[2, 2]]))
    if big == 0:
        w = 0.5 * np.sqrt(1.0 + t)
        q = [w, (rot[2, 1] - rot[1, 2]) / (4 * w), (rot[0, 2] - rot[2, 0]) / (4 * w),
             (rot[1, 0] - rot[0, 1]) / (4 * w)]
    else:
        i = big - 1
        j, k = (i + 1) % 3, (i + 2) % 3
        v = np.zeros(3)
        v[i] = 0.5 * np.sqrt(1.0 + rot[i, i] - rot[j, j] - rot[k, k])
        v[j] = (rot[j, i] + rot[i, j]) / (4 * v[i])
        v[k] = (rot[k, i] + rot[i, k]) / (4 * v[i])
        q = [(rot[k, j] - rot[j, k]) / (4 * v[i]), *v]
    q = np.array(q)
    return q / np.linalg.norm(q)


def random_quaternion(rng: np.random.Generator) -> np.ndarray:
    """Uniformly random unit quaternion (w, x, y, z) (Shoemake 1992: a normalised Gaussian
    4-vector)."""
    q = rng.normal(size=4)
    return q / np.linalg.norm(q)


@dataclasses.dataclass(frozen=True)
class Grain:
    """A rigid body of spheres, as rubble stores it (docs/aggregates.md, mass_properties):
    offsets in its body frame from its centre of mass, principal moments (ascending) and the
    principal axes (principal frame -> body frame)."""
    offset: np.ndarray          # (K, 3) m, body frame
    radius: np.ndarray          # (K,) m
    mass: np.ndarray            # (K,) kg
    moments: np.ndarray         # (3,) kg m^2
    principal_axes: np.ndarray  # (4,) quaternion (w, x, y, z)


def grain(centres, radius, *, density: float = 2000.0, body_frame=None) -> Grain:
    """The grain of spheres at `centres` (any origin) with `radius`: pkdgrav's sums
    M = sum m, I = sum [2/5 m R^2 1 + m (rho^2 1 - rho rho^T)] (docs/aggregates.md), the
    principal axes from numpy's eigh made a proper rotation. body_frame: rotation matrix from
    the body frame to the frame of `centres` (default identity: the same frame)."""
    centres = np.asarray(centres, dtype=float)
    radius = np.broadcast_to(np.asarray(radius, dtype=float), (len(centres),)).copy()
    mass = density * 4.0 / 3.0 * np.pi * radius**3
    com = (mass[:, None] * centres).sum(0) / mass.sum()
    body = np.eye(3) if body_frame is None else np.asarray(body_frame, dtype=float)
    rho = (centres - com) @ body  # rows: body-frame offsets, body^T (x - com)
    inertia = (np.eye(3) * np.sum(0.4 * mass * radius**2 + mass * np.sum(rho * rho, 1))
               - np.einsum("i,ij,ik->jk", mass, rho, rho))
    moments, axes = np.linalg.eigh(inertia)
    if np.linalg.det(axes) < 0:
        axes[:, 2] = -axes[:, 2]
    return Grain(offset=rho, radius=radius, mass=mass, moments=moments,
                 principal_axes=quaternion_from_matrix(axes))


def grains_snapshot(grains, position, orientation, *, velocity=None, spin=None) -> Snapshot:
    """A Snapshot of rigid bodies: grain k with its centre of mass at position[k] and
    orientation[k] (body -> inertial quaternion), its spheres in the spheres table."""
    n = len(grains)
    position = np.asarray(position, dtype=float)
    body = np.concatenate([np.full(len(g.radius), k) for k, g in enumerate(grains)])
    offset = np.concatenate([g.offset for g in grains])
    radius = np.concatenate([g.radius for g in grains])
    mass = np.concatenate([g.mass for g in grains])
    bounding = np.array([np.max(np.linalg.norm(g.offset, axis=1) + g.radius) for g in grains])
    return Snapshot(
        index=0, step=0, time=0.0, id=np.arange(n), mass=np.bincount(body, mass),
        radius=bounding, position=position,
        velocity=np.zeros((n, 3)) if velocity is None else np.asarray(velocity, float),
        spin=np.zeros((n, 3)) if spin is None else np.asarray(spin, float),
        orientation=np.asarray(orientation, dtype=float),
        inertia=np.array([g.moments for g in grains]),
        fields={"principal_axes": np.array([g.principal_axes for g in grains])},
        spheres={"body": body, "offset": offset, "radius": radius, "mass": mass})


def rotation(q: np.ndarray) -> np.ndarray:
    """Rotation matrix of the quaternion (w, x, y, z), by scipy (scalar last): independent of
    rubble_analysis.rigid."""
    return Rotation.from_quat([q[1], q[2], q[3], q[0]]).as_matrix()


@dataclasses.dataclass(frozen=True)
class SphereSums:
    """A set of bodies summed over their spheres, each a solid sphere moving with its body:
    the brute-force reference for the analysis's use of the bodies' own tensors."""
    position: np.ndarray  # (M, 3) m, sphere centres
    inertia: np.ndarray   # (3, 3) kg m^2 about the centre of mass
    angular_momentum: np.ndarray  # (3,) kg m^2/s about the centre of mass
    inertia_scale: float  # sum of the magnitudes of the inertia's terms
    angular_momentum_scale: float  # the same for the angular momentum


def sphere_sums(snap: Snapshot) -> SphereSums:
    """sum m (r^2 1 - r r^T) + 2/5 m R^2 1 and sum m r x (v - V) + 2/5 m R^2 w over every
    sphere (pkdgrav's convention, docs/aggregates.md), v = v_body + w x (x - x_body)."""
    body, m, radius = snap.sphere_body, snap.sphere_mass, snap.sphere_radius
    rot = np.array([rotation(q) for q in snap.orientation])
    x = snap.position[body] + np.einsum("sij,sj->si", rot[body], snap.sphere_offset)
    w = snap.spin[body]
    v = snap.velocity[body] + np.cross(w, x - snap.position[body])
    r = x - np.average(x, axis=0, weights=m)
    u = v - np.average(v, axis=0, weights=m)
    own = 0.4 * m * radius**2
    inertia = np.eye(3) * np.sum(own + m * np.sum(r * r, 1)) - np.einsum("s,si,sj->ij", m, r, r)
    h = np.cross(r, m[:, None] * u).sum(0) + (own[:, None] * w).sum(0)
    return SphereSums(
        position=x, inertia=inertia, angular_momentum=h,
        inertia_scale=float(np.sum(own + m * np.sum(r * r, 1))),
        angular_momentum_scale=float(np.sum(m * np.linalg.norm(r, axis=1)
                                            * np.linalg.norm(u, axis=1)
                                            + own * np.linalg.norm(w, axis=1))))


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

# A run of a campaign (`rubble campaign`): the keys the analysis checks against the index.
CAMPAIGN_PARAMETERS = """[units]
G = 6.6743e-11

[integrator]
dt = 1.0

[random]
seed = {seed}

[campaign]
id = "{campaign_id}"
set = "{set}"

[ic]
type = "scenario"

[ic.scenario]
model = "{model}"

[ic.motion]
v0 = {v0!r}
w0 = {w0!r}
omega = {omega!r}
"""


def campaign_parameters(campaign_id: str, set_name: str, seed: int, model: str, v0: float,
                        w0: float, omega: float) -> str:
    """The stored TOML of a campaign run."""
    return CAMPAIGN_PARAMETERS.format(campaign_id=campaign_id, set=set_name, seed=seed,
                                      model=model, v0=float(v0), w0=float(w0),
                                      omega=float(omega))


DIAGNOSTIC_VECTORS = ("momentum", "angular_momentum", "angular_momentum_com", "com_position",
                      "com_velocity")
DIAGNOSTIC_SCALARS = ("kinetic_translational", "kinetic_rotational", "potential",
                      "total_energy", "angular_momentum_scale", "collisions",
                      "collisions_total", "overlaps", "overlaps_total", "merges_total",
                      "max_overlap")


def rotating_block(step: int, omega: float) -> Snapshot:
    """A touching 2x2x2 block of 1 m spheres turned by omega * step about z, rotating rigidly
    at omega (rad/s) about z."""
    angle = omega * step
    c, s = np.cos(angle), np.sin(angle)
    pos = lattice(2, 2, 2) @ np.array([[c, s, 0.0], [-s, c, 0.0], [0.0, 0.0, 1.0]])
    return snapshot(pos, 1.0, velocity=np.cross([0.0, 0.0, omega], pos))


def write_run(path, *, n_snapshots: int = 3, omega: float = 1e-4, chunk: int = 1024,
              version: int = 3, snapshot_at=None, parameters: str | None = None,
              attributes: dict | None = None) -> None:
    """A small rubble output in the layout of docs/output-format.md, as the C++ writer lays it
    out (extendible diagnostics and collision log in chunks of `chunk` rows), one snapshot per
    step: snapshot_at(step) (a Snapshot), by default rotating_block(step, omega). version 2:
    without principal_axes and the spheres table, whose bodies are free spheres. parameters:
    the stored TOML (default PARAMETERS); attributes: root attributes added or replaced
    (complete, stop_reason)."""
    snapshot_at = snapshot_at or (lambda step: rotating_block(step, omega))
    with h5py.File(path, "w") as f:
        f.attrs.update({"format": "rubble", "format_version": version, "code_version": "0.1.0",
                        "build": "synthetic", "start_time": 0.0, "complete": 1,
                        "relative_energy_error": 0.0, "relative_angular_momentum_error": 0.0})
        f.attrs.update(attributes or {})
        f.create_group("parameters").attrs["toml"] = parameters or PARAMETERS.format(
            last_step=n_snapshots - 1, omega=omega)
        for step in range(n_snapshots):
            _write_snapshot(f.create_group(f"snapshots/{step:06d}"), step, snapshot_at(step),
                            version)
        _write_series(f.create_group("diagnostics"), n_snapshots, chunk)
        _write_collisions(f.create_group("collisions"), chunk)


def _write_snapshot(group, step: int, snap: Snapshot, version: int) -> None:
    group.attrs.update({"time": float(step), "step": step, "collisions_total": 0.0,
                        "overlaps_total": 0.0, "merges_total": 0.0})
    n = len(snap.id)
    for name in ("id", "mass", "radius", "position", "velocity", "spin", "orientation",
                 "inertia"):
        group[name] = getattr(snap, name)
    group["free_path"] = np.full(n, np.inf)
    if version < 3:
        return
    group["principal_axes"] = snap.principal_axes
    # Free spheres (a Snapshot without a spheres table): sphere k is body k's, at its centre.
    # Polyhedra have no spheres: the table is empty when every body is one (as rubble writes).
    spheres = group.create_group("spheres")
    spheres["body"] = snap.sphere_body.astype(np.int64)
    spheres["offset"] = snap.sphere_offset.reshape(-1, 3)
    spheres["radius"] = snap.sphere_radius
    spheres["mass"] = snap.sphere_mass
    if snap.hulls:
        hulls = group.create_group("hulls")
        hulls["body"] = snap.hulls["body"].astype(np.int64)
        hulls["shape"] = snap.hulls["shape"].astype(np.int64)
        hulls["mass"] = snap.hulls["mass"].astype(float)
        # /hull_shapes: written once, with the first snapshot that has polyhedra.
        if "hull_shapes" not in group.file:
            shapes = group.file.create_group("hull_shapes")
            for name in ("vertex_start", "vertices", "triangle_start", "triangles", "volume"):
                shapes[name] = getattr(snap.hull_shapes, name)


# Polyhedra (docs/polyhedra.md): shapes about their centroids, bodies of one hull each.

@dataclasses.dataclass(frozen=True)
class Shape:
    vertices: np.ndarray   # (n, 3) m, about the centroid, body frame
    triangles: np.ndarray  # (t, 3), counter-clockwise seen from outside
    volume: float          # m^3
    inertia: np.ndarray    # (3, 3) m^5, about the centroid, per unit density


def outward_triangles(points: np.ndarray) -> np.ndarray:
    """Triangles of the convex hull of points (all of them vertices), each counter-clockwise
    seen from outside (its normal away from the centre of the points)."""
    hull = ConvexHull(points)
    tri = hull.simplices.copy()
    centre = points.mean(0)
    a, b, c = (points[tri[:, i]] for i in range(3))
    inward = np.einsum("ij,ij->i", np.cross(b - a, c - a), a - centre) < 0
    tri[inward] = tri[inward][:, [0, 2, 1]]
    return tri.astype(np.int64)


def box(a: float, b: float, c: float) -> Shape:
    """An a x b x c box about its centre: V = abc, I = V diag(b^2 + c^2, a^2 + c^2,
    a^2 + b^2) / 12 per unit density."""
    v = np.array([[x, y, z] for x in (-a / 2, a / 2) for y in (-b / 2, b / 2)
                  for z in (-c / 2, c / 2)])
    volume = a * b * c
    inertia = volume / 12.0 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
    return Shape(vertices=v, triangles=outward_triangles(v), volume=volume, inertia=inertia)


def catalogue(shapes) -> HullShapes:
    """The /hull_shapes group of a list of Shapes."""
    nv = [len(s.vertices) for s in shapes]
    nt = [len(s.triangles) for s in shapes]
    return HullShapes(
        vertex_start=np.concatenate([[0], np.cumsum(nv)]).astype(np.int64),
        vertices=np.concatenate([s.vertices for s in shapes]).astype(float),
        triangle_start=np.concatenate([[0], np.cumsum(nt)]).astype(np.int64),
        triangles=np.concatenate([s.triangles for s in shapes]).astype(np.int64),
        volume=np.array([s.volume for s in shapes], dtype=float))


def polyhedra_snapshot(shapes, position, orientation, *, density: float = 1000.0,
                       spheres=(), velocity=None, spin=None) -> Snapshot:
    """A Snapshot of polyhedra: body k of shape k at position[k] with orientation[k] (body ->
    inertial), mass density x volume, principal moments and axes from the shape's tensor (as
    rubble stores them: moments ascending, axes a proper rotation, principal -> body), then
    free spheres (centre, radius) after them (a mixed snapshot: those have the spheres
    table)."""
    p = len(shapes)
    n = p + len(spheres)
    mass = np.array([density * s.volume for s in shapes]
                    + [density * 4.0 / 3.0 * np.pi * r**3 for _, r in spheres])
    moments, axes = [], []
    for s in shapes:
        w, vec = np.linalg.eigh(density * s.inertia)
        if np.linalg.det(vec) < 0:
            vec[:, 2] = -vec[:, 2]
        moments.append(w)
        axes.append(quaternion_from_matrix(vec))
    for (_, r), m in zip(spheres, mass[p:]):
        moments.append(np.full(3, 0.4 * m * r * r))
        axes.append(np.array([1.0, 0.0, 0.0, 0.0]))
    radius = np.array([np.linalg.norm(s.vertices, axis=1).max() for s in shapes]
                      + [r for _, r in spheres])
    pos = np.concatenate([np.asarray(position, dtype=float).reshape(-1, 3),
                          np.array([c for c, _ in spheres], dtype=float).reshape(-1, 3)])
    q = np.concatenate([np.asarray(orientation, dtype=float).reshape(-1, 4),
                        np.tile([1.0, 0.0, 0.0, 0.0], (len(spheres), 1))])
    sphere_table = {"body": np.arange(p, n, dtype=np.int64), "offset": np.zeros((n - p, 3)),
                    "radius": radius[p:].copy(), "mass": mass[p:].copy()}
    return Snapshot(
        index=0, step=0, time=0.0, id=np.arange(n), mass=mass, radius=radius, position=pos,
        velocity=np.zeros((n, 3)) if velocity is None else np.asarray(velocity, float),
        spin=np.zeros((n, 3)) if spin is None else np.asarray(spin, float),
        orientation=q, inertia=np.array(moments),
        fields={"principal_axes": np.array(axes)}, spheres=sphere_table,
        hulls={"body": np.arange(p, dtype=np.int64), "shape": np.arange(p, dtype=np.int64),
               "mass": mass[:p].copy()},
        hull_shapes=catalogue(shapes))


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
