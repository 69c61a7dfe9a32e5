"""report and compare end to end on short real rubble runs."""

from __future__ import annotations

import csv
import json
import math
import subprocess

import numpy as np
import pytest

from conftest import rubble_binary
from rubble_analysis.__main__ import main
from rubble_analysis.properties import critical_period


DT, STEPS = 1.0, 2  # s; short enough that the block keeps its shape (see below)


def lattice_run(tmp_path, name: str, omega: float):
    """A touching 3x3x3 block rotating about z: one aggregate with a known spin period."""
    out = tmp_path / f"{name}.h5"
    params = tmp_path / f"{name}.toml"
    params.write_text(f"""
[integrator]
dt = {DT}
n_steps = {STEPS}
[output]
file = "{out}"
snapshot_interval = {DT}
[ic]
type = "lattice"
[ic.lattice]
nx = 3
ny = 3
nz = 3
spacing = 2.0
radius = 1.0
[ic.motion]
omega = {omega}
""")
    subprocess.run([rubble_binary(), "run", str(params), "--quiet"], check=True)
    return out


def test_report_folder_from_a_real_run(short_run, tmp_path):
    out = tmp_path / "report"
    assert main(["report", str(short_run), "--output", str(out)]) == 0
    for name in ("summary.csv", "summary.json", "final_aggregates.csv", "conservation.csv",
                 "conservation.png", "views.png", "timeseries.png"):
        assert (out / name).stat().st_size > 0, name
    summary = json.loads((out / "summary.json").read_text())
    assert summary["n_bodies"] == 200 and summary["complete"]
    assert len(summary["snapshots"]) == 4
    assert summary["n_aggregates"] + summary["n_escapers"] <= 200
    # Leapfrog on a 200-body cloud for 30 short steps: tiny energy error.
    assert summary["max_energy_error"] < 1e-6


def block_period(omega: float, radius: float = 1.0, spacing: float = 2.0) -> float:
    """The bodies orbit at omega but do not spin, so H = I_orbit omega while the aggregate's
    inertia includes each sphere's own 2/5 m R^2: T = 2 pi / omega (I_orbit + I_own) / I_orbit.
    Per unit mass, I_orbit = sum (x^2 + y^2) = 2 * 9 * 2 spacing^2 over the 3x3x3 block."""
    i_orbit = 2 * 9 * 2 * spacing**2
    i_own = 27 * 0.4 * radius**2
    return 2 * math.pi / omega * (i_orbit + i_own) / i_orbit


def shape_change(omega: float) -> float:
    """Relative change of the block's inertia over the run: straight-line drift moves a body
    at r out to r sqrt(1 + (omega t)^2), and self-gravity pulls the outer bodies in by
    g t^2 / 2 with g <= G M / (2 spacing)^2 (M = 27 spheres of 1 m, 2000 kg/m^3)."""
    t = DT * STEPS
    g = 6.6743e-11 * 27 * 2000 * 4 / 3 * math.pi / 4.0
    return (omega * t) ** 2 + 2 * (0.5 * g * t * t) / 2.0


def test_report_of_a_spinning_block(tmp_path, capsys):
    omega = 1e-4
    run = lattice_run(tmp_path, "block", omega)
    out = tmp_path / "block_report"
    assert main(["report", str(run), "--output", str(out)]) == 0
    rows = list(csv.DictReader((out / "final_aggregates.csv").open()))
    assert len(rows) == 1 and int(rows[0]["n"]) == 27
    assert float(rows[0]["period_s"]) == pytest.approx(block_period(omega),
                                                       rel=shape_change(omega))
    assert float(rows[0]["porosity_alpha"]) < float(rows[0]["porosity_hull"])
    assert (out / "largest.png").stat().st_size > 0
    # The largest aggregate, printed and in summary.json: the same numbers as the table.
    largest = json.loads((out / "summary.json").read_text())["largest"]
    row = {k: float(v) for k, v in rows[0].items()}
    assert largest["n"] == 27 and largest["mass_fraction"] == pytest.approx(1.0, rel=1e-15)
    assert largest["period_s"] == row["period_s"]
    assert largest["critical_period_hull_s"] == critical_period(
        row["bulk_density_hull_kg_m3"], 6.6743e-11)
    assert largest["critical_period_alpha_s"] < largest["critical_period_hull_s"]
    printed = capsys.readouterr().out
    assert printed.startswith("\n".join(largest["lines"]))
    assert (out / "largest.txt").read_text() == "\n".join(largest["lines"]) + "\n"
    for text in ("bodies        27 (100.0 % of all)",
                 f"spin period   {row['period_s'] / 3600:.3g} h",
                 f"lambda = I_max / I_min = {row['elongation']:.3f}",
                 f"porosity      {row['porosity_alpha']:.3f} (alpha shape) to "
                 f"{row['porosity_hull']:.3f} (convex hull)"):
        assert text in printed, text


