"""`compare CAMPAIGN/campaign.json`: the final asteroids of a campaign (issue 22; Ferrari et al.
2017, sec. 3.2 and Figs. 6-9) compared across its grain models, initial-condition sets and
seeds.

A campaign (`rubble campaign FILE.toml`) runs one scenario, N grains drawn once as convex hulls,
in three grain models (sphere, aggregate, polyhedron) over a sweep of initial-condition sets
(v0, w0, Omega) and seeds. Its index, campaign.json, lists the runs; the index and each run's
stored parameters must agree (campaign.id, campaign.set, random.seed, ic.scenario.model and
ic.motion): whatever does not is refused in one line (CampaignError) before any run is measured.

Outputs (in the output folder):
  campaign_runs.csv / .json   one row per run: set, seed, model, status (settled: the system
                              came to rest; end: it reached its end time; incomplete: it did not
                              finish, measured at its last snapshot), final time, bodies,
                              the initial condition over the campaign's maxima and normalised
                              by the cloud (compare.normalised_initial_condition),
                              the largest aggregate (n_agg, its share of the bodies and of the
                              mass, lambda = I_max / I_min, period T, T_crit for its hull and
                              alpha-shape bulk densities (properties.critical_period) and T /
                              T_crit, whether it turns, porosity and bulk density from both
                              volumes) and
                              `dominant` (below)
  campaign_summary.csv / .json  per (model, set): mean and sample standard deviation over the
                              seeds of the complete runs (incomplete ones are counted apart and
                              left out), the share of seeds with a dominant aggregate
  campaign.md                 a short markdown table of the runs (also printed)
  outcomes_vs_ic.png          lambda, T (logarithmic; piles not turning, NOT_TURNING_PERIODS,
                              marked apart) and N_agg against v0, w0 and Omega each over the
                              campaign's maximum, as Ferrari et al. 2017, Figs. 6-8, plot them
  period.png                  T against lambda and against M_agg (Fig. 9), T logarithmic
  porosity_density.png        porosity and bulk density of every run, per model
  asteroids.png               the three models' final largest aggregates of one set and seed,
                              in three orthogonal views about each one's centre of mass
  extremes.png                per model, the most and least elongated and the densest and
                              loosest final largest aggregates of the campaign (Figs. 8, 9),
                              each seen along its shortest axis
  angular_momentum.png        the orbital angular momentum H = sum m r x v about the centre of
                              mass, and the total with the grains' spins, against time, for one
                              run per set (its largest level, first seed) in every model (Figs.
                              3, 4)

`compare --finished` compares the runs of a sweep still under way that have finished so far
(finished_part): the others are counted (not run, unfinished) in the printed line, in the
tables' header (`left_out`) and above the markdown table.

A dominant aggregate formed when the largest aggregate holds at least DOMINANT_MASS_FRACTION of
the total mass and the second largest less than DOMINANT_SECOND_RATIO of the largest's mass: one
body, not a binary or a pair of comparable fragments, nor a cloud that never gathered.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import warnings
from pathlib import Path

import numpy as np

from .compare import FinalState, final_state
from .reader import Run, RunFormatError, _one_line
from .rigid import inertia_tensors
from .report import _json_safe, largest_summary, write_table

INDEX_FORMAT = "rubble campaign index"
INDEX_VERSIONS = (1,)
MODELS = ("sphere", "aggregate", "polyhedron")
CAMPAIGN_ID = re.compile(r"[0-9a-fA-F]{16}")

# A dominant aggregate: the largest holds at least half the mass, and the second largest less
# than a tenth of the largest's (so not a binary or a pair of comparable fragments).
DOMINANT_MASS_FRACTION = 0.5
DOMINANT_SECOND_RATIO = 0.1
DOMINANT_DEFINITION = (f"largest aggregate >= {DOMINANT_MASS_FRACTION:g} of the total mass and "
                       f"second largest < {DOMINANT_SECOND_RATIO:g} of the largest's mass")

# ic.motion in a run against its set in the index: the same numbers, written by rubble with at
# least 7 significant digits in either file.
MOTION_RTOL = 1e-6

# A largest aggregate slower than this many critical periods of its hull (properties.
# critical_period: some 3 h for these bulk densities, so some 3e4 h, years) is not turning: the
# slowest asteroids known turn in about 1e3 h, and what such a pile keeps is the angular
# momentum escapers and round-off left it (a period of 1e15 h read as a period would flatten
# every figure). Its row says turning = False and its period enters no mean.
NOT_TURNING_PERIODS = 1e4

# Each initial condition over the campaign's maximum of it, as Ferrari et al. 2017 plot their
# outcomes (0 to 1): the set's level for the quantities its family varies, 0 for the others.
OVER_MAXIMUM = (("v0_over_max", "v0"), ("w0_over_max", "w0"), ("omega_over_max", "omega"))

# Outcomes summarised over the seeds of a (model, set); the periods over the turning runs only.
PERIOD_QUANTITIES = ("period_s", "period_over_critical_hull", "period_over_critical_alpha")
SUMMARY_QUANTITIES = (
    "v0_over_max", "w0_over_max", "omega_over_max",
    "v0_over_vesc", "w0_over_wcrit", "omega_over_wcrit", "n_agg", "n_agg_fraction",
    "m_agg_kg", "m_agg_fraction", "elongation", "period_s", "period_over_critical_hull",
    "period_over_critical_alpha", "porosity_hull", "porosity_alpha", "bulk_density_hull_kg_m3",
    "bulk_density_alpha_kg_m3", "dominant", "turning")

# The largest aggregate's columns, NaN (dominant False) when the run has no aggregate.
LARGEST_COLUMNS = (
    "n_agg", "n_agg_fraction", "m_agg_kg", "m_agg_fraction", "second_over_largest",
    "dominant", "turning", "elongation", "b_over_a", "c_over_a", "period_s",
    "critical_period_hull_s",
    "critical_period_alpha_s", "period_over_critical_hull", "period_over_critical_alpha",
    "porosity_hull", "porosity_alpha", "bulk_density_hull_kg_m3", "bulk_density_alpha_kg_m3",
    "grain_density_kg_m3", "velocity_dispersion_m_s")


class CampaignError(RunFormatError):
    """A campaign index that is not one, or runs that do not belong to it."""


@dataclasses.dataclass(frozen=True)
class CampaignSet:
    name: str
    v0: float     # m/s
    w0: float     # rad/s
    omega: float  # rad/s
    level: float  # the fraction of the campaign's maxima its varied quantities take (0: set 0)


@dataclasses.dataclass(frozen=True)
class CampaignRun:
    file: str     # relative to the index's folder
    set: str
    seed: int
    model: str


@dataclasses.dataclass(frozen=True)
class Campaign:
    path: Path    # the index
    name: str
    id: str
    campaign_file: str
    models: tuple[str, ...]
    seeds: tuple[int, ...]
    sets: tuple[CampaignSet, ...]
    runs: tuple[CampaignRun, ...]

    def run_path(self, run: CampaignRun) -> Path:
        return self.path.parent / run.file

    def set_named(self, name: str) -> CampaignSet:
        return next(s for s in self.sets if s.name == name)


# The index ----------------------------------------------------------------------------------

def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) \
        and math.isfinite(value)


KINDS = {"a string": lambda v: isinstance(v, str) and v != "",
         "an integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
         "a finite number": _is_number,
         "a list": lambda v: isinstance(v, list)}


def _field(index: Path, entry, where: str, key: str, kind: str):
    """entry[key], which must be of kind (a key of KINDS); where names entry in messages."""
    if not isinstance(entry, dict):
        raise CampaignError(f"{index}: {where} is {_one_line(repr(entry))}, not an object")
    if key not in entry:
        raise CampaignError(f"{index}: {where} has no {key!r}")
    value = entry[key]
    if not KINDS[kind](value):
        raise CampaignError(f"{index}: {where}{'.' if where else ''}{key} is "
                            f"{_one_line(repr(value))}, not {kind}")
    return value


def _unique(index: Path, values: list, what: str) -> None:
    seen = set()
    for v in values:
        if v in seen:
            raise CampaignError(f"{index}: {what} {v!r} appears more than once")
        seen.add(v)


def read_index(path: str | Path, *, require_runs: bool = True) -> Campaign:
    """The campaign index at path, checked: its format and version, every key of its kind,
    sets, seeds and models unique, each run naming a set, seed and model of the index, once,
    and (require_runs) its file present. Raises CampaignError naming the index and the key."""
    index = Path(path)
    if not index.is_file():
        raise CampaignError(f"{index}: no such file")
    try:
        data = json.loads(index.read_text())
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CampaignError(f"{index}: not a campaign index (not JSON: {_one_line(exc)})") \
            from exc
    if not isinstance(data, dict) or data.get("format") != INDEX_FORMAT:
        found = data.get("format") if isinstance(data, dict) else None
        raise CampaignError(f"{index}: not a campaign index (format is "
                            f"{_one_line(repr(found))}, not {INDEX_FORMAT!r})")
    version = data.get("version")
    if version not in INDEX_VERSIONS or isinstance(version, bool):
        raise CampaignError(f"{index}: campaign index version {_one_line(repr(version))}; this "
                            f"analysis reads version {', '.join(map(str, INDEX_VERSIONS))}")
    name = _field(index, data, "", "name", "a string")
    cid = _field(index, data, "", "id", "a string")
    if not CAMPAIGN_ID.fullmatch(cid):
        raise CampaignError(f"{index}: id is {cid!r}, not 16 hexadecimal digits")
    campaign_file = _field(index, data, "", "campaign_file", "a string")
    models = _field(index, data, "", "models", "a list")
    for k, m in enumerate(models):
        if m not in MODELS:
            raise CampaignError(f"{index}: models[{k}] is {_one_line(repr(m))}, not one of "
                                f"{', '.join(MODELS)}")
    _unique(index, models, "model")
    seeds = _field(index, data, "", "seeds", "a list")
    for k, s in enumerate(seeds):
        if not KINDS["an integer"](s):
            raise CampaignError(f"{index}: seeds[{k}] is {_one_line(repr(s))}, not an integer")
    _unique(index, seeds, "seed")
    sets = []
    for k, entry in enumerate(_field(index, data, "", "sets", "a list")):
        where = f"sets[{k}]"
        sets.append(CampaignSet(
            name=_field(index, entry, where, "name", "a string"),
            **{key: float(_field(index, entry, where, key, "a finite number"))
               for key in ("v0", "w0", "omega", "level")}))
    _unique(index, [s.name for s in sets], "set")
    runs = [_index_run(index, entry, f"runs[{k}]", sets, seeds, models)
            for k, entry in enumerate(_field(index, data, "", "runs", "a list"))]
    if not runs:
        raise CampaignError(f"{index}: runs is empty")
    _unique(index, [(r.set, r.seed, r.model) for r in runs], "run (set, seed, model)")
    _unique(index, [r.file for r in runs], "run file")
    campaign = Campaign(path=index, name=name, id=cid, campaign_file=campaign_file,
                        models=tuple(models), seeds=tuple(seeds), sets=tuple(sets),
                        runs=tuple(runs))
    missing = [r for r in runs if not campaign.run_path(r).is_file()]
    if missing and require_runs:
        r = missing[0]
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        raise CampaignError(f"{index}: run file {r.file} (set {r.set}, seed {r.seed}, model "
                            f"{r.model}) does not exist{more}; run the campaign with "
                            f"'rubble campaign {campaign_file}'")
    return campaign


def _index_run(index: Path, entry, where: str, sets, seeds, models) -> CampaignRun:
    run = CampaignRun(file=_field(index, entry, where, "file", "a string"),
                      set=_field(index, entry, where, "set", "a string"),
                      seed=_field(index, entry, where, "seed", "an integer"),
                      model=_field(index, entry, where, "model", "a string"))
    for key, value, allowed in (("set", run.set, [s.name for s in sets]),
                                ("seed", run.seed, seeds), ("model", run.model, models)):
        if value not in allowed:
            raise CampaignError(f"{index}: {where}.{key} is {value!r}, not one of the index's "
                                f"{key}s ({', '.join(map(str, allowed))})")
    if Path(run.file).is_absolute():
        raise CampaignError(f"{index}: {where}.file is {run.file!r}, not relative to the "
                            "index's folder")
    return run


# The runs against the index -----------------------------------------------------------------

def _parameter(run: Run, campaign: Campaign, keys: tuple[str, ...]):
    value = run.parameters
    for key in keys:
        if not isinstance(value, dict) or key not in value:
            raise CampaignError(f"{run.path}: /parameters has no {'.'.join(keys)}: not a run "
                                f"of campaign {campaign.id} ({campaign.path})")
        value = value[key]
    return value


def check_run(campaign: Campaign, entry: CampaignRun, run: Run) -> None:
    """The run's stored parameters are those of its index entry: the campaign id, then set,
    seed, model (ic.type = "scenario") and ic.motion equal to the set's v0, w0, Omega."""
    cid = str(_parameter(run, campaign, ("campaign", "id")))
    if cid.lower() != campaign.id.lower():
        raise CampaignError(f"{run.path}: a run of campaign {cid}, not of campaign "
                            f"{campaign.id} ({campaign.path})")
    said = f"the index {campaign.path} says"
    for keys, expected in ((("campaign", "set"), entry.set), (("random", "seed"), entry.seed),
                           (("ic", "type"), "scenario"),
                           (("ic", "scenario", "model"), entry.model)):
        value = _parameter(run, campaign, keys)
        if value != expected or isinstance(value, bool):
            raise CampaignError(f"{run.path}: its parameters say {'.'.join(keys)} = "
                                f"{_one_line(repr(value))}, {said} {expected!r}")
    chosen = campaign.set_named(entry.set)
    for key in ("v0", "w0", "omega"):
        value = _parameter(run, campaign, ("ic", "motion", key))
        expected = getattr(chosen, key)
        if not math.isclose(value, expected, rel_tol=MOTION_RTOL, abs_tol=0.0):
            raise CampaignError(f"{run.path}: its parameters say ic.motion.{key} = {value!r}, "
                                f"{said} {expected!r} for set {entry.set}")


