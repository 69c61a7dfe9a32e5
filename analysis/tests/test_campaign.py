"""compare over a campaign index: the index and its runs refused when they do not hold together,
the table's values on aggregates measured by hand, the spread over seeds, the figures."""

from __future__ import annotations

import csv
import io
import json
import math
import sys

import h5py
import matplotlib.image
import numpy as np
import pytest

from rubble_analysis.__main__ import main
from rubble_analysis.campaign import (DOMINANT_MASS_FRACTION, Campaign, CampaignError,
                                      CampaignRun, CampaignSet, angular_momentum_history,
                                      extreme_rows, history_runs, read_index, view_choice)
from rubble_analysis.reader import Run
from rubble_analysis.properties import critical_period
from synthetic import (box, campaign_parameters, grain, grains_snapshot, polyhedra_snapshot,
                       snapshot, write_run)

EPS = np.finfo(float).eps
G = 6.6743e-11
CAMPAIGN_ID = "9f3a0c1d2b4e5f60"
OTHER_ID = "0123456789abcdef"
CAMPAIGN_FILE = "/abs/params/ferrari2017/reduced.toml"
MODELS = ("sphere", "aggregate", "polyhedron")
SETS = ({"name": "0", "v0": 0.0, "w0": 0.0, "omega": 0.0, "level": 0.0},
        {"name": "1.3", "v0": 0.0, "w0": 0.0, "omega": 1e-4, "level": 0.5})
SEEDS = (1, 2)
DENSITY = 2000.0  # kg/m^3, synthetic.snapshot's and grain's default
IDENTITY = np.array([1.0, 0.0, 0.0, 0.0])
# The final spin of each (set, seed): every aggregate turns rigidly at it about z (set 0, seed
# 2: not at all).
SPIN = {("0", 1): 5e-5, ("0", 2): 0.0, ("1.3", 1): 1e-4, ("1.3", 2): 2e-4}
# Measured to round-off: the inertia tensor and angular momentum are sums of a few terms, the
# spin a 3x3 solve, lambda a ratio of eigenvalues of a well-conditioned tensor.
ROUND_OFF = 64 * EPS


def rigid(position, w: float):
    """Velocities and spins of bodies at position turning rigidly at w (rad/s) about z through
    the origin."""
    position = np.asarray(position, dtype=float)
    omega = np.array([0.0, 0.0, w])
    return np.cross(omega, position), np.tile(omega, (len(position), 1))


