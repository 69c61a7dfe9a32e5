"""Reader for rubble's HDF5 output, written against docs/output-format.md only.

All quantities are returned in SI units, as stored. A file is checked as it is read, so that
what the reader returns can be trusted: opening it checks the layout (root attributes, the
stored parameters, each snapshot's attributes and dataset shapes, the diagnostics and the
collision-log columns), and reading a snapshot, the diagnostics or the collision log checks
the values. Whatever is wrong raises RunFormatError, one line naming the file, the dataset or
attribute, and the fault.
"""

from __future__ import annotations

import contextlib
import dataclasses
import faulthandler
import functools
import io
import math
import mmap
import os
import re
import signal
import tomllib
import warnings
from pathlib import Path
from typing import NoReturn

import h5py
import numpy as np

from .polyhedra import HullShapes, world_vertices
from .rigid import sphere_centres

# Output format versions this reader reads (docs/output-format.md): 2 (free spheres only) and 3
# (rigid bodies with a spheres table and principal axes).
FORMAT_VERSIONS = (2, 3)

# Per-body datasets of a snapshot: kind ("i" integer, "f" floating point) and the shape after
# the body axis. The first one sets the number of bodies the others must have. free_path is
# not read.
# The per-body datasets every snapshot has (format versions 2 and 3). Any other dataset with
# one row per body (principal_axes, free_path, whatever a later rubble adds) is read as the
# file describes it, into Snapshot.fields; the spheres of the bodies, into Snapshot.spheres.
SNAPSHOT_FIELDS = {"id": ("i", ()), "mass": ("f", ()), "radius": ("f", ()),
                   "position": ("f", (3,)), "velocity": ("f", (3,)), "spin": ("f", (3,)),
                   "orientation": ("f", (4,)), "inertia": ("f", (3,))}

# The datasets of a snapshot's `spheres` group (format version 3), one row per sphere. A
# snapshot without the group (format version 2, or written by a version 2 run before it was
# resumed) holds free spheres, as rubble's own reader takes it (src/runfile/run_file.cpp).
SPHERE_FIELDS = {"body": ("i", ()), "offset": ("f", (3,)), "radius": ("f", ()),
                 "mass": ("f", ())}

# The datasets of a snapshot's `hulls` group, one row per polyhedral body, in body order; a
# snapshot has the group only when some of its bodies are polyhedra (docs/polyhedra.md).
HULL_FIELDS = {"body": ("i", ()), "shape": ("i", ()), "mass": ("f", ())}

# The /hull_shapes group, written once with the first snapshot that has polyhedra: datasets of
# different lengths, each checked on its own (vertex_start and triangle_start S + 1 rows,
# volume S, vertices V and triangles T).
HULL_SHAPE_FIELDS = {"vertex_start": ("i", ()), "vertices": ("f", (3,)),
                     "triangle_start": ("i", ()), "triangles": ("i", (3,)),
                     "volume": ("f", ())}

DIAGNOSTIC_FIELDS = {
    "step": ("i", ()), "time": ("f", ()), "kinetic_translational": ("f", ()),
    "kinetic_rotational": ("f", ()), "potential": ("f", ()), "total_energy": ("f", ()),
    "momentum": ("f", (3,)), "angular_momentum": ("f", (3,)),
    "angular_momentum_com": ("f", (3,)), "com_position": ("f", (3,)),
    "com_velocity": ("f", (3,)), "angular_momentum_scale": ("f", ()),
    "collisions": ("f", ()), "collisions_total": ("f", ()), "overlaps": ("f", ()),
    "overlaps_total": ("f", ()), "merges_total": ("f", ()), "max_overlap": ("f", ())}

DIAGNOSTIC_COUNTS = ("collisions", "collisions_total", "overlaps", "overlaps_total",
                     "merges_total")

COLLISION_FIELDS = {"step": ("i", ()), "id": ("i", (2,)), "time": ("f", ()),
                    "normal_speed": ("f", ()), "tangential_speed": ("f", ()),
                    "impact_parameter": ("f", ())}

# The parameters the analysis uses (report, compare); each must be a number (of at most LIMIT
# in magnitude, below).
REQUIRED_PARAMETERS = (("units", "G"), ("ic", "motion", "v0"), ("ic", "motion", "w0"),
                       ("ic", "motion", "omega"))

# Largest magnitude a stored number may have, and smallest a positive one (mass, radius,
# moment of inertia): far beyond any physical value in SI units or those implied by units.G,
# yet such that the analysis's products of three of them (m r^2, G m^2 / r) stay finite.
# Garbled bytes of a float easily make a finite number of 1e300, which would overflow there.
LIMIT = 1e100
IMPLAUSIBLE = f"NaN, infinite or beyond {LIMIT:g} in magnitude"

SNAPSHOT_NAME = re.compile(r"\d{6}")
KIND_NAMES = {"i": "integer", "f": "floating-point", "str": "a string"}
KIND_TYPES = {"i": np.int64, "f": np.float64}

