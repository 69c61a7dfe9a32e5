"""`report RUN.h5`: aggregates and their properties per snapshot, the final state in full,
conservation, and pictures, written to one folder."""

from __future__ import annotations

import csv
import json
import math
import sys
from pathlib import Path

import numpy as np

from . import plots
from .conservation import conservation_series
from .contacts import grain_aggregates, sphere_pairs
from .properties import COLUMNS, critical_period, measure
from .reader import Run


def identify(snap, tolerance: float, G: float | None):
    """Aggregates of a snapshot's bodies, in contact through their spheres; with G, only
    gravitationally bound members count."""
    return grain_aggregates(snap, tolerance, G)


def snapshot_row(snap, aggs, largest) -> dict:
    nan = float("nan")
    return {
        "snapshot": snap.index, "step": snap.step, "time_s": snap.time,
        "n_bodies": int(snap.id.size), "n_aggregates": aggs.count,
        "n_escapers": int(aggs.escapers.size),
        "largest_n": largest.n if largest else 0,
        "largest_n_spheres": largest.n_spheres if largest else 0,
        "largest_mass_fraction": largest.mass / float(snap.mass.sum()) if largest else 0.0,
        "largest_elongation": largest.elongation if largest else nan,
        "largest_period_s": largest.period if largest else nan,
        "largest_porosity_hull": largest.porosity_hull if largest else nan,
        "largest_velocity_dispersion_m_s": largest.velocity_dispersion if largest else nan,
    }


def _composition(props) -> str:
    """What the bodies are made of, when not all free spheres: ", K spheres" (rigid
    aggregates among them), ", P polyhedra" or both."""
    if props.n_polyhedra == 0:
        return f", {props.n_spheres} spheres" if props.n_spheres != props.n else ""
    parts = [f"{props.n_polyhedra} polyhedra"]
    if props.n_spheres:
        parts.append(f"{props.n_spheres} spheres")
    return ", " + " and ".join(parts)


def largest_summary(snap, aggs, props, G: float) -> dict:
    """The largest aggregate of a snapshot in numbers and in words (`lines`, what `report`
    prints). The critical periods use the two bulk densities (hull and alpha shape), so a
    pile spinning slower than both is held by gravity alone, whatever its volume."""
    t_hull = critical_period(props.mass / props.hull_volume, G)
    t_alpha = critical_period(props.mass / props.alpha_volume, G)
    total_mass = float(snap.mass.sum())
    n_total = int(snap.id.size)
    # Escape speed from the surface of the sphere with the hull's volume: the scale against
    # which the bodies' remaining motion relative to the rigid rotation is small or not.
    r_eq = (3.0 * props.hull_volume / (4.0 * np.pi)) ** (1.0 / 3.0)
    v_esc = float(np.sqrt(2.0 * G * props.mass / r_eq))
    hours = props.period / 3600.0
    lines = [
        f"largest aggregate at t = {snap.time:.6g} s (step {snap.step}); {n_total} bodies in "
        f"{aggs.count} aggregate(s) and {aggs.escapers.size} escaper(s)",
        f"  ({aggs.criterion})",
        f"  bodies        {props.n} ({100.0 * props.n / n_total:.1f} % of all)"
        + _composition(props),
        f"  mass          {props.mass:.4g} kg ({100.0 * props.mass / total_mass:.1f} % of all)",
        f"  spin period   {hours:.3g} h ({props.period:.5g} s)",
        f"  critical      {t_hull / 3600.0:.3g} h (hull) to {t_alpha / 3600.0:.3g} h (alpha "
        f"shape): 2 pi / sqrt(4/3 pi G rho_bulk)",
        f"                it spins at {t_hull / props.period:.2f} to "
        f"{t_alpha / props.period:.2f} of the breakup rate",
        f"  elongation    lambda = I_max / I_min = {props.elongation:.3f}; ellipsoid b/a = "
        f"{props.axis_ratios[0]:.3f}, c/a = {props.axis_ratios[1]:.3f}",
        f"  porosity      {props.porosity_alpha:.3f} (alpha shape) to {props.porosity_hull:.3f} "
        f"(convex hull)",
        f"  bulk density  {props.mass / props.alpha_volume:.4g} (alpha shape) to "
        f"{props.mass / props.hull_volume:.4g} (convex hull) kg/m^3; grains "
        f"{props.grain_density:.4g} kg/m^3",
        f"  settling      rms speed about the rigid rotation {props.velocity_dispersion:.2g} m/s "
        f"(escape speed {v_esc:.2g} m/s)",
    ]
    return {"time_s": snap.time, "step": snap.step, "n": props.n, "n_spheres": props.n_spheres,
            "n_polyhedra": props.n_polyhedra, "n_bodies": n_total,
            "mass_kg": props.mass, "mass_fraction": props.mass / total_mass,
            "period_s": props.period, "critical_period_hull_s": float(t_hull),
            "critical_period_alpha_s": float(t_alpha), "elongation": props.elongation,
            "b_over_a": props.axis_ratios[0], "c_over_a": props.axis_ratios[1],
            "porosity_alpha": props.porosity_alpha, "porosity_hull": props.porosity_hull,
            "velocity_dispersion_m_s": props.velocity_dispersion,
            "escape_speed_m_s": v_esc, "lines": lines}


