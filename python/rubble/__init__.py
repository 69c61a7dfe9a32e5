# SPDX-License-Identifier: MIT
"""rubble from Python: set up, run, look at and change a simulation, and write the same HDF5
run file as `rubble run` (docs/python.md).

    import rubble
    sim = rubble.Simulation.from_file("params/default.toml",
                                      overrides={"integrator.t_end": 2000.0})
    sim.run(t=1000.0)            # to a time; or sim.step(10), or sim.run() to the end
    s = sim.state                # numpy copies, named as the snapshot's datasets
    sim.set_state(velocity=0.5 * s["velocity"])
    sim.run()                    # to integrator.t_end: the file is complete
    print(sim.result)

Built with rubble (RUBBLE_PYTHON, cmake/RubblePython.cmake) as build/release/python/rubble;
run with PYTHONPATH=build/release/python:analysis /usr/bin/python3. The state a Simulation holds
is rubble's own: every step is the one `rubble run` takes, bit for bit, whether run at once or
in pieces.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from . import _core
from ._core import InputError, OutputError, PhysicsError

__all__ = ["Simulation", "InputError", "OutputError", "PhysicsError", "write_body_table",
           "toml_text", "version"]

version = _core.version

# The body table's vector columns (docs/parameters.md, "Bodies from a table") by the names
# the snapshots give them.
_VECTOR_COLUMNS = {
    "position": ("x", "y", "z"),
    "velocity": ("vx", "vy", "vz"),
    "spin": ("wx", "wy", "wz"),
    "orientation": ("qw", "qx", "qy", "qz"),
}


def _scalar_text(value: Any) -> str | None:
    """A bool or a number as both TOML and the command line read it (for a float the shortest
    text that reads back as the same double: repr, which also writes inf, -inf and nan as TOML
    does); None for anything else."""
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    return None


def _toml_value(value: Any, where: str) -> str:
    if (text := _scalar_text(value)) is not None:
        return text
    if isinstance(value, (str, os.PathLike)):
        text = os.fspath(value)
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple, np.ndarray)):
        return "[" + ", ".join(_toml_value(v, where) for v in value) + "]"
    raise InputError(f"python: {where} = {value!r}: not a number, string, bool or list")


def toml_text(params: Mapping[str, Any]) -> str:
    """TOML text of a parameter dict: tables as nested dicts ({"integrator": {"dt": 10.0}}) or
    dotted keys ({"integrator.dt": 10.0}), [[walls]] as a list of dicts."""
    tables: dict[str, dict[str, Any]] = {}
    walls: list[Mapping[str, Any]] = []

    def put(prefix: str, d: Mapping[str, Any]) -> None:
        for key, value in d.items():
            full = f"{prefix}.{key}" if prefix else str(key)
            if full == "walls":
                if not isinstance(value, (list, tuple)):
                    raise InputError("python: walls must be a list of dicts (one per wall)")
                walls.extend(value)
            elif isinstance(value, Mapping):
                put(full, value)
            else:
                table, _, name = full.rpartition(".")
                tables.setdefault(table, {})[name] = value

    put("", params)
    lines = []
    for table, entries in tables.items():
        if table:
            lines.append(f"[{table}]")
        for name, value in entries.items():
            lines.append(f"{name} = {_toml_value(value, f'{table}.{name}' if table else name)}")
    for k, wall in enumerate(walls):
        lines.append("[[walls]]")
        for name, value in wall.items():
            lines.append(f"{name} = {_toml_value(value, f'walls[{k}].{name}')}")
    return "\n".join(lines) + "\n"


def _override_text(key: str, value: Any) -> str:
    """An override's value as the command line gives it (ParameterSet::set_from_text)."""
    if (text := _scalar_text(value)) is not None:
        return text
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(value)
    if isinstance(value, (list, tuple, np.ndarray)) and len(value) == 3:
        return ",".join(repr(float(v)) for v in value)
    raise InputError(f"python ({key}): {value!r}: not a number, string, bool or 3-vector")