# h5py reports damage with different exceptions depending on what it hit: OSError from the
# HDF5 library (truncated file, bad address or signature), KeyError for a link it cannot
# follow, ValueError (UnicodeDecodeError included), TypeError or RuntimeError for a garbled
# object header, datatype or string. They are caught only around calls into h5py.
H5PY_ERRORS = (OSError, KeyError, RuntimeError, TypeError, ValueError)


class RunFormatError(ValueError):
    """The file is not a (readable) rubble output."""


@dataclasses.dataclass(frozen=True)
class Snapshot:
    index: int
    step: int
    time: float  # s
    id: np.ndarray  # (N,) int64
    mass: np.ndarray  # (N,) kg
    radius: np.ndarray  # (N,) m
    position: np.ndarray  # (N, 3) m
    velocity: np.ndarray  # (N, 3) m/s
    spin: np.ndarray  # (N, 3) rad/s, inertial frame
    orientation: np.ndarray  # (N, 4) unit quaternion (w, x, y, z), body to inertial frame
    inertia: np.ndarray  # (N, 3) kg m^2, principal moments
    # Every per-body dataset of the snapshot by name (the ones above too), as stored.
    fields: dict = dataclasses.field(default_factory=dict)
    # The datasets of the snapshot's `spheres` group (body, offset, radius, mass: docs/
    # output-format.md); empty without that group (format version 2), whose bodies are free
    # spheres. Read them through sphere_body, sphere_offset, ... below, which cover both.
    spheres: dict = dataclasses.field(default_factory=dict)
    # The datasets of the snapshot's `hulls` group (body, shape, mass), one row per polyhedral
    # body in body order; empty when no body is a polyhedron. Their shapes: hull_shapes (the
    # run's /hull_shapes), None without polyhedra.
    hulls: dict = dataclasses.field(default_factory=dict)
    hull_shapes: HullShapes | None = None

    @property
    def principal_axes(self) -> np.ndarray:
        """(N, 4) unit quaternions (w, x, y, z), principal frame to body frame (identity
        for files that predate them)."""
        if "principal_axes" in self.fields:
            return self.fields["principal_axes"]
        axes = np.zeros((len(self.id), 4))
        axes[:, 0] = 1.0
        return axes

    # The bodies' shapes: one row per sphere, grouped by body. Without a spheres table every
    # body that is not a polyhedron is a free sphere, its own one sphere at zero offset.

    @functools.cached_property
    def _free_spheres(self) -> np.ndarray:
        """Body rows that are free spheres when there is no spheres table."""
        return np.flatnonzero(~self.has_hull)

    @property
    def sphere_body(self) -> np.ndarray:
        """(M,) int64: row of each sphere's body."""
        return self.spheres["body"] if self.spheres else self._free_spheres

    @property
    def sphere_offset(self) -> np.ndarray:
        """(M, 3) m: each sphere's centre in its body's frame, from the body's centre of mass."""
        return self.spheres["offset"] if self.spheres else np.zeros((len(self._free_spheres),
                                                                     3))

    @property
    def sphere_radius(self) -> np.ndarray:
        """(M,) m."""
        return self.spheres["radius"] if self.spheres else self.radius[self._free_spheres]

    @property
    def sphere_mass(self) -> np.ndarray:
        """(M,) kg; a body's spheres' masses sum to its mass."""
        return self.spheres["mass"] if self.spheres else self.mass[self._free_spheres]

    @functools.cached_property
    def sphere_position(self) -> np.ndarray:
        """(M, 3) m: each sphere's centre in the inertial frame, x_body + R(q_body) offset."""
        return sphere_centres(self.position, self.orientation, self.sphere_body,
                              self.sphere_offset)

    @functools.cached_property
    def sphere_count(self) -> np.ndarray:
        """(N,) int64: spheres per body (1 for a free sphere, K >= 2 for an aggregate)."""
        return np.bincount(self.sphere_body, minlength=len(self.id))

    @functools.cached_property
    def sphere_start(self) -> np.ndarray:
        """(N,) int64: row of each body's first sphere (the table is grouped by body)."""
        return np.cumsum(self.sphere_count) - self.sphere_count

    def spheres_of(self, bodies: np.ndarray) -> np.ndarray:
        """Rows of the spheres of the given body rows, body by body in the order given: O(the
        bodies' spheres), not O(all spheres), so measuring every aggregate stays linear."""
        bodies = np.asarray(bodies, dtype=np.int64)
        count = self.sphere_count[bodies]
        # Each body's rows start .. start + count - 1: its start repeated, plus 0 .. count - 1.
        within = np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count)
        return np.repeat(self.sphere_start[bodies], count) + within

    # Polyhedral bodies: one hull each (docs/polyhedra.md), a convex polyhedron of the run's
    # shape catalogue, its vertices x_body + R(q_body) v in the inertial frame.

    @property
    def hull_body(self) -> np.ndarray:
        """(P,) int64: body row of each hull (increasing)."""
        return self.hulls["body"] if self.hulls else np.zeros(0, dtype=np.int64)

    @property
    def hull_shape(self) -> np.ndarray:
        """(P,) int64: each hull's shape, an index into hull_shapes."""
        return self.hulls["shape"] if self.hulls else np.zeros(0, dtype=np.int64)

    @functools.cached_property
    def has_hull(self) -> np.ndarray:
        """(N,) bool: the body is a polyhedron."""
        mask = np.zeros(len(self.id), dtype=bool)
        mask[self.hull_body] = True
        return mask

    @functools.cached_property
    def hull_of(self) -> np.ndarray:
        """(N,) int64: each body's hull row, -1 for a body of spheres."""
        row = np.full(len(self.id), -1, dtype=np.int64)
        row[self.hull_body] = np.arange(len(self.hull_body))
        return row

    @property
    def hull_volume(self) -> np.ndarray:
        """(P,) m^3: each hull's volume (its shape's)."""
        if not len(self.hull_body):
            return np.zeros(0)
        return self.hull_shapes.volume[self.hull_shape]

    @functools.cached_property
    def _hull_world(self) -> tuple[np.ndarray, np.ndarray]:
        if not len(self.hull_body):
            return np.zeros((0, 3)), np.zeros(1, dtype=np.int64)
        body = self.hull_body
        return world_vertices(self.hull_shapes, self.hull_shape, self.position[body],
                              self.orientation[body])

    @property
    def hull_vertex_position(self) -> np.ndarray:
        """(V, 3) m: every hull's vertices in the inertial frame, hull by hull; hull p's are
        rows hull_vertex_start[p] to hull_vertex_start[p + 1] - 1."""
        return self._hull_world[0]

    @property
    def hull_vertex_start(self) -> np.ndarray:
        """(P + 1,) int64: first row of each hull's vertices in hull_vertex_position, then the
        total."""
        return self._hull_world[1]

    def hull_vertices(self, hull: int) -> np.ndarray:
        """(n, 3) m: the inertial vertices of hull row `hull`."""
        start = self.hull_vertex_start
        return self.hull_vertex_position[start[hull]:start[hull + 1]]

    def hull_triangles(self, hull: int) -> np.ndarray:
        """(t, 3): the triangles of hull row `hull`, indices into hull_vertices(hull)."""
        return self.hull_shapes.triangles_of(int(self.hull_shape[hull]))