def overlap_warnings(snap) -> list[str]:
    """Overlapping spheres of different bodies (a run without collisions) make the grain
    volume count the shared parts twice, so porosities come out too low, even negative. The
    spheres of one rigid body may overlap by construction: their lenses count twice in its
    mass too (pkdgrav's convention, docs/aggregates.md), so its grain density is right, but
    the porosity is that of the summed sphere volumes, not of their union: said apart."""
    position, radius, body = snap.sphere_position, snap.sphere_radius, snap.sphere_body
    out = []
    pairs = sphere_pairs(position, radius, 0.0, body)
    if len(pairs):
        i, j = pairs[:, 0], pairs[:, 1]
        depth = (radius[i] + radius[j]) - np.linalg.norm(position[i] - position[j], axis=1)
        deep = depth > 0.01 * np.minimum(radius[i], radius[j])
        if deep.any():
            out.append(f"{int(deep.sum())} pairs of spheres overlap by more than 1 % of a "
                       f"radius (deepest {depth.max():.3g} m): porosities and bulk densities "
                       "are underestimated")
    inner = sphere_pairs(position, radius, -0.01, body, same_body=True)
    if len(inner):
        out.append(f"{len(np.unique(body[inner[:, 0]]))} rigid bodies have spheres of their "
                   "own overlapping by more than 1 % of a radius: the grain volume counts the "
                   "lenses twice, as their mass does (pkdgrav's convention), so porosities are "
                   "those of the spheres' summed volume, not of their union")
    return out


def _json_safe(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, (np.floating, np.integer)):
        return _json_safe(value.item())
    return value


def write_table(rows: list[dict], path: Path, columns: list[str] | None = None) -> None:
    """CSV with a header row; `columns` gives the header when there are no rows."""
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else list(columns or []))
        w.writeheader()
        w.writerows(rows)


def report(path: str | Path, outdir: str | Path, *, tolerance: float = 0.01,
           binding: bool = False, every: int = 1) -> Path:
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    with Run(path) as run:
        G = float(run.parameters["units"]["G"])
        count = run.snapshot_count
        rows = []
        final_aggs = None
        indices = sorted(set(range(0, count, max(every, 1))) | {count - 1})
        for i in indices:
            snap = run.snapshot(i)
            aggs = identify(snap, tolerance, G if binding else None)
            largest = measure(snap, aggs.members(0), volumes="hull") if aggs.count else None
            rows.append(snapshot_row(snap, aggs, largest))
            if i == count - 1:
                final_aggs = aggs
        final = run.snapshot(-1)
        first = run.snapshot(0)
        diag = run.diagnostics()
        info = {"file": str(Path(path).resolve()), "code_version": run.code_version,
                "complete": run.complete}
    aggs = final_aggs  # the last snapshot's, found in the loop
    warnings_ = overlap_warnings(final)
    for w in warnings_:
        print(f"warning: {w}", file=sys.stderr)
    final_props = [measure(final, aggs.members(k)) for k in range(aggs.count)]
    final_rows = [{"aggregate": k, **p.as_row()} for k, p in enumerate(final_props)]

    largest_info = largest_summary(final, aggs, final_props[0], G) if aggs.count else None
    lines = largest_info["lines"] if largest_info else ["no aggregate in the last snapshot"]
    (outdir / "largest.txt").write_text("\n".join(lines) + "\n")

    write_table(rows, outdir / "summary.csv")
    write_table(final_rows, outdir / "final_aggregates.csv", ["aggregate", *COLUMNS])
    series = conservation_series(diag, float(first.mass.sum()))
    write_table([dict(zip(series, values)) for values in zip(*series.values())],
                outdir / "conservation.csv")
    summary = {
        **info, "criterion": aggs.criterion, "time_s": final.time, "step": final.step,
        "n_bodies": int(final.id.size), "n_spheres": int(final.sphere_body.size),
        "n_polyhedra": int(final.hull_body.size),
        "n_aggregates": aggs.count, "n_escapers": int(aggs.escapers.size),
        "largest": ({k: _json_safe(v) for k, v in largest_info.items()}
                    if largest_info else None),
        "final_aggregates": [{k: _json_safe(v) for k, v in r.items()} for r in final_rows],
        "snapshots": [{k: _json_safe(v) for k, v in r.items()} for r in rows],
        "max_energy_error": float(np.max(series["energy_error"])),
        "warnings": warnings_,
    }
    (outdir / "summary.json").write_text(json.dumps(summary, indent=1))

    plots.conservation(series, outdir / "conservation.png")
    plots.projections(final, aggs.labels,
                      f"{Path(path).name}: t = {final.time:.4g} s, {aggs.count} aggregates, "
                      f"{aggs.escapers.size} escapers ({aggs.criterion})",
                      outdir / "views.png")
    if aggs.count:
        p = final_props[0]
        plots.aggregate_shape(final, aggs.members(0), p,
                              f"largest aggregate: N = {p.n}, lambda = {p.elongation:.3f}, "
                              f"T = {p.period / 3600:.3g} h, porosity "
                              f"{p.porosity_alpha:.2f} to {p.porosity_hull:.2f}",
                              outdir / "largest.png")
    plots.time_series(rows, outdir / "timeseries.png")
    return outdir