def run_status(run: Run) -> str:
    """settled (came to rest), end (reached its end time) or incomplete (did not finish)."""
    if not run.complete:
        return "incomplete"
    return "settled" if run.stop_reason == "settled" else "end"


def check_runs(campaign: Campaign) -> None:
    """Every run of the index opened and checked against it, before any is measured (the
    unfinished-run warning is left to the measuring pass, which gives it once)."""
    for entry in campaign.runs:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Run(campaign.run_path(entry)) as run:
                check_run(campaign, entry, run)


def finished_part(campaign: Campaign) -> tuple[Campaign, dict[str, int]]:
    """The campaign cut to its finished runs (settled or at their end time), for a look at a
    sweep still under way (`compare --finished`): the others counted as "not run" (no file
    yet) and "unfinished" (running, interrupted, or not a readable run). The cut campaign's
    sets and seeds are the index's; only its runs are fewer."""
    kept, left = [], {"not run": 0, "unfinished": 0}
    for entry in campaign.runs:
        path = campaign.run_path(entry)
        if not path.exists():
            left["not run"] += 1
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with Run(path) as run:
                    done = run.complete
        except (RunFormatError, OSError):
            done = False
        if done:
            kept.append(entry)
        else:
            left["unfinished"] += 1
    return dataclasses.replace(campaign, runs=tuple(kept)), left