def sphere_pair(w: float, split: bool = False):
    """Two touching 1 m spheres at x = -1, 1 turning at w, and a third sphere at x = 100 at
    rest (an escaper); split: a second touching pair there instead (two equal aggregates)."""
    pos = [[-1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [100.0, 0.0, 0.0]]
    if split:
        pos.append([102.0, 0.0, 0.0])
    v, s = rigid(pos[:2], w)
    v = np.concatenate([v, np.zeros((len(pos) - 2, 3))])
    s = np.concatenate([s, np.zeros((len(pos) - 2, 3))])
    return snapshot(pos, 1.0, velocity=v, spin=s)


def dumbbells(w: float):
    """Two rigid grains of two 1 m spheres each, end to end along x (spheres at -3, -1, 1, 3)."""
    g = grain([[-1.0, 0.0, 0.0], [1.0, 0.0, 0.0]], 1.0)
    pos = [[-2.0, 0.0, 0.0], [2.0, 0.0, 0.0]]
    v, s = rigid(pos, w)
    return grains_snapshot([g, g], pos, [IDENTITY, IDENTITY], velocity=v, spin=s)


def cubes(w: float):
    """Two unit cubes face to face at x = -1/2, 1/2, 1000 kg/m^3."""
    pos = [[-0.5, 0.0, 0.0], [0.5, 0.0, 0.0]]
    v, s = rigid(pos, w)
    return polyhedra_snapshot([box(1, 1, 1)] * 2, pos, [IDENTITY, IDENTITY], velocity=v, spin=s)


def final_snapshot(model: str, set_name: str, seed: int):
    w = SPIN[(set_name, seed)]
    if model == "sphere":
        return sphere_pair(w, split=(set_name, seed) == ("0", 2))
    return dumbbells(w) if model == "aggregate" else cubes(w)


# Root attributes: sphere runs settled, polyhedron runs reached their end, aggregate runs come
# from before stop_reason (none), and one of them did not finish.
def attributes(model: str, set_name: str, seed: int) -> dict:
    if model == "sphere":
        return {"stop_reason": "settled"}
    if model == "polyhedron":
        return {"stop_reason": "end"}
    return {"complete": 0} if (set_name, seed) == ("0", 2) else {}


def run_name(set_name: str, seed: int, model: str) -> str:
    return f"set_{set_name}_seed_{seed}_{model}.h5"


def write_campaign(folder, models=MODELS):
    """The index and its runs; each run holds its final state at every snapshot."""
    runs = []
    for s in SETS:
        for seed in SEEDS:
            for model in models:
                name = run_name(s["name"], seed, model)
                snap = final_snapshot(model, s["name"], seed)
                write_run(folder / name, snapshot_at=lambda step, snap=snap: snap,
                          parameters=campaign_parameters(CAMPAIGN_ID, s["name"], seed, model,
                                                         s["v0"], s["w0"], s["omega"]),
                          attributes=attributes(model, s["name"], seed))
                runs.append({"file": name, "set": s["name"], "seed": seed, "model": model})
    index = folder / "campaign.json"
    write_index(index, runs=runs, models=list(models))
    return index


def write_index(index, **changes) -> None:
    data = {"format": "rubble campaign index", "version": 1, "name": "ferrari2017_reduced",
            "id": CAMPAIGN_ID, "campaign_file": CAMPAIGN_FILE, "models": list(MODELS),
            "seeds": list(SEEDS), "sets": list(SETS), "runs": []}
    data.update(changes)
    index.write_text(json.dumps(data))


def edit_index(index, **changes) -> None:
    data = json.loads(index.read_text())
    data.update(changes)
    index.write_text(json.dumps(data))


def edit_parameters(path, old: str, new: str) -> None:
    with h5py.File(path, "r+") as f:
        text = f["parameters"].attrs["toml"]
        assert old in text
        f["parameters"].attrs["toml"] = text.replace(old, new)


@pytest.fixture(scope="module")
def campaign_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("campaign")
    write_campaign(folder)
    return folder


@pytest.fixture(scope="module")
def compared(campaign_dir, tmp_path_factory):
    """The comparison of the synthetic campaign, with what the command printed."""
    out = tmp_path_factory.mktemp("compared")
    with pytest.MonkeyPatch.context() as mp:
        stdout, stderr = io.StringIO(), io.StringIO()
        mp.setattr(sys, "stdout", stdout)
        mp.setattr(sys, "stderr", stderr)
        rc = main(["compare", str(campaign_dir / "campaign.json"), "--output", str(out)])
    runs = json.loads((out / "campaign_runs.json").read_text())
    summary = json.loads((out / "campaign_summary.json").read_text())
    return {"rc": rc, "out": out, "stdout": stdout.getvalue(), "stderr": stderr.getvalue(),
            "rows": {(r["set"], r["seed"], r["model"]): r for r in runs["rows"]},
            "order": [(r["set"], r["seed"], r["model"]) for r in runs["rows"]],
            "header": runs, "summary": {(s["model"], s["set"]): s for s in summary["rows"]}}


# Refusals -----------------------------------------------------------------------------------

def refused(capsys, index) -> str:
    """The command's one error line (exit 2, nothing else printed)."""
    assert main(["compare", str(index), "--output", str(index.parent / "out")]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), captured.err
    return lines[0]


@pytest.fixture
def fresh(tmp_path):
    """A campaign of the sphere model only (quick to write), to be damaged by a test."""
    return write_campaign(tmp_path, models=("sphere",))


def test_refuses_a_missing_run_file(fresh, capsys):
    (fresh.parent / run_name("1.3", 2, "sphere")).unlink()
    line = refused(capsys, fresh)
    assert str(fresh) in line and run_name("1.3", 2, "sphere") in line
    assert "does not exist" in line and f"'rubble campaign {CAMPAIGN_FILE}'" in line


def test_finished_compares_what_has_finished_and_says_what_it_left_out(fresh, capsys):
    """--finished, for a sweep still under way: a run with no file yet and one that did not
    finish are left out and counted, in the printed line, the tables' header and above the
    markdown table; the finished ones are measured as in a whole comparison."""
    (fresh.parent / run_name("1.3", 2, "sphere")).unlink()
    with h5py.File(fresh.parent / run_name("0", 1, "sphere"), "r+") as f:
        f.attrs["complete"] = 0
    out = fresh.parent / "partial"
    assert main(["compare", str(fresh), "--finished", "--output", str(out)]) == 0
    err = capsys.readouterr().err
    assert "compare: 2 of 4 runs finished; left out: 1 not run, 1 unfinished" in err
    runs = json.loads((out / "campaign_runs.json").read_text())
    assert runs["left_out"] == {"not run": 1, "unfinished": 1}
    assert [(r["set"], r["seed"]) for r in runs["rows"]] == [("0", 2), ("1.3", 1)]
    assert all(r["status"] == "settled" for r in runs["rows"])
    assert (out / "campaign.md").read_text().startswith(
        "Partial: 2 finished runs; left out 1 not run, 1 unfinished.")
    # Nothing finished: refused, not an empty comparison.
    for name in (run_name("0", 2, "sphere"), run_name("1.3", 1, "sphere")):
        (fresh.parent / name).unlink()
    assert main(["compare", str(fresh), "--finished", "--output", str(out)]) == 2
    assert "no run of the campaign has finished yet" in capsys.readouterr().err


def test_a_campaign_where_no_pile_turns_is_drawn(fresh):
    """Piles from rest (every run's pair at rest): no period to put on the logarithmic axes,
    which are then drawn empty over fixed decades instead of failing."""
    for s in SETS:
        for seed in SEEDS:
            write_run(fresh.parent / run_name(s["name"], seed, "sphere"),
                      snapshot_at=lambda step: sphere_pair(0.0),
                      parameters=campaign_parameters(CAMPAIGN_ID, s["name"], seed, "sphere",
                                                     s["v0"], s["w0"], s["omega"]))
    out = fresh.parent / "still"
    assert main(["compare", str(fresh), "--output", str(out)]) == 0
    rows = json.loads((out / "campaign_runs.json").read_text())["rows"]
    assert rows and not any(r["turning"] for r in rows)
    for name in ("outcomes_vs_ic.png", "period.png"):
        assert matplotlib.image.imread(out / name)[..., :3].std() > 0.01, name


def test_refuses_a_run_of_another_campaign(fresh, capsys):
    path = fresh.parent / run_name("0", 2, "sphere")
    edit_parameters(path, f'id = "{CAMPAIGN_ID}"', f'id = "{OTHER_ID}"')
    line = refused(capsys, fresh)
    assert str(path) in line and OTHER_ID in line and CAMPAIGN_ID in line
    assert "a run of campaign" in line


@pytest.mark.parametrize("old, new, key", [
    ('set = "1.3"', 'set = "0"', "campaign.set = '0'"),
    ("seed = 1", "seed = 7", "random.seed = 7"),
    ('model = "sphere"', 'model = "polyhedron"', "ic.scenario.model = 'polyhedron'"),
    ("omega = 0.0001", "omega = 0.0002", "ic.motion.omega = 0.0002"),
])
def test_refuses_a_run_that_disagrees_with_its_entry(fresh, capsys, old, new, key):
    path = fresh.parent / run_name("1.3", 1, "sphere")
    edit_parameters(path, old, new)
    line = refused(capsys, fresh)
    assert str(path) in line and key in line and f"the index {fresh} says" in line


def test_refuses_a_run_without_campaign_parameters(fresh, capsys):
    path = fresh.parent / run_name("0", 1, "sphere")
    edit_parameters(path, "[campaign]", "[not_campaign]")
    line = refused(capsys, fresh)
    assert str(path) in line and "/parameters has no campaign.id" in line


@pytest.mark.parametrize("change, message", [
    ({"format": "rubble"}, "not a campaign index (format is 'rubble'"),
    ({"version": 2}, "campaign index version 2"),
    ({"id": "xyz"}, "id is 'xyz', not 16 hexadecimal digits"),
    ({"models": ["sphere", "cubes"]}, "models[1] is 'cubes', not one of"),
    ({"seeds": [1, 1]}, "seed 1 appears more than once"),
    ({"sets": [{"name": "0", "v0": 0.0, "w0": "fast", "omega": 0.0}]},
     "sets[0].w0 is 'fast', not a finite number"),
    ({"runs": [{"file": "a.h5", "set": "0", "seed": "x", "model": "sphere"}]},
     "runs[0].seed is 'x', not an integer"),
    ({"runs": [{"file": "a.h5", "seed": 1, "model": "sphere"}]}, "runs[0] has no 'set'"),
    ({"runs": [{"file": "a.h5", "set": "2.1", "seed": 1, "model": "sphere"}]},
     "runs[0].set is '2.1', not one of the index's sets (0, 1.3)"),
    ({"runs": []}, "runs is empty"),
])
def test_refuses_a_malformed_index(fresh, capsys, change, message):
    edit_index(fresh, **change)
    line = refused(capsys, fresh)
    assert line.startswith(f"error: {fresh}: ") and message in line, line


def test_refuses_an_index_missing_a_key_and_what_is_not_json(fresh, capsys):
    data = json.loads(fresh.read_text())
    del data["runs"]
    fresh.write_text(json.dumps(data))
    assert "has no 'runs'" in refused(capsys, fresh)
    fresh.write_text("[campaign]\nid = 1\n")
    assert "not a campaign index (not JSON" in refused(capsys, fresh)


def test_set_and_seed_only_for_a_campaign(fresh, capsys):
    run = fresh.parent / run_name("0", 1, "sphere")
    assert main(["compare", str(run), "--set", "0"]) == 2
    assert "--set, --seed and --finished" in capsys.readouterr().err
    assert main(["compare", str(run), "--finished"]) == 2
    assert "choose among a campaign's runs" in capsys.readouterr().err
    assert main(["compare", str(fresh), str(run)]) == 2
    assert "compared alone" in capsys.readouterr().err


def test_side_by_side_choice():
    """Set 0 seed 1 lacks its polyhedron run: the first set and seed run in every model is set 0
    seed 2, unless another is asked for."""
    campaign = index_without_one_run()
    assert view_choice(campaign, None, None) == ("0", 2)
    assert view_choice(campaign, None, 1) == ("1.3", 1)
    assert view_choice(campaign, "1.3", None) == ("1.3", 1)
    with pytest.raises(CampaignError, match=r"no set 0, seed 1 is run in every model"):
        view_choice(campaign, "0", 1)
    with pytest.raises(CampaignError, match=r"no set 9, seed any is run in every model"):
        view_choice(campaign, "9", None)


def index_without_one_run():
    """A campaign whose set 0 seed 1 has no polyhedron run (view_choice reads no run file)."""
    runs = [CampaignRun(run_name(s["name"], n, m), s["name"], n, m) for s in SETS
            for n in SEEDS for m in MODELS if (s["name"], n, m) != ("0", 1, "polyhedron")]
    return Campaign(path=None, name="t", id=CAMPAIGN_ID, campaign_file=CAMPAIGN_FILE,
                    models=MODELS, seeds=SEEDS,
                    sets=tuple(CampaignSet(**s) for s in SETS), runs=tuple(runs))


# The table ----------------------------------------------------------------------------------

def test_one_row_per_run_in_index_order(compared, campaign_dir):
    assert compared["rc"] == 0
    index = json.loads((campaign_dir / "campaign.json").read_text())
    assert compared["order"] == [(r["set"], r["seed"], r["model"]) for r in index["runs"]]
    with (compared["out"] / "campaign_runs.csv").open() as f:
        assert [(r["set"], int(r["seed"]), r["model"]) for r in csv.DictReader(f)] \
            == compared["order"]
    assert compared["header"]["id"] == CAMPAIGN_ID
    assert f"{DOMINANT_MASS_FRACTION:g} of the total mass" in compared["header"]["dominant"]


def test_status_and_the_one_warning_of_the_unfinished_run(compared):
    rows = compared["rows"]
    assert {rows[(s, n, "sphere")]["status"] for s in ("0", "1.3") for n in SEEDS} \
        == {"settled"}
    assert {rows[(s, n, "polyhedron")]["status"] for s in ("0", "1.3") for n in SEEDS} \
        == {"end"}
    assert rows[("0", 1, "aggregate")]["status"] == "end"  # complete, no stop_reason
    assert rows[("0", 2, "aggregate")]["status"] == "incomplete"
    warnings_ = compared["stderr"].splitlines()
    assert len(warnings_) == 1 and run_name("0", 2, "aggregate") in warnings_[0]
    assert warnings_[0].startswith("warning: ") and "did not finish" in warnings_[0]
    assert rows[("0", 2, "aggregate")]["time_s"] == 2.0  # its last snapshot, measured


def test_two_touching_spheres_and_an_escaper(compared):
    """Spheres of mass m, radius R at x = -R, R: I_x = 2 (2/5 m R^2), I_y = I_z = I_x +
    2 m R^2, so lambda = 2.8 / 0.8; turning rigidly at w, T = 2 pi / w exactly."""
    r = compared["rows"][("1.3", 1, "sphere")]
    m = DENSITY * 4.0 / 3.0 * math.pi
    assert r["n_bodies"] == 3 and r["n_aggregates"] == 1 and r["n_escapers"] == 1
    assert r["n_agg"] == 2 and r["n_agg_fraction"] == pytest.approx(2 / 3, rel=EPS)
    assert r["m_agg_kg"] == pytest.approx(2 * m, rel=4 * EPS)
    assert r["m_agg_fraction"] == pytest.approx(2 / 3, rel=4 * EPS)
    assert r["second_over_largest"] == 0.0 and r["dominant"] is True
    assert r["elongation"] == pytest.approx(3.5, rel=ROUND_OFF)
    assert r["period_s"] == pytest.approx(2 * math.pi / 1e-4, rel=ROUND_OFF)
    assert r["grain_density_kg_m3"] == pytest.approx(DENSITY, rel=4 * EPS)
    # T / T_crit with each bulk density, and the hull's (the larger volume) the longer T_crit.
    for volume in ("hull", "alpha"):
        t_crit = critical_period(r[f"bulk_density_{volume}_kg_m3"], G)
        assert r[f"critical_period_{volume}_s"] == pytest.approx(t_crit, rel=4 * EPS)
        assert r[f"period_over_critical_{volume}"] == pytest.approx(r["period_s"] / t_crit,
                                                                    rel=4 * EPS)
    assert r["critical_period_hull_s"] > r["critical_period_alpha_s"]
    assert 0.0 < r["porosity_alpha"] < r["porosity_hull"] < 1.0
    # Omega / w_crit, w_crit = sqrt(G M / R^3), R = the farthest centre's distance from the
    # centre of mass (at x = 100 / 3): 100 - 100/3 (centres, which the grain models share).
    reach = 100.0 - 100.0 / 3.0
    w_crit = math.sqrt(G * 3 * m / reach**3)
    assert r["omega_over_wcrit"] == pytest.approx(1e-4 / w_crit, rel=16 * EPS)
    assert r["v0_over_vesc"] == 0.0 and r["omega_rad_s"] == 1e-4


def test_two_equal_aggregates_are_not_dominant(compared):
    r = compared["rows"][("0", 2, "sphere")]
    assert r["n_aggregates"] == 2 and r["m_agg_fraction"] == pytest.approx(0.5, rel=4 * EPS)
    assert r["second_over_largest"] == pytest.approx(1.0, rel=4 * EPS)
    assert r["dominant"] is False


def test_dumbbells_of_rigid_grains(compared):
    """Four 1 m spheres at x = -3, -1, 1, 3 as two rigid grains: I_x = 4 (2/5) m R^2,
    I_y = I_x + m (9 + 1 + 1 + 9) R^2, lambda = 21.6 / 1.6."""
    r = compared["rows"][("1.3", 2, "aggregate")]
    assert r["n_agg"] == 2 and r["m_agg_fraction"] == pytest.approx(1.0, rel=4 * EPS)
    assert r["elongation"] == pytest.approx(13.5, rel=ROUND_OFF)
    assert r["period_s"] == pytest.approx(2 * math.pi / 2e-4, rel=ROUND_OFF)


def test_cubes_face_to_face(compared):
    """Two unit cubes side by side: I_x = 2 m/6, I_y = I_z = 2 m/6 + 2 m/4, lambda = 2.5; their
    hull is the 2 x 1 x 1 box they fill, so no porosity and T_crit of the grains' density."""
    r = compared["rows"][("1.3", 1, "polyhedron")]
    assert r["n_agg"] == 2 and r["elongation"] == pytest.approx(2.5, rel=ROUND_OFF)
    assert r["period_s"] == pytest.approx(2 * math.pi / 1e-4, rel=ROUND_OFF)
    assert abs(r["porosity_hull"]) <= ROUND_OFF
    assert r["critical_period_hull_s"] == pytest.approx(critical_period(1000.0, G),
                                                        rel=ROUND_OFF)


def test_spread_over_seeds(compared):
    """T = 2 pi / w at w = 1e-4 and 2e-4 rad/s: their mean, and their sample standard deviation
    |T1 - T2| / sqrt(2)."""
    s = compared["summary"][("sphere", "1.3")]
    t1, t2 = 2 * math.pi / 1e-4, 2 * math.pi / 2e-4
    assert s["runs"] == s["count"] == 2 and s["incomplete"] == 0
    assert s["period_s_mean"] == pytest.approx((t1 + t2) / 2, rel=ROUND_OFF)
    assert s["period_s_std"] == pytest.approx(abs(t1 - t2) / math.sqrt(2), rel=4 * ROUND_OFF)
    assert s["elongation_mean"] == pytest.approx(3.5, rel=ROUND_OFF)
    assert s["elongation_std"] == pytest.approx(0.0, abs=4 * ROUND_OFF)
    # Set 0: one dominant aggregate, one split pair.
    s0 = compared["summary"][("sphere", "0")]
    assert s0["dominant_count"] == 1 and s0["dominant_mean"] == 0.5
    assert s0["m_agg_fraction_mean"] == pytest.approx((2 / 3 + 1 / 2) / 2, rel=ROUND_OFF)
    # The unfinished aggregate run is counted apart, not averaged: one seed left, no spread.
    a0 = compared["summary"][("aggregate", "0")]
    assert (a0["runs"], a0["count"], a0["incomplete"]) == (2, 1, 1)
    assert a0["elongation_mean"] == pytest.approx(13.5, rel=ROUND_OFF)
    assert a0["elongation_std"] is None  # NaN in the JSON: undefined for one seed
    assert len(compared["summary"]) == len(MODELS) * len(SETS)


def test_a_pile_that_does_not_turn_reads_as_such(compared):
    """Set 0, seed 2 ends without spin: the row says so, the table prints "not turning" rather
    than a period, and the mean period over seeds is seed 1's alone."""
    r = compared["rows"][("0", 2, "sphere")]
    assert r["turning"] is False
    assert compared["rows"][("0", 1, "sphere")]["turning"] is True
    line = next(x for x in (compared["out"] / "campaign.md").read_text().splitlines()
                if x.startswith("| 0 | 2 | sphere |"))
    assert "| not turning | - |" in line
    s0 = compared["summary"][("sphere", "0")]
    assert s0["period_s_mean"] == pytest.approx(2 * math.pi / 5e-5, rel=ROUND_OFF)
    assert s0["turning_mean"] == 0.5


def test_initial_conditions_over_the_campaigns_maxima(compared):
    """As Ferrari et al. 2017 plot them: set 1.3 runs Omega at half the campaign's maximum
    (its level), and varies neither v0 nor w0."""
    r = compared["rows"][("1.3", 1, "sphere")]
    assert (r["omega_over_max"], r["v0_over_max"], r["w0_over_max"]) == (0.5, 0.0, 0.0)
    assert compared["rows"][("0", 1, "sphere")]["omega_over_max"] == 0.0
    assert compared["summary"][("sphere", "1.3")]["omega_over_max_mean"] == 0.5


def test_markdown_table_printed_and_saved(compared):
    text = (compared["out"] / "campaign.md").read_text()
    lines = text.splitlines()
    assert len(lines) == 2 + len(MODELS) * len(SETS) * len(SEEDS)
    assert text in compared["stdout"]
    assert "| 1.3 | 1 | sphere | settled | 2 | 0.667 | 3.500 |" in text
    assert "| 0 | 2 | sphere | settled | 2 | 0.500 |" in text and "| no |" in text


def test_figures_are_written(compared):
    for name in ("outcomes_vs_ic.png", "period.png", "porosity_density.png", "asteroids.png",
                 "extremes.png", "angular_momentum.png"):
        image = matplotlib.image.imread(compared["out"] / name)
        assert image.ndim == 3 and image.shape[0] > 300 and image.shape[1] > 300, name
        assert image[..., :3].std() > 0.01, f"{name} is blank"


def test_extremes_over_the_complete_runs_with_an_aggregate():
    """Per model the largest and smallest lambda and bulk density among the runs that finished
    with an aggregate: an unfinished run's more extreme values and a run without an aggregate
    are passed over, and a model with nothing to show has no extremes."""
    nan = float("nan")

    def row(model, seed, status, elongation, density):
        return {"model": model, "seed": seed, "status": status, "elongation": elongation,
                "bulk_density_hull_kg_m3": density}
    rows = [row("sphere", 1, "settled", 1.5, 1800.0), row("sphere", 2, "end", 2.5, 1500.0),
            row("sphere", 3, "incomplete", 9.0, 100.0), row("sphere", 4, "end", nan, nan),
            row("aggregate", 1, "settled", nan, nan)]
    picked = {(label, model): r["seed"] for label, model, r in extreme_rows(MODELS, rows)}
    assert picked == {("most elongated", "sphere"): 2, ("least elongated", "sphere"): 1,
                      ("densest", "sphere"): 1, ("loosest", "sphere"): 2}


def test_one_history_run_per_set_family():
    """The set's largest level at the first seed, each model in the index's order."""
    sets = (CampaignSet("0", 0.0, 0.0, 0.0, 0.0), CampaignSet("1.1@0.5", 0.1, 0.0, 0.0, 0.5),
            CampaignSet("1.1@1", 0.2, 0.0, 0.0, 1.0), CampaignSet("3@0.5", 0.1, 1.0, 1.0, 0.5))
    runs = tuple(CampaignRun(f"{s.name}_{seed}_{m}.h5", s.name, seed, m)
                 for s in sets for seed in (2, 7) for m in MODELS)
    campaign = Campaign(path=None, name="c", id=CAMPAIGN_ID, campaign_file="c.toml",
                        models=MODELS, seeds=(2, 7), sets=sets, runs=runs)
    chosen = history_runs(campaign)
    assert [name for name, _ in chosen] == ["0", "1.1@1", "3@0.5"]
    for name, entries in chosen:
        assert [(r.set, r.seed, r.model) for r in entries] == [(name, 2, m) for m in MODELS]


def test_angular_momentum_history_of_a_turning_pair(tmp_path):
    """Two touching spheres of mass m at x = -1, 1 turning rigidly at w about z, and a third at
    x = 100 at rest: about the centre of mass (x = 100/3, at rest) the orbital H = 2 m w z
    (the offset of the centre cancels between the pair's opposite velocities), and the total
    adds the spheres' own 2 (2/5 m r^2) w, to round-off at every snapshot."""
    w = 1e-4
    path = tmp_path / "pair.h5"
    write_run(path, n_snapshots=3, snapshot_at=lambda step: sphere_pair(w))
    with Run(path) as run:
        h = angular_momentum_history(run)
    m = DENSITY * 4.0 / 3.0 * np.pi
    assert list(h["time_s"]) == [0.0, 1.0, 2.0]
    scale = 100.0 * m * w  # the largest term of the sums: |r - R| m |v|
    np.testing.assert_allclose(h["orbital"], np.tile([0.0, 0.0, 2.0 * m * w], (3, 1)),
                               rtol=0, atol=ROUND_OFF * scale)
    np.testing.assert_allclose(h["total"], np.tile([0.0, 0.0, 2.8 * m * w], (3, 1)),
                               rtol=0, atol=ROUND_OFF * scale)


def test_default_output_beside_the_index(fresh):
    assert main(["compare", str(fresh), "--set", "1.3", "--seed", "2"]) == 0
    out = fresh.parent / "comparison"
    assert (out / "asteroids.png").is_file()
    assert len(json.loads((out / "campaign_runs.json").read_text())["rows"]) == 4


def test_index_read_directly(campaign_dir):
    campaign = read_index(campaign_dir / "campaign.json")
    assert campaign.models == MODELS and campaign.seeds == SEEDS
    assert [s.name for s in campaign.sets] == ["0", "1.3"] and len(campaign.runs) == 12
    assert campaign.run_path(campaign.runs[0]) == campaign_dir / run_name("0", 1, "sphere")


def test_a_run_without_aggregates(fresh):
    """Three spheres apart: no aggregate, its columns empty, not dominant; still drawn."""
    path = fresh.parent / run_name("0", 1, "sphere")
    apart = snapshot([[0.0, 0.0, 0.0], [10.0, 0.0, 0.0], [20.0, 0.0, 0.0]], 1.0)
    write_run(path, snapshot_at=lambda step: apart,
              parameters=campaign_parameters(CAMPAIGN_ID, "0", 1, "sphere", 0.0, 0.0, 0.0))
    out = fresh.parent / "out"
    assert main(["compare", str(fresh), "--output", str(out)]) == 0
    row = json.loads((out / "campaign_runs.json").read_text())["rows"][0]
    assert (row["set"], row["seed"], row["n_aggregates"], row["n_escapers"]) == ("0", 1, 0, 3)
    assert row["n_agg"] is None and row["elongation"] is None and row["dominant"] is False
    markdown = (out / "campaign.md").read_text()
    assert "| 0 | 1 | sphere | end | - | - | - | - | - | - | no |" in markdown
    assert (out / "asteroids.png").stat().st_size > 0


# The real binary --------------------------------------------------------------------------

TINY_CAMPAIGN = """
[campaign]
name = "tiny"
directory = "{directory}"
models = ["sphere", "aggregate", "polyhedron"]
seeds = [1]
sets = ["0", "1.3"]
levels = [1.0]
v0 = 0.05
w0 = 1.0e-3
omega = 5.0e-5

[integrator]
dt = 20.0
t_end = 20000.0

[gravity]
backend = "direct"

[collisions]
enabled = true

[output]
snapshot_interval = 10000.0

[ic.cloud]
n = 8
shape = "cube"
size = 600.0
radius_distribution = "uniform"
radius_min = 40.0
radius_max = 60.0
density = 3000.0
grain = "hull"
spheres_per_grain = 20
"""


def test_a_real_campaign(tmp_path, capsys):
    """Eight hulls of 40 to 60 m collapsing in a 600 m cube, in the three models: the table
    follows the index, every model's cloud has the same mass (the scenario's masses agree to
    16 eps, docs/campaigns.md), and a run file put in another's place is refused."""
    import shutil
    import subprocess

    from conftest import rubble_binary
    binary = rubble_binary()
    if subprocess.run([binary, "campaign", "--help"], capture_output=True).returncode != 0:
        pytest.skip("this rubble has no campaign command")
    params = tmp_path / "tiny.toml"
    params.write_text(TINY_CAMPAIGN.format(directory=tmp_path / "tiny"))
    subprocess.run([binary, "campaign", str(params), "--quiet"], check=True,
                   capture_output=True)
    index = tmp_path / "tiny" / "campaign.json"
    out = tmp_path / "compare"
    assert main(["compare", str(index), "--output", str(out)]) == 0
    listed = json.loads(index.read_text())
    rows = json.loads((out / "campaign_runs.json").read_text())["rows"]
    assert [(r["set"], r["seed"], r["model"]) for r in rows] \
        == [(r["set"], r["seed"], r["model"]) for r in listed["runs"]]
    omega = {s["name"]: s["omega"] for s in listed["sets"]}
    for r in rows:
        assert r["status"] in ("end", "settled") and r["n_bodies"] == 8
        assert r["omega_rad_s"] == omega[r["set"]] and r["v0_m_s"] == 0.0
        if r["n_agg"] is not None:
            assert 2 <= r["n_agg"] <= 8 and r["critical_period_hull_s"] > 0
    # The models share centres and masses, so they share the normalised initial conditions.
    for name in omega:
        xs = [r["omega_over_wcrit"] for r in rows if r["set"] == name]
        assert len(xs) == 3 and max(xs) - min(xs) <= 64 * EPS * max(xs)
    totals = [r["m_agg_kg"] / r["m_agg_fraction"] for r in rows if r["n_agg"] is not None]
    assert totals and max(totals) - min(totals) <= 64 * EPS * max(totals)
    for name in ("outcomes_vs_ic.png", "period.png", "porosity_density.png", "asteroids.png",
                 "extremes.png", "angular_momentum.png"):
        assert (out / name).stat().st_size > 0
    # Direct gravity is central and every contact impulse acts at one point on both bodies, so
    # the total angular momentum of the turning cloud (set 1.3) is kept to the round-off of
    # its 1000 steps, in every model.
    steps = 20000.0 / 20.0
    for entry in listed["runs"]:
        if entry["set"] == "0":
            continue
        with Run(index.parent / entry["file"]) as run:
            h = angular_momentum_history(run)
        start = np.linalg.norm(h["total"][0])
        assert start > 0 and len(h["time_s"]) == 3
        assert np.linalg.norm(h["total"][-1] - h["total"][0]) <= steps * 64 * EPS * start
    capsys.readouterr()
    files = {r["model"]: index.parent / r["file"] for r in listed["runs"]
             if r["set"] == "0"}
    shutil.copyfile(files["sphere"], files["polyhedron"])
    line = refused(capsys, index)
    assert "ic.scenario.model = 'sphere'" in line and "says 'polyhedron'" in line
