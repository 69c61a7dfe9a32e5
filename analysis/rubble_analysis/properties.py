"""Properties of one aggregate (Ferrari et al. 2017 sec. 4.2; Ferrari et al. 2020 sec. 2.4).

All in SI, about the aggregate's centre of mass, in the inertial frame of the snapshot. The
members are bodies (grains): free spheres, rigid aggregates of spheres (docs/aggregates.md) or
convex polyhedra (docs/polyhedra.md). Each contributes its mass at its centre of mass and its
own inertia tensor R diag(I) R^T, R the rotation from its principal frame to the inertial frame
(for a polyhedron, the exact tensor of its solid hull, which rubble stores the same way);
volumes and shapes are those of the constituent spheres, and of the polyhedra (their shapes'
volumes, their inertial vertices).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .polyhedra import ranges
from .rigid import inertia_tensors
from .volume import convex_hull_volume, minimum_alpha_shape


@dataclasses.dataclass
class AggregateProperties:
    n: int                      # bodies
    n_spheres: int              # spheres of those bodies (n when all are free spheres)
    mass: float                 # kg
    com: np.ndarray             # m
    velocity: np.ndarray        # m/s, of the centre of mass
    inertia: np.ndarray         # kg m^2, 3x3 tensor about the centre of mass
    principal_moments: np.ndarray  # kg m^2, ascending
    principal_axes: np.ndarray  # columns, matching principal_moments
    elongation: float           # lambda = I_max / I_min
    angular_momentum: np.ndarray  # kg m^2/s, H about the centre of mass, orbital + spin
    spin: np.ndarray            # rad/s, w = I^-1 H
    period: float               # s, 2 pi / |w| (inf when not rotating)
    velocity_dispersion: float  # m/s, mass-weighted rms of v - V - w x r (0 when rigid)
    axis_ratios: tuple[float, float]  # b/a, c/a of the equivalent uniform ellipsoid
    grain_volume: float         # m^3, sum of the spheres' (lenses twice) and hulls' volumes
    grain_density: float        # kg/m^3, mass / grain volume
    hull_volume: float = float("nan")   # m^3
    alpha: float = float("nan")         # m, of the minimum-volume alpha shape
    alpha_volume: float = float("nan")  # m^3
    n_polyhedra: int = 0        # bodies that are polyhedra (not in COLUMNS: see report)

    @property
    def porosity_hull(self) -> float:
        """P = 1 - rho_bulk / rho with the convex-hull volume (the upper end of the range)."""
        return 1.0 - self.grain_volume / self.hull_volume

    @property
    def porosity_alpha(self) -> float:
        """P with the minimum-volume alpha shape (the lower end of the range)."""
        return 1.0 - self.grain_volume / self.alpha_volume

    def as_row(self) -> dict:
        values = (
            self.n, self.n_spheres, self.mass, *self.com, *self.velocity, *self.principal_moments,
            self.elongation, *self.axis_ratios, float(np.linalg.norm(self.angular_momentum)),
            float(np.linalg.norm(self.spin)), self.period, self.velocity_dispersion,
            self.grain_density,
            self.hull_volume, self.porosity_hull, self.alpha, self.alpha_volume,
            self.porosity_alpha, self.mass / self.hull_volume, self.mass / self.alpha_volume)
        return dict(zip(COLUMNS, values))


def critical_period(bulk_density: float, G: float) -> float:
    """Shortest spin period (s) at which a strengthless sphere of this bulk density (kg/m^3)
    holds together: centrifugal acceleration w^2 R equals surface gravity 4/3 pi G rho R at the
    equator, so T_crit = 2 pi / sqrt(4/3 pi G rho): 3.3 h at 1000 kg/m^3, the spin barrier of
    Pravec & Harris 2000 (Icarus 148, 12). Elongated bodies fly apart at longer periods."""
    return 2.0 * np.pi / np.sqrt(4.0 / 3.0 * np.pi * G * bulk_density)


# Columns of AggregateProperties.as_row(), with units in the names.
COLUMNS = (
    "n", "n_spheres", "mass_kg", "com_x_m", "com_y_m", "com_z_m", "v_x_m_s", "v_y_m_s", "v_z_m_s",
    "I1_kg_m2", "I2_kg_m2", "I3_kg_m2", "elongation", "b_over_a", "c_over_a", "H_kg_m2_s",
    "w_rad_s", "period_s", "velocity_dispersion_m_s", "grain_density_kg_m3", "hull_volume_m3",
    "porosity_hull", "alpha_m", "alpha_volume_m3", "porosity_alpha", "bulk_density_hull_kg_m3",
    "bulk_density_alpha_kg_m3")


def measure(snap, members: np.ndarray, *, volumes: str = "hull+alpha",
            hull_points: int = 128, alpha_points: int = 48) -> AggregateProperties:
    """Properties of the bodies `members` of a Snapshot. volumes: "none", "hull" or
    "hull+alpha" (the alpha shape costs a 3-D Delaunay triangulation)."""
    m = snap.mass[members]
    x = snap.position[members]
    v = snap.velocity[members]
    mass = float(m.sum())
    com = (m[:, None] * x).sum(0) / mass
    vcm = (m[:, None] * v).sum(0) / mass
    r = x - com
    # Bodies as point masses at their centres of mass, sum m (r^2 1 - r r^T), plus each body's
    # own tensor about its centre of mass (parallel axis theorem): the same sum over the
    # spheres (mass_properties, docs/aggregates.md) but from the stored principal moments.
    own = inertia_tensors(snap.orientation[members], snap.principal_axes[members],
                          snap.inertia[members])
    inertia = (np.eye(3) * np.sum(m * np.sum(r * r, 1)) - np.einsum("i,ij,ik->jk", m, r, r)
               + own.sum(0))
    l_spin = np.einsum("nij,nj->i", own, snap.spin[members])
    h = np.cross(r, m[:, None] * (v - vcm)).sum(0) + l_spin
    moments, axes = np.linalg.eigh(inertia)
    w = np.linalg.solve(inertia, h)
    w_norm = float(np.linalg.norm(w))
    # Motion that is not the rigid rotation w: what is left of the bodies' settling (or of
    # their jitter on resting contacts) once the aggregate turns as one.
    u = v - vcm - np.cross(w, r)
    dispersion = float(np.sqrt(np.sum(m * np.sum(u * u, 1)) / mass))
    # Uniform ellipsoid with moments I_a <= I_b <= I_c: a^2 = 5 (I_b + I_c - I_a) / (2 M), ...
    a2 = 2.5 * (moments[1] + moments[2] - moments[0]) / mass
    b2 = 2.5 * (moments[0] + moments[2] - moments[1]) / mass
    c2 = 2.5 * (moments[0] + moments[1] - moments[2]) / mass
    spheres = snap.spheres_of(members)
    centres, radii = snap.sphere_position[spheres], snap.sphere_radius[spheres]
    # pkdgrav's convention (docs/aggregates.md): the grains' volume is the sum of their spheres'
    # volumes, lenses of overlapping spheres counted twice as in the mass, so M / V_grains is
    # the spheres' material density.
    grain_volume = float(np.sum(4.0 / 3.0 * np.pi * radii**3))
    # Polyhedra: the volume of each hull's shape (rubble's, from its triangles), and the hull
    # of their inertial vertices for the shape of the aggregate.
    hulls = snap.hull_of[np.asarray(members, dtype=np.int64)] if len(snap.hull_body) else \
        np.zeros(0, dtype=np.int64)
    hulls = hulls[hulls >= 0]
    vertices = centroids = None
    if len(hulls):
        grain_volume += float(np.sum(snap.hull_volume[hulls]))
        start = snap.hull_vertex_start
        vertices = snap.hull_vertex_position[
            ranges(start[hulls], start[hulls + 1] - start[hulls])]
        centroids = snap.position[snap.hull_body[hulls]]
    props = AggregateProperties(
        n=len(members), n_spheres=len(spheres), n_polyhedra=len(hulls), mass=mass, com=com,
        velocity=vcm,
        inertia=inertia, principal_moments=moments, principal_axes=axes,
        elongation=float(moments[2] / moments[0]), angular_momentum=h, spin=w,
        period=2.0 * np.pi / w_norm if w_norm > 0 else float("inf"),
        velocity_dispersion=dispersion,
        axis_ratios=(float(np.sqrt(max(b2, 0) / a2)), float(np.sqrt(max(c2, 0) / a2))),
        grain_volume=grain_volume, grain_density=mass / grain_volume)
    if volumes in ("hull", "hull+alpha"):
        props.hull_volume = convex_hull_volume(centres, radii, hull_points, vertices)
    if volumes == "hull+alpha":
        shape = minimum_alpha_shape(centres, radii, alpha_points, vertices, centroids)
        props.alpha, props.alpha_volume = shape.alpha, shape.volume
    return props
