"""rubble.Simulation: the run driver from Python writes what `rubble run` writes, bit for bit,
however the run is cut into pieces; its state can be read and changed between steps; Ctrl-C
leaves a resumable file; bad input is refused naming the key, or the file, line and column."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import h5py
import numpy as np
import pytest

from python_support import BIN, ROOT, differing_datasets


def cli_run(params: Path, *extra: str) -> None:
    subprocess.run([str(BIN), "run", str(params), "--quiet", *extra], check=True,
                   capture_output=True)


def test_a_run_from_python_is_the_command_line_run(rubble, params_file, tmp_path):
    cli_run(params_file("cli"))
    sim = rubble.Simulation.from_file(params_file("py"), say=None)
    assert not sim.run()
    assert sim.result["end"] == "end_time" and sim.step_count == 60
    assert differing_datasets(tmp_path / "cli.h5", tmp_path / "py.h5") == []


def test_a_run_in_pieces_is_the_run_at_once(rubble, params_file, tmp_path):
    cli_run(params_file("cli"))
    sim = rubble.Simulation.from_file(params_file("py"), say=None)
    assert sim.step(3) and sim.step_count == 3
    # t = 1000 s lies between steps 12 and 13: the run goes to the first step at or after it.
    assert sim.run(t=1000.0) and sim.step_count == 13
    assert sim.run(t=sim.time) and sim.step_count == 13  # nothing to do
    while sim.step(7):
        pass
    assert sim.step_count == 60 and sim.result["end"] == "end_time"
    assert differing_datasets(tmp_path / "cli.h5", tmp_path / "py.h5") == []
    assert not sim.step()  # the run is over: nothing more runs


def test_parameters_from_a_dict_are_those_of_the_file(rubble, params_file, tmp_path):
    cli_run(params_file("cli"))
    params = {"random.seed": 7,
              "integrator": {"dt": 80.0, "n_steps": 60},
              "gravity": {"backend": "direct"},
              "collisions": {"enabled": True, "outcome": "bounce", "eps_n": 0.5, "eps_t": 0.8,
                             "v_min": 2.2e-3, "f_crit": 0.01},
              "output": {"file": str(tmp_path / "dict.h5"), "snapshot_interval": 800.0,
                         "diagnostics_interval": 160.0, "collision_log": True},
              "ic": {"cloud": {"n": 150, "size": 90.0, "radius": 5.0},
                     "motion": {"v0": 0.004, "w0": 1e-4, "omega": 4.76e-5}}}
    with rubble.Simulation(params, say=None) as sim:
        sim.run()
    assert differing_datasets(tmp_path / "cli.h5", tmp_path / "dict.h5") == []


def test_walls_and_vectors_from_a_dict_are_those_of_the_file(rubble, tmp_path):
    """params/ball_on_floor.toml as a dict: a [[walls]] table and a uniform field."""
    cli = tmp_path / "cli.h5"
    subprocess.run([str(BIN), "run", str(ROOT / "params/ball_on_floor.toml"), "--quiet",
                    "--integrator.t_end", "1.0", "--output.file", str(cli)], check=True,
                   capture_output=True)
    params = {"integrator": {"dt": 1e-3, "t_end": 1.0},
              "gravity": {"backend": "none", "uniform_g": [0.0, 0.0, -9.81]},
              "collisions": {"enabled": True, "eps_n": 0.8, "eps_t": 1.0},
              "output": {"file": str(tmp_path / "dict.h5"), "collision_log": True,
                         "snapshot_interval": 0.5},
              "ic": {"type": "lattice", "lattice": {"nx": 1, "ny": 1, "nz": 1, "radius": 0.1,
                                                     "density": 1000.0}},
              "walls": [{"type": "plane", "point": [0.0, 0.0, -1.1], "normal": [0.0, 0.0, 1.0]}]}
    with rubble.Simulation(params, say=None) as sim:
        sim.run()
    assert differing_datasets(cli, tmp_path / "dict.h5") == []
    with h5py.File(cli, "r") as f:
        assert len(f["collisions/step"]) > 0  # it reached the floor


def test_the_state_changed_between_steps_is_written_and_resumed(rubble, params_file, tmp_path):
    def changed(name: str):
        sim = rubble.Simulation.from_file(params_file(name), say=None)
        sim.step(15)
        s = sim.state
        sim.set_state(velocity=-s["velocity"], spin=2.0 * s["spin"])
        return sim, s
    sim, before = changed("live")
    after = sim.state
    np.testing.assert_array_equal(after["velocity"], -before["velocity"])
    np.testing.assert_array_equal(after["position"], before["position"])
    # Written at once: the file's last snapshot is the new state at step 15.
    with h5py.File(tmp_path / "live.h5", "r") as f:
        last = f["snapshots"][sorted(f["snapshots"])[-1]]
        assert last.attrs["step"] == 15
        np.testing.assert_array_equal(last["velocity"][()], after["velocity"])
    sim.run()
    # The same change, the file closed there and resumed: the same run to its end.
    stopped, _ = changed("resumed")
    assert stopped.close()["end"] == "stopped"
    resumed = rubble.Simulation.resume(tmp_path / "resumed.h5", say=None)
    assert resumed.step_count == 15
    resumed.run()
    assert differing_datasets(tmp_path / "live.h5", tmp_path / "resumed.h5") == []


def test_the_analysis_reads_a_live_simulation_as_its_file(rubble, params_file, tmp_path):
    import rubble_analysis
    sim = rubble.Simulation.from_file(params_file("live"), say=None)
    sim.step(20)  # a snapshot step
    live = rubble_analysis.snapshot_of(sim)
    with pytest.warns(UserWarning, match="did not finish"):  # (it is running)
        stored = rubble_analysis.snapshot_of(tmp_path / "live.h5")
    assert (live.step, live.time) == (stored.step, stored.time)
    for name in ("id", "mass", "radius", "position", "velocity", "spin", "orientation",
                 "inertia", "principal_axes"):
        np.testing.assert_array_equal(getattr(live, name), getattr(stored, name), err_msg=name)
    np.testing.assert_array_equal(live.sphere_radius, stored.sphere_radius)
    # The analysis of the one is the analysis of the other: the same aggregates, measured alike.
    from rubble_analysis.properties import measure
    from rubble_analysis.report import identify
    # (a loose contact tolerance: the cloud is still falling together at step 20)
    found_live, found_stored = identify(live, 1.0, None), identify(stored, 1.0, None)
    assert found_live.count == found_stored.count > 0
    np.testing.assert_array_equal(found_live.members(0), found_stored.members(0))
    row_live = measure(live, found_live.members(0)).as_row()
    row_stored = measure(stored, found_stored.members(0)).as_row()
    assert row_live.keys() == row_stored.keys()
    for key, value in row_live.items():
        other = row_stored[key]
        assert value == other or (value != value and other != other), key  # (NaN: not defined)
    sim.close()


def test_bodies_from_arrays_start_the_run(rubble, tmp_path):
    # Two spheres falling together head-on under their own gravity, from arrays.
    bodies = {"id": np.array([1, 2]),
              "position": np.array([[-20.0, 0.0, 0.0], [20.0, 0.0, 0.0]]),
              "velocity": np.array([[0.01, 0.0, 0.0], [-0.01, 0.0, 0.0]]),
              "radius": np.array([5.0, 5.0]), "density": np.array([2000.0, 2000.0])}
    params = {"integrator": {"dt": 10.0, "n_steps": 300},
              "collisions": {"enabled": True, "outcome": "bounce", "eps_n": 0.5},
              "ic": {"centre_of_mass_frame": False},
              "output": {"file": str(tmp_path / "pair.h5")}}
    sim = rubble.Simulation(params, bodies, say=None)
    s = sim.state
    np.testing.assert_array_equal(s["id"], [1, 2])
    np.testing.assert_array_equal(s["position"], bodies["position"])
    assert (tmp_path / "pair.bodies.csv").is_file()  # named by the stored parameters
    # A second simulation would replace the table the first one's parameters name: refused
    # unless the output may be replaced.
    with pytest.raises(rubble.InputError, match="pair.bodies.csv exists"):
        rubble.Simulation(params, bodies, say=None)
    sim.run()
    # They met and bounced: the momentum stays zero, the relative speed changed sign.
    s = sim.state
    assert s["velocity"][0, 0] < 0.0 < s["velocity"][1, 0]
    # (round-off of the impulse: a few operations on momenta of size m |v|)
    scale = np.sum(s["mass"] * np.linalg.norm(s["velocity"], axis=1))
    np.testing.assert_allclose(s["mass"] @ s["velocity"], 0.0, atol=1e-14 * scale)


def test_bad_input_names_the_key_or_the_row(rubble, tmp_path):
    with pytest.raises(rubble.InputError, match="integrator.dt"):
        rubble.Simulation({"integrator": {"dt": -1.0},
                           "output": {"file": str(tmp_path / "bad.h5")}}, say=None)
    assert not (tmp_path / "bad.h5").exists()
    with pytest.raises(rubble.InputError,
                       match=r'bad\.bodies\.csv:4: column radius = "-1\.0": must be > 0'):
        rubble.Simulation({"integrator.n_steps": 10, "output.file": str(tmp_path / "bad.h5")},
                          {"id": [1, 2], "position": [[0, 0, 0], [50, 0, 0]],
                           "radius": [1.0, -1.0], "density": [1000.0, 1000.0]}, say=None)
    with pytest.raises(rubble.InputError, match=r"python \(integrator\.n_steps\)"):
        rubble.Simulation.from_file(ROOT / "params/kepler.toml",
                                    {"integrator.n_steps": "many"}, say=None)


def test_set_state_refuses_what_it_cannot_take(rubble, params_file):
    sim = rubble.Simulation.from_file(params_file("run"), say=None)
    n = len(sim.state["id"])
    with pytest.raises(rubble.InputError, match=r"velocity must have shape \(150, 3\)"):
        sim.set_state(velocity=np.zeros((n - 1, 3)))
    with pytest.raises(rubble.InputError, match="mass cannot be set"):
        sim.set_state(mass=np.ones(n))
    p = sim.state["position"]
    p[1] = p[0]  # two spheres in one place
    with pytest.raises(rubble.InputError, match="set_state"):
        sim.set_state(position=p)
    sim.close()


def test_ctrl_c_leaves_a_resumable_file(rubble, params_file, tmp_path):
    """SIGINT during run(): KeyboardInterrupt after a resumable snapshot; `rubble run --resume`
    continues it to the uninterrupted run, bit for bit."""
    params = params_file("stopped")
    # A run far too long to end before the signal: it is interrupted, then both it and the
    # uninterrupted reference end 20 steps after the interruption.
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(BIN.parent / 'python')!r})
        import rubble
        sim = rubble.Simulation.from_file({str(params)!r}, {{"integrator.n_steps": 10**7}},
                                          say=None)
        sim.step(1)
        print("running", flush=True)
        try:
            sim.run()
        except KeyboardInterrupt:
            print("interrupted", sim.step_count, sim.result["end"], flush=True)
            sys.exit(3)
    """)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "running"
    time.sleep(0.5)
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=120)
    assert child.returncode == 3, out
    word, step, end = out.split()
    assert word == "interrupted" and end == "interrupted" and int(step) > 1
    last = str(int(step) + 20)
    subprocess.run([str(BIN), "run", "--resume", str(tmp_path / "stopped.h5"), "--quiet",
                    "--integrator.n_steps", last], check=True, capture_output=True)
    cli_run(params_file("whole"), "--integrator.n_steps", last)
    # The interruption's extra snapshot aside, the file is the uninterrupted one.
    with h5py.File(tmp_path / "whole.h5", "r") as a, h5py.File(tmp_path / "stopped.h5", "r") as b:
        for name in ("diagnostics", "collisions"):
            for key in a[name]:
                np.testing.assert_array_equal(a[name][key][()], b[name][key][()], err_msg=key)
        last_a = a["snapshots"][sorted(a["snapshots"])[-1]]
        last_b = b["snapshots"][sorted(b["snapshots"])[-1]]
        assert last_a.attrs["step"] == last_b.attrs["step"] == int(last)
        for key in ("position", "velocity", "spin", "orientation", "free_path"):
            np.testing.assert_array_equal(last_a[key][()], last_b[key][()], err_msg=key)


def test_a_live_polyhedron_has_the_shapes_of_its_file(rubble, tmp_path):
    """The state's hull_shapes are the arrays of the file's /hull_shapes (one layout)."""
    import rubble_analysis
    sim = rubble.Simulation.from_file(ROOT / "params/polyhedra_bounce.toml",
                                      {"output.file": str(tmp_path / "hull.h5")}, say=None)
    live = rubble_analysis.snapshot_of(sim)
    with pytest.warns(UserWarning, match="did not finish"):  # (it is running)
        stored = rubble_analysis.snapshot_of(tmp_path / "hull.h5")
    assert len(live.hull_shapes) == 1
    for name in ("vertex_start", "vertices", "triangle_start", "triangles", "volume"):
        np.testing.assert_array_equal(getattr(live.hull_shapes, name),
                                      getattr(stored.hull_shapes, name), err_msg=name)
    np.testing.assert_array_equal(live.hulls["shape"], stored.hulls["shape"])
    sim.close()