@dataclasses.dataclass(frozen=True)
class CollisionLog:
    """The /collisions log (docs/output-format.md): one row per resolved collision, in time
    order; empty when the run was made without output.collision_log."""
    step: np.ndarray              # (n,) int64
    id: np.ndarray                # (n, 2) int64, smaller id first
    time: np.ndarray              # (n,) s, time of contact
    normal_speed: np.ndarray      # (n,) m/s, approach speed along the line of centres
    tangential_speed: np.ndarray  # (n,) m/s, sliding speed of the contact points
    impact_parameter: np.ndarray  # (n,) m

    def __len__(self) -> int:
        return len(self.time)


def _one_line(value) -> str:
    """repr or message squeezed onto one line and cut short: error messages are one line."""
    text = " ".join(str(value).split())
    return text if len(text) <= 120 else text[:117] + "..."


def _plausible(values: np.ndarray) -> np.ndarray:
    """False for NaN, infinities and magnitudes beyond LIMIT (elementwise)."""
    return np.abs(values) <= LIMIT


JOURNAL_MAGIC = b"RBLJRNL1"


class _BeforeTheWrite(io.RawIOBase):
    """The run file as it was before the write its undo journal records, read through the
    journal without changing either file (docs/output-format.md, "Crash safety and resume";
    src/storage/undo_journal.cpp): the magic, the file's length before the write, then records
    of (offset, length, the bytes that were there), little-endian 64-bit integers. A record
    cut short was being appended when the process died, so the bytes it saves were never
    overwritten: it is ignored, as rubble's roll-back ignores it."""

    def __init__(self, path: Path, journal: bytes):
        super().__init__()
        self._file = open(path, "rb")  # noqa: SIM115 (closed with this object)
        self._size = os.fstat(self._file.fileno()).st_size
        self._patches: list[tuple[int, bytes]] = []
        if len(journal) >= 16:
            self._size = int.from_bytes(journal[8:16], "little")
            at = 16
            while at + 16 <= len(journal):
                offset = int.from_bytes(journal[at:at + 8], "little")
                length = int.from_bytes(journal[at + 8:at + 16], "little")
                if length > self._size or at + 16 + length > len(journal):
                    break
                self._patches.append((offset, journal[at + 16:at + 16 + length]))
                at += 16 + length
        self._at = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._at

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._at, io.SEEK_END: self._size}[whence]
        self._at = base + offset
        return self._at

    def readinto(self, buffer) -> int:
        view = memoryview(buffer).cast("B")
        n = max(0, min(len(view), self._size - self._at))
        self._file.seek(self._at)
        got = self._file.readinto(view[:n]) or 0
        view[got:n] = bytes(n - got)  # (past the end of a file shorter than before: none)
        for offset, old in self._patches:  # in the journal's order, as the roll-back applies them
            lo, hi = max(offset, self._at), min(offset + len(old), self._at + n)
            if lo < hi:
                view[lo - self._at:hi - self._at] = old[lo - offset:hi - offset]
        self._at += n
        return n

    def close(self) -> None:
        self._file.close()
        super().close()


