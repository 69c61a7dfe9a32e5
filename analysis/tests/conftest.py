"""Fixtures: a short real rubble run made by the binary that RUBBLE_BIN names."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PARAMS = """
[integrator]
dt = 100.0
n_steps = 30
[output]
file = "{out}"
snapshot_interval = 1000.0
[ic.cloud]
n = 200
size = 800.0
radius = 5.0
[ic.motion]
v0 = 0.01
w0 = 1e-4
omega = 1e-6
"""


def rubble_binary() -> str:
    path = os.environ.get("RUBBLE_BIN",
                          str(Path(__file__).resolve().parents[2] / "build/release/rubble"))
    if not Path(path).is_file():
        pytest.fail(f"rubble binary not found at {path}; build it or set RUBBLE_BIN")
    return path


def run_rubble(tmp_path: Path, *extra: str) -> Path:
    out = tmp_path / "run.h5"
    params = tmp_path / "p.toml"
    params.write_text(PARAMS.format(out=out))
    subprocess.run([rubble_binary(), "run", str(params), "--quiet", *extra], check=True,
                   capture_output=True)
    return out


@pytest.fixture
def short_run(tmp_path: Path) -> Path:
    return run_rubble(tmp_path)
