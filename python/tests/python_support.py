"""What the Python module's tests share: where the module is (beside the rubble binary that
RUBBLE_BIN names, in its directory's python/), a small colliding cloud, and a bitwise
comparison of run files."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import h5py
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("RUBBLE_BIN", str(ROOT / "build/release/rubble")))
sys.path.insert(0, str(BIN.parent / "python"))
sys.path.insert(0, str(ROOT / "analysis"))

# A cloud dense enough to collide within its 60 steps (the event-driven drift runs), with a
# snapshot every 10 steps and a diagnostics row every 2; default.toml's guards against inelastic
# collapse (v_min, f_crit), so that it can also run on into a pile.
PARAMS = """
random.seed = 7
[integrator]
dt = 80.0
n_steps = 60
[gravity]
backend = "direct"
[collisions]
enabled = true
outcome = "bounce"
eps_n = 0.5
eps_t = 0.8
v_min = 2.2e-3
f_crit = 0.01
[output]
file = "{out}"
collision_log = true
snapshot_interval = 800.0
diagnostics_interval = 160.0
[ic.cloud]
n = 150
size = 90.0
radius = 5.0
[ic.motion]
v0 = 0.004
w0 = 1e-4
omega = 4.76e-5
"""


def differing_datasets(a: Path, b: Path) -> list[str]:
    """The datasets of run file a that b does not hold bit for bit (NaN equal to NaN), the
    stored parameters (which name the file) left out."""
    bad = []
    with h5py.File(a, "r") as fa, h5py.File(b, "r") as fb:
        def visit(name, obj):
            if not isinstance(obj, h5py.Dataset) or name == "parameters":
                return
            if name not in fb:
                bad.append(name)
                return
            x, y = obj[()], fb[name][()]
            same = x.shape == y.shape and (np.array_equal(x, y) or (
                x.dtype.kind == "f" and np.array_equal(x, y, equal_nan=True)))
            if not same:
                bad.append(name)
        fa.visititems(visit)
        fb.visititems(lambda name, obj: bad.append(name)
                      if isinstance(obj, h5py.Dataset) and name not in fa else None)
    return bad