# The table ----------------------------------------------------------------------------------

def campaign_row(entry: CampaignRun, status: str, state: FinalState) -> dict:
    """One run's row: where it sits in the campaign, how it ended, its final largest
    aggregate."""
    r, snap, aggs, props = state.row, state.snapshot, state.aggregates, state.largest
    motion = state.parameters["ic"]["motion"]
    row = {"set": entry.set, "seed": entry.seed, "model": entry.model, "file": entry.file,
           "status": status, "time_s": r["time_s"], "n_bodies": r["n_bodies"],
           "n_aggregates": r["n_aggregates"], "n_escapers": r["n_escapers"],
           "v0_m_s": float(motion["v0"]), "w0_rad_s": float(motion["w0"]),
           "omega_rad_s": float(motion["omega"]), "v0_over_vesc": r["v0_over_vesc"],
           "w0_over_wcrit": r["w0_over_wcrit"], "omega_over_wcrit": r["omega_over_wcrit"]}
    row.update({k: float("nan") for k in LARGEST_COLUMNS})
    row["dominant"] = False
    row["turning"] = False
    if props is None:
        return row
    G = float(state.parameters["units"]["G"])
    s = largest_summary(snap, aggs, props, G)
    second = float(snap.mass[aggs.members(1)].sum()) if aggs.count > 1 else 0.0
    ratio = second / props.mass
    row.update({
        "n_agg": props.n, "n_agg_fraction": props.n / r["n_bodies"], "m_agg_kg": props.mass,
        "m_agg_fraction": s["mass_fraction"], "second_over_largest": ratio,
        "dominant": bool(s["mass_fraction"] >= DOMINANT_MASS_FRACTION
                         and ratio < DOMINANT_SECOND_RATIO),
        "turning": bool(props.period < NOT_TURNING_PERIODS * s["critical_period_hull_s"]),
        "elongation": props.elongation, "b_over_a": s["b_over_a"], "c_over_a": s["c_over_a"],
        "period_s": props.period, "critical_period_hull_s": s["critical_period_hull_s"],
        "critical_period_alpha_s": s["critical_period_alpha_s"],
        "period_over_critical_hull": props.period / s["critical_period_hull_s"],
        "period_over_critical_alpha": props.period / s["critical_period_alpha_s"],
        "porosity_hull": props.porosity_hull, "porosity_alpha": props.porosity_alpha,
        "bulk_density_hull_kg_m3": props.mass / props.hull_volume,
        "bulk_density_alpha_kg_m3": props.mass / props.alpha_volume,
        "grain_density_kg_m3": props.grain_density,
        "velocity_dispersion_m_s": props.velocity_dispersion})
    return row


