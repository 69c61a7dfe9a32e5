"""Reader for rubble's HDF5 output, written against docs/output-format.md only.

All quantities are returned in SI units, as stored.
"""

from __future__ import annotations

import dataclasses
import tomllib
import warnings
from pathlib import Path

import h5py
import numpy as np

FORMAT_VERSION = 2
SNAPSHOT_FIELDS = ("id", "mass", "radius", "position", "velocity", "spin", "orientation",
                   "inertia", "aggregate")


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
    orientation: np.ndarray  # (N, 4) unit quaternion (w, x, y, z)
    inertia: np.ndarray  # (N, 3) kg m^2, principal moments
    aggregate: np.ndarray  # (N,) int64, -1 for free bodies


COLLISION_FIELDS = ("step", "id", "time", "normal_speed", "tangential_speed", "impact_parameter")


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


class Run:
    """An opened rubble output. Use as a context manager or call close()."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if not self.path.is_file():
            raise RunFormatError(f"{self.path}: no such file")
        try:
            self._file = h5py.File(self.path, "r")
        except OSError as exc:
            raise RunFormatError(f"{self.path}: not a readable HDF5 file ({exc})") from exc
        attrs = self._file.attrs
        if attrs.get("format") != "rubble":
            self.close()
            raise RunFormatError(f"{self.path}: not a rubble output (no format = 'rubble')")
        if int(attrs.get("format_version", -1)) != FORMAT_VERSION:
            self.close()
            raise RunFormatError(f"{self.path}: output format version "
                                 f"{attrs.get('format_version')}, expected {FORMAT_VERSION}")
        for group in ("parameters", "snapshots", "diagnostics"):
            if group not in self._file:
                self.close()
                raise RunFormatError(f"{self.path}: incomplete file, no /{group}")
        self.complete = bool(int(attrs["complete"]))
        if not self.complete:
            warnings.warn(f"{self.path}: the run did not finish; reading up to its last "
                          "snapshot", stacklevel=2)
        self.code_version = str(attrs["code_version"])
        self.start_time = float(attrs["start_time"])

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
        return tomllib.loads(self._file["parameters"].attrs["toml"])

    @property
    def snapshot_count(self) -> int:
        return len(self._file["snapshots"])

    def snapshot(self, index: int = -1) -> Snapshot:
        names = sorted(self._file["snapshots"].keys())
        if not names:
            raise RunFormatError(f"{self.path}: no snapshots")
        try:
            name = names[index]
        except IndexError:
            raise RunFormatError(f"{self.path}: snapshot {index} does not exist "
                                 f"(the file has {len(names)})") from None
        group = self._file["snapshots"][name]
        missing = [f for f in SNAPSHOT_FIELDS if f not in group]
        if missing:
            raise RunFormatError(f"{self.path}:/snapshots/{name}: missing {', '.join(missing)}")
        data = {f: group[f][()] for f in SNAPSHOT_FIELDS}
        return Snapshot(index=names.index(name), step=int(group.attrs["step"]),
                        time=float(group.attrs["time"]), **data)

    def diagnostics(self) -> dict[str, np.ndarray]:
        """Every diagnostics series (time, step, energies, momenta, ...) as arrays."""
        return {k: v[()] for k, v in self._file["diagnostics"].items()}

    def collisions(self) -> CollisionLog:
        """The collision log (/collisions) as arrays, in time order."""
        if "collisions" not in self._file:
            raise RunFormatError(f"{self.path}: no /collisions group")
        group = self._file["collisions"]
        missing = [f for f in COLLISION_FIELDS if f not in group]
        if missing:
            raise RunFormatError(f"{self.path}:/collisions: missing {', '.join(missing)}")
        data = {f: group[f][()] for f in COLLISION_FIELDS}
        data["id"] = data["id"].reshape(-1, 2)
        return CollisionLog(**data)


def open_run(path: str | Path) -> Run:
    return Run(path)