def _open_hdf5(path: Path) -> h5py.File:
    if path.is_dir():
        raise RunFormatError(f"{path}: a directory, not a run file")
    if not path.is_file():
        raise RunFormatError(f"{path}: no such file")
    # rubble's undo journal (docs/output-format.md): while it exists the file may hold a write
    # half done. rubble rolls it back when it next opens the file; the analysis only reads, so
    # it reads the file as it was before that write, through the journal, and says so.
    journal_path = path.with_name(path.name + ".journal")
    journal = journal_path.read_bytes() if journal_path.exists() else None
    if journal is not None and len(journal) >= 8 and journal[:8] != JOURNAL_MAGIC:
        raise RunFormatError(f"{path}: {journal_path.name} is not a rubble undo journal; "
                             f"'rubble run --resume {path}' says what to do")
    try:
        if journal is None:
            return h5py.File(path, "r")
        file = h5py.File(_BeforeTheWrite(path, journal), "r")
        warnings.warn(f"{path}: its last write was interrupted ({journal_path.name}); reading "
                      "it as it was before that write, without changing it ('rubble run "
                      f"--resume {path}' undoes the write on disk)", stacklevel=3)
        return file
    except H5PY_ERRORS as exc:
        raise RunFormatError(f"{path}: not a readable HDF5 file ({_one_line(exc)})") from exc