def write_body_table(path: str | os.PathLike, columns: Mapping[str, Any]) -> Path:
    """Writes bodies given as arrays (one row per body) as a body table (docs/parameters.md,
    "Bodies from a table"), the numbers as the shortest text that reads back as the same double.
    Columns take the table's names (id, x, vx, radius, parts, shape, ...) or the snapshot's
    vectors: position, velocity, spin as (N, 3), orientation as (N, 4) (w, x, y, z)."""
    names: list[str] = []
    cells: list[list[str]] = []
    n = None
    for key, value in columns.items():
        if key in _VECTOR_COLUMNS:
            a = np.asarray(value, dtype=float)
            width = len(_VECTOR_COLUMNS[key])
            if a.ndim != 2 or a.shape[1] != width:
                raise InputError(f"python: bodies {key} must have shape (N, {width})")
            for j, name in enumerate(_VECTOR_COLUMNS[key]):
                names.append(name)
                cells.append([repr(float(x)) for x in a[:, j]])
        else:
            a = np.asarray(value)
            if a.ndim != 1:
                raise InputError(f"python: bodies {key} must be one value per body")
            names.append(key)
            if a.dtype.kind in "iu":
                cells.append([str(int(x)) for x in a])
            elif a.dtype.kind == "f":
                cells.append([repr(float(x)) for x in a])
            else:
                cells.append([str(x) for x in a])
        if n is not None and len(cells[-1]) != n:
            raise InputError(f"python: bodies {key} has {len(cells[-1])} rows, not {n}")
        n = len(cells[-1])
    if not n:
        raise InputError("python: bodies has no rows")
    for name, column in zip(names, cells):
        for text in column:
            if "," in text or "\n" in text:
                raise InputError(f"python: bodies {name} = {text!r}: a cell cannot hold a comma")
    path = Path(path)
    with open(path, "w", encoding="utf-8") as f:
        f.write("# bodies written by rubble.Simulation (docs/python.md)\n")
        f.write(",".join(names) + "\n")
        for row in zip(*cells):
            f.write(",".join(row) + "\n")
    return path