def over_maximum(campaign: Campaign, row: dict) -> dict:
    """The row's v0, w0 and Omega over the campaign's maxima (OVER_MAXIMUM): its set's level
    where the set varies the quantity (the campaign gave it level x maximum), else 0."""
    chosen = next(s for s in campaign.sets if s.name == row["set"])
    return {key: chosen.level if getattr(chosen, attribute) > 0 else 0.0
            for key, attribute in OVER_MAXIMUM}


def _statistics(values: list[float]) -> tuple[float, float]:
    """Mean and sample standard deviation (ddof 1; NaN for fewer than two) of the finite
    values."""
    v = np.array([x for x in values if math.isfinite(x)], dtype=float)
    if not len(v):
        return float("nan"), float("nan")
    return float(v.mean()), float(v.std(ddof=1)) if len(v) > 1 else float("nan")


def summarise(campaign: Campaign, rows: list[dict]) -> list[dict]:
    """Per (model, set) in the index's order: the runs, the complete ones counted and
    summarised over their seeds (mean, sample standard deviation), the incomplete counted."""
    out = []
    for model in campaign.models:
        for chosen in campaign.sets:
            group = [r for r in rows if r["model"] == model and r["set"] == chosen.name]
            if not group:
                continue
            done = [r for r in group if r["status"] != "incomplete"]
            summary = {"model": model, "set": chosen.name, "runs": len(group),
                       "count": len(done), "incomplete": len(group) - len(done),
                       "dominant_count": sum(bool(r["dominant"]) for r in done)}
            for key in SUMMARY_QUANTITIES:
                over = [r for r in done if r["turning"]] if key in PERIOD_QUANTITIES else done
                mean, std = _statistics([float(r[key]) for r in over])
                summary[f"{key}_mean"], summary[f"{key}_std"] = mean, std
            out.append(summary)
    return out