class Run:
    """An opened rubble output. Use as a context manager or call close()."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._file = _open_hdf5(self.path)
        try:
            self._size = self.path.stat().st_size
            self._check_root()
            self._parameters = self._read_parameters()
            self._has_hulls = False
            self._hull_shapes = None
            self._snapshots = self._snapshot_index()
            if self._has_hulls:
                self._check_hull_shape_layout()
            self._check_layout(self._group(self._file, "diagnostics"), DIAGNOSTIC_FIELDS, 1)
            self._check_layout(self._group(self._file, "collisions"), COLLISION_FIELDS, 0)
        except BaseException:
            self.close()
            raise
        if not self.complete:
            warnings.warn(f"{self.path}: the run did not finish; reading up to its last "
                          "snapshot", stacklevel=2)

    def __enter__(self) -> "Run":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if getattr(self, "_file", None) is not None:
            self._file.close()
            self._file = None

    @property
    def parameters(self) -> dict:
        """The resolved parameters as nested dicts (sections), from the stored TOML."""
        return self._parameters

    @property
    def snapshot_count(self) -> int:
        return len(self._snapshots)

    def snapshot(self, index: int = -1) -> Snapshot:
        try:
            position = range(len(self._snapshots))[index]
        except IndexError:
            raise RunFormatError(f"{self.path}: snapshot {index} does not exist "
                                 f"(the file has {len(self._snapshots)})") from None
        name, step, time = self._snapshots[position]
        group = self._group(self._group(self._file, "snapshots"), name)
        data = self._values(group, SNAPSHOT_FIELDS)
        self._check_bodies(group.name, data)
        fields = dict(data)
        fields.update(self._row_datasets(group, len(data["id"]), exclude=SNAPSHOT_FIELDS))
        spheres = {}
        if "spheres" in group:
            sub = self._group(group, "spheres")
            with self._reading(sub.name):
                names = list(sub.keys())
            rows = self._dataset(sub, names[0]).shape[0] if names else 0
            spheres = self._row_datasets(sub, rows, exclude={})
        hulls, shapes = {}, None
        if "hulls" in group:
            sub = self._group(group, "hulls")
            with self._reading(sub.name):
                rows = self._dataset(sub, "body").shape[0]
            hulls = self._row_datasets(sub, rows, exclude={})
            shapes = self.hull_shapes()
            self._check_hulls(sub.name, hulls, len(data["id"]), len(shapes))
        if spheres or hulls:
            self._check_spheres(f"{group.name}/spheres", spheres, len(data["id"]),
                                hulls.get("body"))
        return Snapshot(index=position, step=step, time=time, fields=fields, spheres=spheres,
                        hulls=hulls, hull_shapes=shapes, **data)

    def hull_shapes(self) -> HullShapes:
        """The run's shape catalogue (/hull_shapes), read and checked once."""
        if self._hull_shapes is None:
            group = self._group(self._file, "hull_shapes")
            data = self._values(group, HULL_SHAPE_FIELDS)
            self._check_hull_shapes(group.name, data)
            self._hull_shapes = HullShapes(**data)
        return self._hull_shapes

    def _row_datasets(self, group: h5py.Group, rows: int, exclude) -> dict[str, np.ndarray]:
        """Every numeric dataset of group with `rows` rows, except those named in exclude, as
        int64 or float64: the fields this reader does not know by name, as the file has them."""
        out = {}
        with self._reading(group.name):
            names = sorted(k for k in group.keys() if k not in exclude)
        for name in names:
            item = group.get(name)
            if not isinstance(item, h5py.Dataset):
                continue
            with self._reading(item.name):
                shape, dtype = item.shape, item.dtype
            if shape is None or len(shape) < 1 or shape[0] != rows or dtype.kind not in "iuf":
                self._fail(f"{item.name} has shape {shape} and type {dtype}, not {rows} rows "
                           "of numbers")
            if math.prod(shape) * dtype.itemsize > self._size:
                self._fail(f"{item.name} has shape {shape}, more than the file holds")
            with self._reading(item.name):
                values = item[()]
            out[name] = values.astype(np.int64 if dtype.kind in "iu" else np.float64,
                                      copy=False)
        return out

    def diagnostics(self) -> dict[str, np.ndarray]:
        """The diagnostics series of docs/output-format.md (time, step, energies, momenta,
        ...) as arrays."""
        group = self._group(self._file, "diagnostics")
        data = self._values(group, DIAGNOSTIC_FIELDS)
        for name, (kind, _) in DIAGNOSTIC_FIELDS.items():
            if kind == "f":
                self._require(_plausible(data[name]), f"{group.name}/{name}", IMPLAUSIBLE)
        for name in DIAGNOSTIC_COUNTS:
            self._require(data[name] >= 0, f"{group.name}/{name}", "negative count")
        return data

    def collisions(self) -> CollisionLog:
        """The collision log (/collisions) as arrays, in time order."""
        group = self._group(self._file, "collisions")
        data = self._values(group, COLLISION_FIELDS)
        for name in ("time", "normal_speed", "tangential_speed", "impact_parameter"):
            self._require(_plausible(data[name]), f"{group.name}/{name}", IMPLAUSIBLE)
        for name in ("normal_speed", "tangential_speed", "impact_parameter"):
            self._require(data[name] >= 0, f"{group.name}/{name}", "negative")
        self._require(data["id"][:, 0] < data["id"][:, 1], f"{group.name}/id",
                      "ids not in increasing order")
        return CollisionLog(**data)

    # Layout checks, made on opening.

    def _check_root(self) -> None:
        with self._reading("the root attributes"):
            tag = self._file.attrs.get("format")
        if not (isinstance(tag, str) and tag == "rubble"):
            self._fail("not a rubble output (no format = 'rubble')")
        version = self._attribute(self._file, "format_version", "i")
        if version not in FORMAT_VERSIONS:
            self._fail(f"unknown format_version {version} (this reader reads "
                       f"{', '.join(map(str, FORMAT_VERSIONS))})")
        complete = self._attribute(self._file, "complete", "i")
        if complete not in (0, 1):
            self._fail(f"attribute 'complete' is {complete}, not 0 or 1")
        self.complete = bool(complete)
        self.code_version = self._attribute(self._file, "code_version", "str")
        # Why the run ended: "settled" (the system came to rest) or "end" (t_end reached);
        # None in files written before rubble recorded it.
        with self._reading("the root attributes"):
            has_reason = "stop_reason" in self._file.attrs
        self.stop_reason = (self._attribute(self._file, "stop_reason", "str") if has_reason
                            else None)
        self.start_time = self._attribute(self._file, "start_time", "f")

    def _read_parameters(self) -> dict:
        text = self._attribute(self._group(self._file, "parameters"), "toml", "str")
        try:
            params = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            self._fail(f"/parameters attribute 'toml' is not valid TOML ({_one_line(exc)})")
        for keys in REQUIRED_PARAMETERS:
            self._check_parameter(params, keys)
        return params

    def _check_parameter(self, params: dict, keys: tuple[str, ...]) -> None:
        name = ".".join(keys)
        value = params
        for key in keys:
            if not isinstance(value, dict) or key not in value:
                self._fail(f"/parameters has no {name}")
            value = value[key]
        if not (isinstance(value, (int, float)) and not isinstance(value, bool)
                and abs(value) <= LIMIT):
            self._fail(f"/parameters: {name} = {_one_line(repr(value))}, not a number of at "
                       f"most {LIMIT:g} in magnitude")

    def _snapshot_index(self) -> list[tuple[str, int, float]]:
        """(name, step, time) of every snapshot, in file order, which must be time order."""
        group = self._group(self._file, "snapshots")
        with self._reading("/snapshots"):
            names = sorted(group.keys())
        if not names:
            self._fail("/snapshots is empty")
        index = [self._snapshot_entry(group, name) for name in names]
        if index[0][1] < 0:
            self._fail(f"/snapshots/{index[0][0]}: negative step {index[0][1]}")
        for (_, step0, time0), (name, step, time) in zip(index, index[1:]):
            if step < step0 or time < time0:
                self._fail(f"/snapshots/{name}: step {step} at t = {time} s comes before "
                           f"the previous snapshot's step {step0} at t = {time0} s")
        return index

    def _snapshot_entry(self, snapshots: h5py.Group, name: str) -> tuple[str, int, float]:
        if not SNAPSHOT_NAME.fullmatch(name):
            self._fail(f"/snapshots/{_one_line(repr(name))} is not a six-digit snapshot name")
        group = self._group(snapshots, name)
        step = self._attribute(group, "step", "i")
        time = self._attribute(group, "time", "f")
        self._check_layout(group, SNAPSHOT_FIELDS, 1)
        with self._reading(f"{group.name}/spheres"):
            has_spheres = "spheres" in group
            has_hulls = "hulls" in group
        if has_hulls:
            # Polyhedra: the spheres table may be empty (every body a polyhedron).
            self._check_layout(self._group(group, "hulls"), HULL_FIELDS, 1)
            self._has_hulls = True
        if has_spheres:
            self._check_layout(self._group(group, "spheres"), SPHERE_FIELDS,
                               0 if has_hulls else 1)
        return name, step, time

    def _check_hull_shape_layout(self) -> None:
        """/hull_shapes, once some snapshot has polyhedra: its datasets of their kinds and
        shapes, the two start columns one longer than volume."""
        group = self._group(self._file, "hull_shapes")
        for name in ("vertices", "triangles"):
            self._check_layout(group, {name: HULL_SHAPE_FIELDS[name]}, 4)
        self._check_layout(group, {"volume": HULL_SHAPE_FIELDS["volume"]}, 1)
        self._check_layout(group, {"vertex_start": HULL_SHAPE_FIELDS["vertex_start"],
                                   "triangle_start": HULL_SHAPE_FIELDS["triangle_start"]}, 2)
        shapes = self._dataset(group, "volume").shape[0]
        starts = self._dataset(group, "vertex_start").shape[0]
        if starts != shapes + 1:
            self._fail(f"{group.name}/vertex_start has {starts} rows, not {shapes + 1} (one "
                       f"more than {group.name}/volume)")

    def _check_layout(self, group: h5py.Group, fields: dict, min_rows: int) -> None:
        """Every dataset of fields is in group, of its kind and shape, all with as many rows
        as the first one (at least min_rows)."""
        first, rows = None, None
        for name, (kind, tail) in fields.items():
            dataset = self._dataset(group, name)
            with self._reading(dataset.name):
                shape, dtype = dataset.shape, dataset.dtype
            if shape is None or len(shape) != 1 + len(tail) or shape[1:] != tail \
                    or dtype.kind != kind:
                expected = "(" + ", ".join(["n", *map(str, tail)]) + ")"
                self._fail(f"{dataset.name} has shape {shape} and type {dtype}, not "
                           f"{expected} {KIND_NAMES[kind]}")
            # rubble does not compress, so data that would not fit in the file mean a garbled
            # shape, which reading would turn into a request for that much memory. Python
            # ints: such a shape can overflow numpy's int64.
            size = math.prod(shape) * dtype.itemsize
            if size > self._size:
                self._fail(f"{dataset.name} has shape {shape}, {size} bytes, more than the "
                           f"file's {self._size}")
            if first is None:
                first, rows = dataset.name, shape[0]
                if rows < min_rows:
                    self._fail(f"{first} has {rows} rows (at least {min_rows} expected)")
            elif shape[0] != rows:
                self._fail(f"{dataset.name} has {shape[0]} rows but {first} has {rows}")

    # Value checks, made when the data are read.

    def _check_bodies(self, where: str, data: dict[str, np.ndarray]) -> None:
        for name in ("mass", "radius", "position", "velocity", "spin", "orientation",
                     "inertia"):
            self._require(_plausible(data[name]), f"{where}/{name}", IMPLAUSIBLE)
        for name in ("mass", "radius", "inertia"):
            self._require(data[name] >= 1 / LIMIT, f"{where}/{name}",
                          f"zero, negative or below {1 / LIMIT:g}")
        norm = np.linalg.norm(data["orientation"], axis=1)
        self._require(np.abs(norm - 1.0) <= 1e-6, f"{where}/orientation",
                      "not a unit quaternion")
        ids = np.sort(data["id"])
        repeated = ids[1:][ids[1:] == ids[:-1]]
        if repeated.size:
            self._fail(f"{where}/id: id {repeated[0]} appears more than once")

    def _check_spheres(self, where: str, spheres: dict[str, np.ndarray], n: int,
                       hull_body: np.ndarray | None = None) -> None:
        """What the analysis relies on (docs/output-format.md): each sphere linked to a body
        row, grouped by body, every body with spheres or a hull (not both), sizes and masses
        positive. Without a spheres table (hull_body given) the bodies that are not
        polyhedra are free spheres."""
        if not spheres:
            return
        body = spheres["body"]
        self._require((body >= 0) & (body < n), f"{where}/body",
                      f"not a body row (0 to {n - 1})")
        grouped = np.concatenate([[True], np.diff(body) >= 0])
        self._require(grouped, f"{where}/body", "spheres not grouped by body")
        count = np.bincount(body, minlength=n)
        hull = np.zeros(n, dtype=bool)
        if hull_body is not None:
            hull[hull_body] = True
        both = np.flatnonzero((count > 0) & hull)
        if both.size:
            self._fail(f"{where}/body: body row {both[0]} has spheres and a hull")
        missing = np.flatnonzero((count == 0) & ~hull)
        if missing.size:
            self._fail(f"{where}/body: body row {missing[0]} has no sphere"
                       + (" and no hull" if hull_body is not None else ""))
        for name in ("offset", "radius", "mass"):
            self._require(_plausible(spheres[name]), f"{where}/{name}", IMPLAUSIBLE)
        for name in ("radius", "mass"):
            self._require(spheres[name] >= 1 / LIMIT, f"{where}/{name}",
                          f"zero, negative or below {1 / LIMIT:g}")

    def _check_hulls(self, where: str, hulls: dict[str, np.ndarray], n: int,
                     shapes: int) -> None:
        """Each hull linked to a body row, in body order, at most one per body, naming a shape
        of /hull_shapes, its mass positive."""
        for name in HULL_FIELDS:
            if name not in hulls:
                self._fail(f"no {where}/{name}")
        body = hulls["body"]
        self._require((body >= 0) & (body < n), f"{where}/body",
                      f"not a body row (0 to {n - 1})")
        self._require(np.concatenate([[True], np.diff(body) > 0]), f"{where}/body",
                      "hulls not in body order, one per body")
        self._require((hulls["shape"] >= 0) & (hulls["shape"] < shapes), f"{where}/shape",
                      f"not a shape of /hull_shapes (0 to {shapes - 1})")
        self._require(_plausible(hulls["mass"]), f"{where}/mass", IMPLAUSIBLE)
        self._require(hulls["mass"] >= 1 / LIMIT, f"{where}/mass",
                      f"zero, negative or below {1 / LIMIT:g}")

    def _check_hull_shapes(self, where: str, data: dict[str, np.ndarray]) -> None:
        """Start columns from 0 to the row counts, at least 4 vertices and 4 triangles a
        shape, triangle corners within their shape, coordinates plausible, volumes positive."""
        for start, rows in (("vertex_start", "vertices"), ("triangle_start", "triangles")):
            first = data[start]
            total = len(data[rows])
            if first[0] != 0 or first[-1] != total:
                self._fail(f"{where}/{start} runs from {first[0]} to {first[-1]}, not 0 to "
                           f"{total} (the rows of {where}/{rows})")
            self._require(np.diff(first) >= 4, f"{where}/{start}",
                          "a shape of fewer than 4 rows (or decreasing starts)")
        self._require(_plausible(data["vertices"]), f"{where}/vertices", IMPLAUSIBLE)
        self._require(_plausible(data["volume"]), f"{where}/volume", IMPLAUSIBLE)
        self._require(data["volume"] >= 1 / LIMIT, f"{where}/volume",
                      f"zero, negative or below {1 / LIMIT:g}")
        count = np.diff(data["triangle_start"])
        limit = np.repeat(np.diff(data["vertex_start"]), count)
        self._require((data["triangles"] >= 0) & (data["triangles"] < limit[:, None]),
                      f"{where}/triangles", "a vertex index outside its shape")

    def _require(self, ok: np.ndarray, where: str, fault: str) -> None:
        """Fails naming the first row where ok is false (any element of it, for rows of
        vectors)."""
        bad = np.flatnonzero(~ok.all(axis=tuple(range(1, ok.ndim))))
        if bad.size:
            more = f" and {bad.size - 1} more" if bad.size > 1 else ""
            self._fail(f"{where}: {fault} in row {bad[0]}{more}")

    # Access to the file: every call into h5py goes through these.

    @contextlib.contextmanager
    def _reading(self, where: str):
        try:
            yield
        except H5PY_ERRORS as exc:
            raise RunFormatError(f"{self.path}: {where} is unreadable ({_one_line(exc)})") \
                from exc

    def _member(self, parent: h5py.Group, name: str, cls: type, what: str):
        where = f"{parent.name.rstrip('/')}/{name}"
        with self._reading(where):
            member = parent.get(name)
        if member is None:
            self._fail(f"no {where}")
        if not isinstance(member, cls):
            self._fail(f"{where} is not {what}")
        return member

    def _group(self, parent: h5py.Group, name: str) -> h5py.Group:
        return self._member(parent, name, h5py.Group, "a group")

    def _dataset(self, parent: h5py.Group, name: str) -> h5py.Dataset:
        return self._member(parent, name, h5py.Dataset, "a dataset")

    def _attribute(self, owner, name: str, kind: str):
        """The scalar attribute name of owner (a group or the file), of kind "i", "f" (finite)
        or "str"."""
        where = f"attribute {name!r}"
        if owner.name != "/":
            where = f"{owner.name} {where}"
        with self._reading(where):
            value = owner.attrs.get(name)
        if value is None:
            self._fail(f"no {where}")
        integer = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
        if kind == "str" and isinstance(value, str):
            return value
        if kind == "i" and integer:
            return int(value)
        if kind == "f" and (integer or isinstance(value, (float, np.floating))) \
                and math.isfinite(value):
            return float(value)
        self._fail(f"{where} is {_one_line(repr(value))}, not {KIND_NAMES[kind]}"
                   + (" and finite" if kind == "f" else ""))

    def _values(self, group: h5py.Group, fields: dict) -> dict[str, np.ndarray]:
        """The datasets of fields (their layout checked on opening) as int64 or float64."""
        data = {}
        for name, (kind, _) in fields.items():
            with self._reading(f"{group.name}/{name}"):
                values = group[name][()]
            data[name] = values.astype(KIND_TYPES[kind], copy=False)
        return data

    def _fail(self, fault: str) -> NoReturn:
        raise RunFormatError(f"{self.path}: {fault}")


