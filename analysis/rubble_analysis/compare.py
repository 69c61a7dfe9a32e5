"""`compare RUN_A.h5 RUN_B.h5 ...`: the final largest aggregates of several runs side by side,
and, for a sweep of initial conditions, against the normalised initial condition (as in
Ferrari et al. 2017, Figs. 6 and 8). A campaign index (`compare CAMPAIGN/campaign.json`) is
compared by campaign.py, from the same final_state of each run."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from .contacts import Aggregates  # noqa: E402
from .properties import AggregateProperties, measure  # noqa: E402
from .reader import Run, Snapshot  # noqa: E402
from .report import _json_safe, identify, write_table  # noqa: E402


def normalised_initial_condition(first, params: dict) -> dict:
    """v0 / v_esc and w0, Omega / w_crit with v_esc = sqrt(2 G M / R) and
    w_crit = sqrt(G M / R^3), R the largest distance of a body's centre from the centre of mass
    of the initial set. Centres, not surfaces: the grain models of one scenario (campaign.py)
    share centres and masses but not bounding radii, and must share their abscissae."""
    G = float(params["units"]["G"])
    m = float(first.mass.sum())
    com = np.average(first.position, axis=0, weights=first.mass)
    r = float(np.max(np.linalg.norm(first.position - com, axis=1))) or float(first.radius.max())
    motion = params["ic"]["motion"]
    v_esc, w_crit = np.sqrt(2 * G * m / r), np.sqrt(G * m / r**3)
    return {"v0_over_vesc": motion["v0"] / v_esc, "w0_over_wcrit": motion["w0"] / w_crit,
            "omega_over_wcrit": motion["omega"] / w_crit}


@dataclasses.dataclass(frozen=True)
class FinalState:
    """A run's last snapshot, its aggregates and the largest one measured (None without
    aggregates), with its row of the comparison table."""
    row: dict
    snapshot: Snapshot
    aggregates: Aggregates
    largest: AggregateProperties | None
    parameters: dict


def final_state(run: Run, tolerance: float, binding: bool) -> FinalState:
    """The comparison of an opened run: its final aggregates, the largest measured in full
    (hull and alpha-shape volumes)."""
    params = run.parameters
    first, final = run.snapshot(0), run.snapshot(-1)
    G = float(params["units"]["G"])
    aggs = identify(final, tolerance, G if binding else None)
    row = {"run": run.path.name, "time_s": final.time, "n_bodies": int(final.id.size),
           "n_aggregates": aggs.count, "n_escapers": int(aggs.escapers.size),
           **normalised_initial_condition(first, params)}
    props = None
    if aggs.count:
        props = measure(final, aggs.members(0))
        row.update({f"largest_{k}": v for k, v in props.as_row().items()})
    return FinalState(row=row, snapshot=final, aggregates=aggs, largest=props,
                      parameters=params)


def run_row(path: Path, tolerance: float, binding: bool) -> dict:
    with Run(path) as run:
        return final_state(run, tolerance, binding).row


def compare(paths: list[str | Path], outdir: str | Path, *, tolerance: float = 0.01,
            binding: bool = False) -> Path:
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    rows = [run_row(Path(p), tolerance, binding) for p in paths]
    keys = sorted({k for r in rows for k in r}, key=lambda k: (k != "run", k))
    rows = [{k: r.get(k, float("nan")) for k in keys} for r in rows]
    write_table(rows, outdir / "comparison.csv")
    (outdir / "comparison.json").write_text(
        json.dumps([{k: _json_safe(v) for k, v in r.items()} for r in rows], indent=1))

    names = [r["run"] for r in rows]
    quantities = (("largest_n", "bodies in the largest aggregate"),
                  ("largest_elongation", "elongation I_max / I_min"),
                  ("largest_period_s", "spin period [s]"),
                  ("largest_porosity_hull", "porosity (hull; bar: alpha)"))
    fig, axs = plt.subplots(1, 4, figsize=(18, 4.5))
    x = np.arange(len(rows))
    for ax, (key, label) in zip(axs, quantities):
        ax.bar(x, [r[key] for r in rows])
        if key == "largest_porosity_hull":
            ax.scatter(x, [r["largest_porosity_alpha"] for r in rows], color="k", marker="_",
                       s=400, zorder=3)
        ax.set_xticks(x, names, rotation=30, ha="right")
        ax.set_ylabel(label)
    fig.tight_layout()
    fig.savefig(outdir / "comparison.png", dpi=110)
    plt.close(fig)

    for ic_key in ("v0_over_vesc", "w0_over_wcrit", "omega_over_wcrit"):
        values = np.array([r[ic_key] for r in rows], dtype=float)
        if len(np.unique(values)) < 2:
            continue  # not swept
        order = np.argsort(values)
        fig, axs = plt.subplots(1, 3, figsize=(15, 4.5))
        for ax, (key, label) in zip(axs, quantities[:3]):
            ax.plot(values[order], np.array([r[key] for r in rows], dtype=float)[order], "o-")
            ax.set_xlabel(ic_key.replace("_over_", " / "))
            ax.set_ylabel(label)
        fig.tight_layout()
        fig.savefig(outdir / f"sweep_{ic_key}.png", dpi=110)
        plt.close(fig)
    return outdir
