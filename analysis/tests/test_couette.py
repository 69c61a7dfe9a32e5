"""The Taylor-Couette profile (rubble_analysis.couette) on flows with known answers, and on a
short run of params/taylor_couette.toml."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

from rubble_analysis.couette import azimuthal_profile, couette_profile, format_profile

REPO = Path(__file__).resolve().parents[2]


def test_solid_body_rotation_has_v_theta_omega_r():
    rng = np.random.default_rng(1)
    r = rng.uniform(1.0, 2.0, 500)
    phi = rng.uniform(0, 2 * np.pi, 500)
    position = np.stack([r * np.cos(phi), r * np.sin(phi), rng.uniform(-1, 1, 500)], axis=1)
    omega = 3.0
    velocity = np.cross([0.0, 0.0, omega], position) + [0.0, 0.0, 0.7]  # plus an axial drift
    edges = np.linspace(1.0, 2.0, 6)
    count, sum_t, sum_r = azimuthal_profile(position, velocity, edges)
    assert count.sum() == 500
    centres = 0.5 * (edges[1:] + edges[:-1])
    # Mean of omega r over each bin: within half a bin width of omega times its centre.
    assert np.all(np.abs(sum_t / count - omega * centres) <= omega * 0.1 + 1e-12)
    assert np.allclose(sum_r / count, 0.0, atol=1e-12)


@pytest.mark.skipif(not os.environ.get("RUBBLE_BIN"), reason="needs RUBBLE_BIN")
def test_short_taylor_couette_run_is_dragged_by_the_inner_cylinder(tmp_path):
    out = tmp_path / "tc.h5"
    subprocess.run([os.environ["RUBBLE_BIN"], "run", str(REPO / "params/taylor_couette.toml"),
                    "--integrator.t_end", "1.0", "--output.file", str(out), "--quiet"],
                   check=True, cwd=tmp_path)
    p = couette_profile(out, bins=5)
    assert "v_theta(r)" in format_profile(p)
    # The inner cylinder turns counter-clockwise: the spheres next to it follow, faster than
    # those at the fixed outer wall.
    assert p.v_theta[0] > 0.0
    assert p.v_theta[0] > p.v_theta[-1]