def open_run(path: str | Path) -> Run:
    return Run(path)


def snapshot_from_state(state: dict, step: int, time: float, index: int = -1) -> Snapshot:
    """The Snapshot of a live simulation's state (rubble.Simulation.state: the snapshot's
    datasets by name, docs/python.md), as Run.snapshot reads one from its file: every function
    of this package that takes a Snapshot takes it."""
    per_body = {k: v for k, v in state.items() if k not in ("spheres", "hulls", "hull_shapes")}
    data = {name: per_body[name] for name in SNAPSHOT_FIELDS}
    spheres = dict(state["spheres"]) if len(state["spheres"]["body"]) else {}
    hulls = dict(state["hulls"]) if len(state["hulls"]["body"]) else {}
    shapes = HullShapes(**state["hull_shapes"]) if hulls else None
    return Snapshot(index=index, step=int(step), time=float(time), fields=per_body,
                    spheres=spheres, hulls=hulls, hull_shapes=shapes, **data)


def snapshot_of(source, index: int = -1) -> Snapshot:
    """A snapshot of a run file (its snapshot `index`) or the state now of a live
    rubble.Simulation, for the functions of this package that take a Snapshot."""
    if hasattr(source, "snapshot") and hasattr(source, "set_state"):
        return source.snapshot()
    with Run(source) as run:
        return run.snapshot(index)


