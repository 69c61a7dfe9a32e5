"""The tutorial of docs/python.md (python/examples/aggregate_pile.py) runs as written, briefly:
its aggregates are built from the arrays it gives, and it ends with a complete file and its
picture."""

from __future__ import annotations

import os
import subprocess
import sys

import h5py
import numpy as np

from python_support import BIN, ROOT


def test_the_tutorial_pile_runs(rubble, tmp_path):
    env = dict(os.environ, MPLBACKEND="Agg",
               PYTHONPATH=os.pathsep.join([str(BIN.parent / "python"), str(ROOT / "analysis")]))
    done = subprocess.run([sys.executable, str(ROOT / "python/examples/aggregate_pile.py"),
                           str(tmp_path), "--t-end", "2000"], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "50 aggregates, 200 spheres" in done.stdout
    assert "end_time" in done.stdout
    assert (tmp_path / "pile.png").stat().st_size > 0
    with h5py.File(tmp_path / "pile.h5", "r") as f:
        assert f.attrs["complete"] == 1
        last = f["snapshots"][sorted(f["snapshots"])[-1]]
        # Fifty grains of four spheres each, as the script made them.
        assert len(last["id"]) == 50
        np.testing.assert_array_equal(np.bincount(last["spheres/body"][()]), np.full(50, 4))