class Simulation:
    """One rubble run held open: made from a parameter file (from_file), from a dict of
    parameters (Simulation(params, bodies=...)), or from the file of a run to continue
    (resume). Steps run in rubble's engine with Python's interpreter free; a Ctrl-C (SIGINT or
    SIGTERM) stops after the step in progress as `rubble run` does, leaves a resumable file and
    raises KeyboardInterrupt. The report lines go to `say` (print; None: silence)."""

    def __init__(self, params: Mapping[str, Any], bodies: Mapping[str, Any] | None = None, *,
                 bodies_file: str | os.PathLike | None = None, say=print,
                 _session: _core.Session | None = None):
        if _session is not None:
            self._session = _session
        else:
            params = dict(params)
            if bodies is not None:
                table = Path(bodies_file) if bodies_file is not None else \
                    _default_bodies_file(params)
                if table.exists() and not _setting(params, "output", "overwrite"):
                    # (the table of an earlier run, whose stored parameters name it)
                    raise InputError(f"python: bodies: {table} exists; set output.overwrite = "
                                     "true to replace it with the run's output, or give "
                                     "bodies_file=")
                write_body_table(table, bodies)
                params = _merged(params, {"ic": {"type": "table",
                                                 "table": {"path": str(table.resolve())}}})
            self._session = _core.Session("", "", toml_text(params), "python", [], say)
        self.result: dict | None = None

    @classmethod
    def from_file(cls, path: str | os.PathLike, overrides: Mapping[str, Any] | None = None, *,
                  say=print) -> "Simulation":
        """A new run from a parameter file, with `overrides` ({"integrator.t_end": 100.0})
        set over it as `rubble run --KEY VALUE` sets them."""
        pairs = [(k, _override_text(k, v)) for k, v in (overrides or {}).items()]
        return cls({}, _session=_core.Session(os.fspath(path), "", None, "", pairs, say))

    @classmethod
    def resume(cls, path: str | os.PathLike, overrides: Mapping[str, Any] | None = None, *,
               say=print) -> "Simulation":
        """Continues the run file `path` from its last snapshot (as rubble run --resume); only
        integrator.t_end and integrator.n_steps may be overridden."""
        pairs = [(k, _override_text(k, v)) for k, v in (overrides or {}).items()]
        return cls({}, _session=_core.Session("", os.fspath(path), None, "", pairs, say))

    # --- running -------------------------------------------------------------------------
    def _steps(self, go) -> bool:
        running, interrupted = go()
        if interrupted:
            self.close()
            raise KeyboardInterrupt(f"rubble: stopped at step {self.step_count}; "
                                    f"{self.output} is resumable (rubble.Simulation.resume)")
        if not running:
            self.close()
        return running

    def run(self, t: float | None = None) -> bool:
        """Runs to time t (s; the first step at or after it, as integrator.t_end counts them)
        or, without t, to the run's end. Returns whether the run can go on; at its end (or
        settled) the file is marked complete and `result` says how it ended."""
        if t is None:
            return self._steps(self._session.advance_to_end)
        return self._steps(lambda: self._session.advance_to(float(t)))

    def step(self, n: int = 1) -> bool:
        """Runs n steps (fewer at the run's end); returns as run() does."""
        return self._steps(lambda: self._session.advance(int(n)))

    def close(self) -> dict:
        """Ends the run: complete at its end, otherwise resumable from its current state (a
        snapshot is written when there is none of it). Returns `result`; again: the same."""
        if self.result is None:
            self.result = self._session.finish()
        return self.result

    def __enter__(self) -> "Simulation":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- the state -----------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self.result is None and self._session.running

    @property
    def time(self) -> float:
        """s"""
        return self._session.time

    @property
    def step_count(self) -> int:
        return self._session.step

    @property
    def end_step(self) -> int:
        """The step integrator.t_end or n_steps ends the run at."""
        return self._session.end_step

    @property
    def dt(self) -> float:
        """s"""
        return self._session.dt

    @property
    def output(self) -> str:
        """The run file (docs/output-format.md)."""
        return self._session.output

    @property
    def state(self) -> dict:
        """Copies of the bodies now, named as a snapshot's datasets (id, mass, radius,
        position, velocity, spin, orientation, inertia, principal_axes, free_path) with the
        `spheres` and `hulls` groups and `hull_shapes` as sub-dicts (docs/output-format.md)."""
        return self._session.state()

    def set_state(self, **columns) -> None:
        """Replaces position, velocity, spin, orientation or free_path (arrays in the order of
        `state`) between steps. The new state is checked as an initial state is (overlaps,
        walls), written as a snapshot at once (a resumed run starts from it), and the next
        step starts from it."""
        self._session.set_state(columns)

    def snapshot(self):
        """The state now as rubble_analysis.Snapshot, the object the analysis package reads
        from a file (needs analysis/ on PYTHONPATH)."""
        from rubble_analysis.reader import snapshot_from_state
        return snapshot_from_state(self.state, step=self.step_count, time=self.time)


def _merged(base: Mapping[str, Any], more: Mapping[str, Any]) -> dict:
    out = dict(base)
    for key, value in more.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = _merged(out[key], value)
        else:
            out[key] = value
    return out


def _setting(params: Mapping[str, Any], table: str, key: str, default=None):
    """params' value of table.key, given as a dotted key or in a nested dict."""
    if f"{table}.{key}" in params:
        return params[f"{table}.{key}"]
    nested = params.get(table)
    return nested.get(key, default) if isinstance(nested, Mapping) else default


def _default_bodies_file(params: Mapping[str, Any]) -> Path:
    """Beside the output: OUTPUT.bodies.csv (the run's parameters name it, so `rubble run`
    of the stored parameters starts from the same bodies)."""
    output = _setting(params, "output", "file", "rubble_out.h5")  # (its default)
    return Path(os.fspath(output)).with_suffix(".bodies.csv")