def check_before_reading(path: str | Path, timeout: int) -> None:
    """Checks what the HDF5 library itself does not, before a Run reads path, because some
    damage makes libhdf5 1.10 corrupt memory, crash or loop forever, which no exception can
    report: the global heaps, then opening path in a child process. Raises RunFormatError.
    What Run reports itself (no file, not HDF5, ...) is left to the caller's own Run(path)."""
    path = Path(path)
    if path.is_file():
        _check_global_heaps(path)
        _open_in_child(path, timeout)


# A global heap collection (HDF5 file format spec, III.E), where the library keeps the string
# attributes: "GCOL", version 1, three zero bytes, the collection's size, then objects of a
# 16-byte header (index, reference count, reserved, size) and their data padded to 8 bytes.
# Lengths are 8 bytes, the default that h5py and rubble's writer use.
HEAP_SIGNATURE = b"GCOL\x01\x00\x00\x00"
HEAP_HEADER = 16


def _check_global_heaps(path: Path) -> None:
    """libhdf5 1.10.8 trusts the object sizes in a collection: a garbled one makes it copy that
    many bytes into a buffer sized for the string, which corrupts memory (a crash, a hang or,
    worse, nothing visible). The sizes must add up to the collection's size."""
    with path.open("rb") as f:
        if path.stat().st_size < HEAP_HEADER:
            return
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
            at = data.find(HEAP_SIGNATURE)
            while at >= 0:
                size = int.from_bytes(data[at + 8:at + 16], "little")
                if not _heap_objects_fit(data, at, size):
                    raise RunFormatError(f"{path}: the global heap collection at byte {at} is "
                                         "garbled (its object sizes do not add up)")
                at = data.find(HEAP_SIGNATURE, at + size)


