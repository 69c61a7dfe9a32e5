"""The reader against real rubble output, incomplete runs and files that are not runs."""

from __future__ import annotations

import warnings

import h5py
import numpy as np
import pytest

from conftest import run_rubble
from rubble_analysis import RunFormatError, open_run
from rubble_analysis.__main__ import main


def test_reads_snapshots_diagnostics_and_parameters(short_run):
    with open_run(short_run) as run:
        assert run.complete
        assert run.snapshot_count == 4  # steps 0, 10, 20, 30
        first, last = run.snapshot(0), run.snapshot(-1)
        params = run.parameters
        diag = run.diagnostics()
    assert last.step == 30 and last.time == pytest.approx(3000.0, rel=1e-15)
    assert first.position.shape == (200, 3) and first.orientation.shape == (200, 4)
    assert np.array_equal(first.id, last.id)
    # Spheres: I = 2/5 m R^2 (the output stores principal moments).
    assert np.allclose(first.inertia[:, 0], 0.4 * first.mass * first.radius**2, rtol=1e-15)
    assert np.allclose(np.linalg.norm(last.orientation, axis=1), 1.0, atol=1e-14)
    assert params["integrator"]["n_steps"] == 30
    assert params["ic"]["cloud"]["n"] == 200
    assert diag["step"].tolist() == list(range(31))
    # Direct-sum leapfrog: momentum conserved to round-off relative to sum m |v|.
    p_scale = np.sum(first.mass * np.linalg.norm(first.velocity, axis=1))
    assert np.linalg.norm(diag["momentum"][-1] - diag["momentum"][0]) < 1e-12 * p_scale


def test_incomplete_run_warns_and_reads_its_last_snapshot(tmp_path):
    out = run_rubble(tmp_path, "--stop-after", "15")
    with pytest.warns(UserWarning, match="did not finish"):
        run = open_run(out)
    with run:
        assert not run.complete
        assert run.snapshot(-1).step == 15


def test_stop_reason_is_read_when_present(tmp_path):
    """Files before rubble recorded why a run ended have no stop_reason (None)."""
    from synthetic import write_run
    write_run(tmp_path / "old.h5")
    write_run(tmp_path / "settled.h5", attributes={"stop_reason": "settled"})
    with open_run(tmp_path / "old.h5") as run:
        assert run.stop_reason is None
    with open_run(tmp_path / "settled.h5") as run:
        assert run.stop_reason == "settled"


@pytest.mark.parametrize("content", [b"", b"plain text, not HDF5"])
def test_non_hdf5_files_are_refused(tmp_path, content):
    bad = tmp_path / "bad.h5"
    bad.write_bytes(content)
    with pytest.raises(RunFormatError, match="not a readable HDF5 file"):
        open_run(bad)


def test_foreign_hdf5_and_missing_files_are_refused(tmp_path):
    foreign = tmp_path / "foreign.h5"
    with h5py.File(foreign, "w") as f:
        f["x"] = np.arange(3)
    with pytest.raises(RunFormatError, match="not a rubble output"):
        open_run(foreign)
    with pytest.raises(RunFormatError, match="no such file"):
        open_run(tmp_path / "absent.h5")


def test_truncated_file_is_refused(tmp_path, short_run):
    cut = tmp_path / "cut.h5"
    cut.write_bytes(short_run.read_bytes()[:2000])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RunFormatError):
            open_run(cut)


def test_quicklook_command_writes_a_png(short_run, tmp_path, capsys):
    png = tmp_path / "look.png"
    assert main(["quicklook", str(short_run), "--output", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["quicklook", str(tmp_path / "absent.h5")]) == 2
    assert "no such file" in capsys.readouterr().err


GAS = """
[integrator]
dt = 0.05
n_steps = 20
[gravity]
backend = "none"
[collisions]
enabled = true
eps_n = 0.9
periodic_box = 6.0
[output]
file = "{out}"
snapshot_interval = 0.5
diagnostics_interval = 0.05
collision_log = true
[ic]
type = "lattice"
[ic.lattice]
nx = 6
ny = 6
nz = 6
spacing = 1.0
radius = 0.4
[ic.motion]
v0 = 1.0
"""


def test_reads_the_collision_log_consistently_with_the_diagnostics(tmp_path):
    from conftest import rubble_binary
    import subprocess

    out = tmp_path / "gas.h5"
    params = tmp_path / "gas.toml"
    params.write_text(GAS.format(out=out))
    subprocess.run([rubble_binary(), "run", str(params), "--quiet"], check=True,
                   capture_output=True)
    with open_run(out) as run:
        log = run.collisions()
        diag = run.diagnostics()
    assert len(log) == diag["collisions_total"][-1] > 50
    assert log.id.shape == (len(log), 2) and np.all(log.id[:, 0] < log.id[:, 1])
    assert np.all(np.diff(log.step) >= 0) and np.all(np.diff(log.time) >= 0)
    # Within a step, contacts are resolved in time order; times lie inside their step.
    assert np.all((log.time > (log.step - 1) * 0.05 - 1e-12) & (log.time <= log.step * 0.05 + 1e-12))
    assert np.all(log.normal_speed > 0)
    # Per-step counts of the log match the diagnostics' per-row counts.
    counts = np.bincount(log.step, minlength=21)[1:]
    assert np.array_equal(counts, diag["collisions"][1:].astype(int))


def test_a_run_without_the_log_has_an_empty_one(short_run):
    with open_run(short_run) as run:
        assert len(run.collisions()) == 0


def test_a_version_2_file_is_read_and_reported_as_free_spheres(tmp_path):
    """Format version 2 (no spheres table, no principal axes): every body its own sphere, and
    the same analysis as the version 3 file of the same bodies."""
    from synthetic import write_run

    reports = {}
    for version in (2, 3):
        path = tmp_path / f"v{version}.h5"
        write_run(path, version=version)
        with open_run(path) as run:
            snap = run.snapshot(-1)
        assert snap.sphere_count.tolist() == [1] * 8
        assert np.array_equal(snap.sphere_position, snap.position)
        assert np.array_equal(snap.sphere_radius, snap.radius)
        assert np.array_equal(snap.principal_axes, np.tile([1.0, 0, 0, 0], (8, 1)))
        out = tmp_path / f"v{version}_report"
        assert main(["report", str(path), "--output", str(out)]) == 0
        assert main(["quicklook", str(path), "--output", str(tmp_path / "look.png")]) == 0
        reports[version] = (out / "final_aggregates.csv").read_text()
    assert reports[2] == reports[3] and reports[2].count("\n") == 2  # header, one aggregate