def test_compare_runs_side_by_side_and_as_a_sweep(tmp_path):
    runs = [lattice_run(tmp_path, f"w{i}", w) for i, w in enumerate((5e-5, 1e-4, 2e-4))]
    out = tmp_path / "cmp"
    assert main(["compare", *map(str, runs), "--output", str(out)]) == 0
    rows = json.loads((out / "comparison.json").read_text())
    assert [r["run"] for r in rows] == ["w0.h5", "w1.h5", "w2.h5"]
    for row, omega in zip(rows, (5e-5, 1e-4, 2e-4)):
        assert row["largest_period_s"] == pytest.approx(block_period(omega),
                                                        rel=shape_change(omega))
    assert (out / "comparison.png").exists() and (out / "sweep_omega_over_wcrit.png").exists()
    assert not (out / "sweep_v0_over_vesc.png").exists()  # v0 not swept


CUBES = """
[integrator]
dt = 100.0
n_steps = 5
[output]
file = "{out}"
[ic.cloud]
n = 40
size = 150.0
radius = 5.0
grain = "cube"
spheres_per_grain = 8
[ic.motion]
v0 = 0.01
w0 = 1e-4
omega = 1e-5
"""


def test_report_of_a_cloud_of_cube_aggregates(tmp_path):
    """A real run's aggregates (40 cubes of 8 spheres, randomly oriented and spinning): read
    through their spheres, their whole inertia and angular momentum the sums over the spheres
    of the file, to round-off."""
    from synthetic import sphere_sums
    from rubble_analysis import open_run
    from rubble_analysis.properties import measure

    out = tmp_path / "cubes.h5"
    params = tmp_path / "cubes.toml"
    params.write_text(CUBES.format(out=out))
    subprocess.run([rubble_binary(), "run", str(params), "--quiet"], check=True,
                   capture_output=True)
    with open_run(out) as run:
        snap = run.snapshot(-1)
    assert snap.sphere_count.tolist() == [8] * 40
    everything = measure(snap, np.arange(40), volumes="none")
    ref = sphere_sums(snap)
    # rubble's mass_properties and Eigen's eigensolver, then this reader's rotations: a few
    # tens of eps per body (test_grains.BODY_ROUND_OFF), plus the sums over 320 spheres.
    tol = (32 + 320 + 32) * np.finfo(float).eps
    assert np.abs(everything.inertia - ref.inertia).max() <= tol * ref.inertia_scale
    assert np.abs(everything.angular_momentum - ref.angular_momentum).max() \
        <= tol * ref.angular_momentum_scale
    assert np.all(np.linalg.norm(ref.position - snap.position[snap.sphere_body], axis=1)
                  + snap.sphere_radius <= snap.radius[snap.sphere_body] * (1 + tol))
    report_dir = tmp_path / "cubes_report"
    assert main(["report", str(out), "--output", str(report_dir)]) == 0
    summary = json.loads((report_dir / "summary.json").read_text())
    assert summary["n_bodies"] == 40 and summary["n_spheres"] == 320
    # Placed apart (docs/aggregates.md, "Clouds of aggregates") and hardly moved.
    assert summary["n_aggregates"] == 0 and summary["n_escapers"] == 40
    assert main(["quicklook", str(out), "--output", str(tmp_path / "cubes.png")]) == 0