def _heap_objects_fit(data: mmap.mmap, start: int, size: int) -> bool:
    """Walks the objects of the collection at start as the library does (object 0 is the
    free space, its size including its header; a tail shorter than a header is free space)."""
    end = start + size
    if size < HEAP_HEADER or end > len(data):
        return False
    at = start + HEAP_HEADER
    while end - at >= HEAP_HEADER:
        index = int.from_bytes(data[at:at + 2], "little")
        length = int.from_bytes(data[at + 8:at + 16], "little")
        step = length if index == 0 else HEAP_HEADER + -(-length // 8) * 8
        if step < HEAP_HEADER:
            return False
        at += step
    return at <= end


def _open_in_child(path: Path, timeout: int) -> None:
    """Opens path in a child process: RunFormatError when the child dies or runs past timeout
    seconds."""
    pid = os.fork()
    if pid == 0:
        try:
            # Silent, faulthandler included (pytest points it at a copy of stderr): what goes
            # wrong is for the parent to say, in one line.
            faulthandler.disable()
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            # The default action of SIGALRM ends the child, wherever it is stuck; a handler
            # inherited from the parent would wait for the interpreter to get control back.
            signal.signal(signal.SIGALRM, signal.SIG_DFL)
            signal.alarm(timeout)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                Run(path).close()
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        fault = (f"ran past {timeout} s" if os.WTERMSIG(status) == signal.SIGALRM
                 else f"crashed ({signal.Signals(os.WTERMSIG(status)).name})")
        raise RunFormatError(f"{path}: the HDF5 library {fault} reading it (a damaged file)")