def _range(a: float, b: float, spec: str) -> str:
    if not (math.isfinite(a) and math.isfinite(b)):
        return "-"
    lo, hi = sorted((a, b))
    return f"{format(lo, spec)} to {format(hi, spec)}"


def markdown(rows: list[dict]) -> str:
    """The runs in a short markdown table: porosity and T / T_crit as the range from the
    alpha shape to the convex hull."""
    lines = ["| set | seed | model | status | N_agg | M_agg/M | lambda | T [h] | T/T_crit "
             "| porosity | dominant |", "|" + "---|" * 11]
    def number(value: float, spec: str) -> str:
        return format(value, spec) if math.isfinite(value) else "-"

    def period(r: dict) -> str:
        if math.isfinite(r["n_agg"]) and not r["turning"]:
            return "not turning"
        return number(r["period_s"] / 3600.0, ".3g")

    def critical(r: dict) -> str:
        if not r["turning"]:
            return "-"
        return _range(r["period_over_critical_hull"], r["period_over_critical_alpha"], ".3g")

    for r in rows:
        lines.append(
            f"| {r['set']} | {r['seed']} | {r['model']} | {r['status']} | "
            f"{number(r['n_agg'], '.0f')} | {number(r['m_agg_fraction'], '.3f')} | "
            f"{number(r['elongation'], '.3f')} | {period(r)} | "
            f"{critical(r)} | "
            f"{_range(r['porosity_alpha'], r['porosity_hull'], '.3f')} | "
            f"{'yes' if r['dominant'] else 'no'} |")
    return "\n".join(lines) + "\n"


def _write_json(path: Path, header: dict, rows: list[dict]) -> None:
    path.write_text(json.dumps({**header, "rows": [{k: _json_safe(v) for k, v in r.items()}
                                                   for r in rows]}, indent=1))


# Extremes and histories ---------------------------------------------------------------------

# The final largest aggregates drawn as the campaign's extremes (Ferrari et al. 2017, Figs. 8
# and 9): per model, the run whose row has the largest and the smallest of each key.
EXTREMES = (("most elongated", "elongation", max), ("least elongated", "elongation", min),
            ("densest", "bulk_density_hull_kg_m3", max),
            ("loosest", "bulk_density_hull_kg_m3", min))


def extreme_rows(models: tuple[str, ...], rows: list[dict]) -> list[tuple[str, str, dict]]:
    """(label, model, row) of each EXTREMES entry per model, over the complete runs with an
    aggregate; a model without one has none."""
    out = []
    for model in models:
        have = [r for r in rows if r["model"] == model and r["status"] != "incomplete"
                and math.isfinite(r["elongation"])]
        for label, key, pick in EXTREMES if have else ():
            out.append((label, model, pick(have, key=lambda r, key=key: r[key])))
    return out


def history_runs(campaign: Campaign) -> list[tuple[str, list[CampaignRun]]]:
    """One run per set family (0, 1.1, ..., 3) and model for the angular-momentum histories:
    the family's largest level at the first seed, in the index's model order."""
    best: dict[str, CampaignSet] = {}
    for s in campaign.sets:
        family = s.name.split("@")[0]
        if family not in best or s.level > best[family].level:
            best[family] = s
    seed = campaign.seeds[0]
    out = []
    for family, chosen in best.items():
        runs = [r for m in campaign.models for r in campaign.runs
                if (r.set, r.seed, r.model) == (chosen.name, seed, m)]
        if runs:
            out.append((chosen.name, runs))
    return out


def angular_momentum_history(run: Run) -> dict[str, np.ndarray]:
    """At every snapshot: time (s), the bodies' orbital angular momentum H = sum m_i (r_i -
    R) x (v_i - V) about the centre of mass R moving at V (Ferrari et al. 2017, Figs. 3 and 4),
    and the total, H plus each body's spin angular momentum I_i w_i (kg m^2/s, (n, 3) each).
    Gravity and the contacts conserve the total (to the method's error, docs/integrator.md);
    friction hands part of H to the grains' spins."""
    times, orbital, total = [], [], []
    for i in range(run.snapshot_count):
        snap = run.snapshot(i)
        m = snap.mass
        com = np.average(snap.position, axis=0, weights=m)
        vcm = np.average(snap.velocity, axis=0, weights=m)
        h = np.cross(snap.position - com, m[:, None] * (snap.velocity - vcm)).sum(0)
        own = inertia_tensors(snap.orientation, snap.principal_axes, snap.inertia)
        times.append(snap.time)
        orbital.append(h)
        total.append(h + np.einsum("nij,nj->i", own, snap.spin))
    return {"time_s": np.array(times), "orbital": np.array(orbital).reshape(-1, 3),
            "total": np.array(total).reshape(-1, 3)}


# The comparison -----------------------------------------------------------------------------

def view_choice(campaign: Campaign, set_name: str | None, seed: int | None) -> tuple[str, int]:
    """The set and seed whose final asteroids are drawn side by side: as asked (either may be
    left to default), else the first set and seed of the index run in every model."""
    have = {(r.set, r.seed, r.model) for r in campaign.runs}
    for s in campaign.sets:
        for n in campaign.seeds:
            if (set_name is None or s.name == set_name) and (seed is None or n == seed) \
                    and all((s.name, n, m) in have for m in campaign.models):
                return s.name, n
    asked = f"set {set_name or 'any'}, seed {'any' if seed is None else seed}"
    raise CampaignError(f"{campaign.path}: no {asked} is run in every model "
                        f"({', '.join(campaign.models)}) to draw side by side")


def compare_campaign(campaign: Campaign, outdir: str | Path, *, tolerance: float = 0.01,
                     binding: bool = False, view_set: str | None = None,
                     view_seed: int | None = None, left_out: dict[str, int] | None = None) -> Path:
    """The campaign's runs measured, tabulated, summarised over seeds and plotted in outdir.
    left_out: the runs finished_part cut (counts by reason), said in the tables' headers and
    above the markdown table, so that a partial comparison never reads as the whole."""
    from . import campaign_plots  # matplotlib only when plotting

    view = view_choice(campaign, view_set, view_seed)
    check_runs(campaign)
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    rows, states, asteroids = [], {}, {}
    for entry in campaign.runs:
        with Run(campaign.run_path(entry)) as run:
            status = run_status(run)
            state = final_state(run, tolerance, binding)
        rows.append(campaign_row(entry, status, state))
        rows[-1].update(over_maximum(campaign, rows[-1]))
        states[entry.file] = state
        if (entry.set, entry.seed) == view:
            asteroids[entry.model] = state
    summary = summarise(campaign, rows)
    criterion = (next(iter(asteroids.values())).aggregates.criterion if asteroids else "")
    header = {"campaign": campaign.name, "id": campaign.id, "index": str(campaign.path.resolve()),
              "campaign_file": campaign.campaign_file, "criterion": criterion,
              "dominant": DOMINANT_DEFINITION}
    if left_out is not None:
        header["left_out"] = dict(left_out)
    write_table(rows, outdir / "campaign_runs.csv")
    _write_json(outdir / "campaign_runs.json", header, rows)
    write_table(summary, outdir / "campaign_summary.csv")
    _write_json(outdir / "campaign_summary.json", header, summary)
    partial = ""
    if left_out is not None and sum(left_out.values()):
        partial = (f"Partial: {len(rows)} finished runs; left out "
                   + ", ".join(f"{n} {why}" for why, n in left_out.items()) + ".\n\n")
    (outdir / "campaign.md").write_text(partial + markdown(rows))
    campaign_plots.outcomes_vs_ic(campaign, rows, summary, outdir / "outcomes_vs_ic.png")
    campaign_plots.period_relations(campaign, rows, summary, outdir / "period.png")
    campaign_plots.porosity_density(campaign, rows, outdir / "porosity_density.png")
    campaign_plots.asteroids([(m, asteroids[m]) for m in campaign.models],
                             f"{campaign.name}: set {view[0]}, seed {view[1]}",
                             outdir / "asteroids.png")
    campaign_plots.extremes(campaign.name, [(label, model, row, states[row["file"]])
                                            for label, model, row in
                                            extreme_rows(campaign.models, rows)],
                            outdir / "extremes.png")
    histories = []
    for set_name, runs in history_runs(campaign):
        series = []
        for entry in runs:
            with Run(campaign.run_path(entry)) as run:
                series.append((entry.model, angular_momentum_history(run)))
        histories.append((set_name, series))
    campaign_plots.angular_momentum(campaign.name, histories, outdir / "angular_momentum.png")
    return outdir
