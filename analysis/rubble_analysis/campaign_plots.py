"""Pictures of a campaign comparison (campaign.py): the outcomes of the three grain models on
the same panels (one colour and marker each), as Ferrari et al. 2017, Figs. 6-9, and the final
asteroids of one set and seed side by side. A point is a (model, set) mean over the seeds of
its complete runs, its error bars their sample standard deviation (none for a single seed);
incomplete runs are drawn alone as hollow markers. Every axis is labelled with its unit."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from .plots import AXES, VIEWS, draw_hulls, draw_spheres, hull_vertices  # noqa: E402

MODEL_STYLE = {"sphere": ("tab:blue", "o"), "aggregate": ("tab:orange", "s"),
               "polyhedron": ("tab:green", "^")}

# Each initial condition over the campaign's maximum, the abscissae of Ferrari et al. 2017's
# Figs. 6-8 (campaign.OVER_MAXIMUM).
INITIAL_CONDITIONS = (("v0_over_max", "v0 / v0_max"), ("w0_over_max", "w0 / w0_max"),
                      ("omega_over_max", "Omega / Omega_max"))
HOURS = 3600.0
GRAINS = plt.get_cmap("tab20")


def _series(summary: list[dict], model: str, key: str, scale: float = 1.0):
    """Means and standard deviations (0 where undefined) of key over the model's sets."""
    rows = [s for s in summary if s["model"] == model and s["count"]]
    mean = np.array([s[f"{key}_mean"] for s in rows], dtype=float) / scale
    std = np.nan_to_num(np.array([s[f"{key}_std"] for s in rows], dtype=float) / scale)
    return mean, std, [s["set"] for s in rows]


def _incomplete(ax, rows: list[dict], model: str, x_key: str, y_key: str,
                x_scale: float = 1.0, y_scale: float = 1.0) -> None:
    color, marker = MODEL_STYLE[model]
    # (A pile that does not turn has no period to draw: _not_turning marks it.)
    late = [r for r in rows if r["model"] == model and r["status"] == "incomplete"
            and (y_key != "period_s" or r["turning"])]
    if late:
        ax.scatter([r[x_key] / x_scale for r in late], [r[y_key] / y_scale for r in late],
                   marker=marker, facecolors="none", edgecolors=color, zorder=3)


def _means(ax, summary, model, x_key, y_key, x_scale=1.0, y_scale=1.0, label=None):
    """The model's (set) means with their spreads; sets without a value (no aggregate) left
    out."""
    color, marker = MODEL_STYLE[model]
    x, xerr, names = _series(summary, model, x_key, x_scale)
    y, yerr, _ = _series(summary, model, y_key, y_scale)
    keep = np.isfinite(x) & np.isfinite(y)
    x, xerr, y, yerr = x[keep], xerr[keep], y[keep], yerr[keep]
    ax.errorbar(x, y, xerr=xerr, yerr=yerr, fmt=marker, color=color, capsize=3, label=label)
    return x, y, [n for n, k in zip(names, keep) if k]


def _not_turning(ax, rows: list[dict], model: str, x_key: str, x_scale: float = 1.0) -> None:
    """The model's runs whose largest aggregate does not turn (campaign.NOT_TURNING_PERIODS),
    at the top of a logarithmic period axis: a period they do not have would flatten the
    others."""
    color, _ = MODEL_STYLE[model]
    still = [r for r in rows if r["model"] == model and np.isfinite(r["n_agg"])
             and not r["turning"]]
    if still:
        ax.scatter([r[x_key] / x_scale for r in still], [1.0] * len(still), marker="v",
                   color=color, transform=ax.get_xaxis_transform(), clip_on=False, zorder=3,
                   label=f"{model}: not turning")


def _period_axis(ax, rows: list[dict]) -> None:
    """A logarithmic period axis; where no run's pile turns (a campaign from rest, or the first
    runs of a sweep) it has nothing positive to scale by, so it shows 1 to 1e4 h, empty."""
    ax.set_yscale("log")
    if not any(r["turning"] and np.isfinite(r["period_s"]) for r in rows):
        ax.set_ylim(1.0, 1e4)
    ax.set_ylabel("T [h] (top: not turning)")


def outcomes_vs_ic(campaign, rows: list[dict], summary: list[dict], path: Path) -> None:
    """lambda, T and N_agg (rows) against the three normalised initial conditions (columns),
    each point labelled with its set."""
    outcomes = (("elongation", "lambda = I_max / I_min", 1.0), ("period_s", "T [h]", HOURS),
                ("n_agg", "N_agg [bodies]", 1.0))
    fig, axs = plt.subplots(3, 3, figsize=(15, 12), squeeze=False)
    for i, (y_key, y_label, y_scale) in enumerate(outcomes):
        for j, (x_key, x_label) in enumerate(INITIAL_CONDITIONS):
            ax = axs[i, j]
            for k, model in enumerate(campaign.models):
                x, y, names = _means(ax, summary, model, x_key, y_key, 1.0, y_scale,
                                     model if i == j == 0 else None)
                _incomplete(ax, rows, model, x_key, y_key, 1.0, y_scale)
                if y_key == "period_s":
                    _not_turning(ax, rows, model, x_key)
                if k == 0:
                    for xi, yi, name in zip(x, y, names):
                        ax.annotate(name, (xi, yi), textcoords="offset points",
                                    xytext=(4, 4), fontsize=7)
            ax.set_xlabel(x_label)
            ax.set_ylabel(y_label)
            ax.set_xlim(-0.05, 1.05)  # 0 to the maximum, as the paper's axes
            if y_key == "period_s":
                _period_axis(ax, rows)
    axs[0, 0].legend()
    fig.suptitle(f"{campaign.name}: final largest aggregate against the initial condition "
                 "(mean and spread over seeds; hollow: incomplete runs)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def period_relations(campaign, rows: list[dict], summary: list[dict], path: Path) -> None:
    """T against lambda and against M_agg, per (model, set)."""
    fig, axs = plt.subplots(1, 2, figsize=(13, 5))
    for model in campaign.models:
        _means(axs[0], summary, model, "elongation", "period_s", 1.0, HOURS, model)
        _incomplete(axs[0], rows, model, "elongation", "period_s", 1.0, HOURS)
        _means(axs[1], summary, model, "m_agg_kg", "period_s", 1.0, HOURS)
        _incomplete(axs[1], rows, model, "m_agg_kg", "period_s", 1.0, HOURS)
        _not_turning(axs[0], rows, model, "elongation")
        _not_turning(axs[1], rows, model, "m_agg_kg")
    axs[0].set_xlabel("lambda = I_max / I_min")
    axs[1].set_xlabel("M_agg [kg]")
    for ax in axs:
        _period_axis(ax, rows)
    axs[0].legend()
    fig.suptitle(f"{campaign.name}: spin period of the largest aggregate")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def porosity_density(campaign, rows: list[dict], path: Path) -> None:
    """Every run's porosity and bulk density per model, as the segment from the alpha shape's
    value to the convex hull's (marker: hull), spread sideways within the model's column;
    incomplete runs faded."""
    panels = (("porosity", "porosity_alpha", "porosity_hull", "porosity"),
              ("bulk density", "bulk_density_alpha_kg_m3", "bulk_density_hull_kg_m3",
               "bulk density [kg/m^3]"))
    fig, axs = plt.subplots(1, 2, figsize=(13, 5))
    for ax, (_, alpha_key, hull_key, label) in zip(axs, panels):
        for k, model in enumerate(campaign.models):
            color, marker = MODEL_STYLE[model]
            mine = [r for r in rows if r["model"] == model]
            x = k + (np.linspace(-0.25, 0.25, len(mine)) if len(mine) > 1 else np.zeros(1))
            for xi, r in zip(x, mine):
                fade = 0.35 if r["status"] == "incomplete" else 1.0
                ax.plot([xi, xi], [r[alpha_key], r[hull_key]], color=color, alpha=fade)
                ax.plot([xi], [r[hull_key]], marker=marker, color=color, alpha=fade)
        ax.set_xticks(range(len(campaign.models)), campaign.models)
        ax.set_xlim(-0.6, len(campaign.models) - 0.4)
        ax.set_ylabel(f"{label} (alpha shape to hull: marker)")
    fig.suptitle(f"{campaign.name}: porosity and bulk density of the largest aggregates "
                 "(every run; faded: incomplete)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _asteroid(state):
    """The largest aggregate's spheres and hull vertices about its centre of mass (all bodies
    about theirs when there is no aggregate)."""
    snap, aggs, props = state.snapshot, state.aggregates, state.largest
    members = aggs.members(0) if aggs.count else np.arange(len(snap.id))
    centre = props.com if props is not None else np.average(snap.position, axis=0,
                                                            weights=snap.mass)
    spheres = snap.spheres_of(members)
    vertices, start, hull_body = hull_vertices(snap, members)
    # One colour per grain, so that the spheres of one rigid aggregate read as one grain.
    rank = np.zeros(len(snap.id), dtype=np.int64)
    rank[members] = np.arange(len(members))
    return (snap.sphere_position[spheres] - centre, snap.sphere_radius[spheres],
            vertices - centre, start, GRAINS(rank[snap.sphere_body[spheres]] % 20),
            GRAINS(rank[hull_body] % 20))


def asteroids(states: list[tuple[str, object]], title: str, path: Path) -> None:
    """The final largest aggregate of each model (columns) in the xy, xz and yz views (rows)
    about its centre of mass, all to one scale, one colour per grain; aggregate grains through
    their spheres, polyhedra as their projections."""
    shapes = [(model, state, _asteroid(state)) for model, state in states]
    extent = 1.05 * max([max(float(np.max(np.abs(s[0]) + s[1][:, None], initial=0.0)),
                             float(np.max(np.abs(s[2]), initial=0.0)))
                         for _, _, s in shapes] + [1e-300])
    fig, axs = plt.subplots(3, len(shapes), figsize=(4.6 * len(shapes), 13), squeeze=False)
    for col, (model, state, (rel, radius, vertices, start, colors, hull_colors)) \
            in enumerate(shapes):
        for row, (i, j) in enumerate(VIEWS):
            ax = axs[row, col]
            draw_spheres(ax, rel[:, [i, j]], radius, colors, extent)
            draw_hulls(ax, vertices[:, [i, j]], start, hull_colors)
            ax.set_xlabel(f"{AXES[i]} - {AXES[i]}_cm [m]")
            ax.set_ylabel(f"{AXES[j]} - {AXES[j]}_cm [m]")
        p = state.largest
        axs[0, col].set_title(
            f"{model}: no aggregate" if p is None else
            f"{model}: N_agg = {p.n}\nlambda = {p.elongation:.3f}, T = {p.period / HOURS:.3g} h",
            fontsize=10)
    fig.suptitle(f"{title}: final largest aggregates")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def extremes(name: str, chosen: list[tuple[str, str, dict, object]], path: Path) -> None:
    """The campaign's extreme final largest aggregates (campaign.EXTREMES; columns) of each
    model (rows), each in its principal frame seen along its shortest axis (the plane of its
    longest and middle axes, a and b), all to one scale, one colour per grain."""
    labels = list(dict.fromkeys(label for label, *_ in chosen))
    models = list(dict.fromkeys(model for _, model, *_ in chosen))
    fig, axs = plt.subplots(max(len(models), 1), max(len(labels), 1),
                            figsize=(4.2 * max(len(labels), 1), 4.4 * max(len(models), 1)),
                            squeeze=False)
    shapes = []
    for label, model, row, state in chosen:
        rel, radius, vertices, start, colors, hull_colors = _asteroid(state)
        # Columns of principal_axes go with ascending moments: the first is the longest axis.
        axes = state.largest.principal_axes
        shapes.append((label, model, row, rel @ axes, radius, vertices @ axes, start, colors,
                       hull_colors))
    extent = 1.05 * max([max(float(np.max(np.abs(s[3][:, :2]) + s[4][:, None], initial=0.0)),
                             float(np.max(np.abs(s[5][:, :2]), initial=0.0)))
                         for s in shapes] + [1e-300])
    for label, model, row, rel, radius, vertices, start, colors, hull_colors in shapes:
        ax = axs[models.index(model), labels.index(label)]
        draw_spheres(ax, rel[:, :2], radius, colors, extent)
        draw_hulls(ax, vertices[:, :2], start, hull_colors)
        ax.set_xlabel("a, longest axis [m]")
        ax.set_ylabel("b, middle axis [m]")
        ax.set_title(f"{model}, {label}: set {row['set']}, seed {row['seed']}\n"
                     f"lambda = {row['elongation']:.3f}, "
                     f"rho_hull = {row['bulk_density_hull_kg_m3']:.0f} kg/m^3",
                     fontsize=9)
    for ax in axs.flat:
        if not ax.has_data():
            ax.set_axis_off()
    fig.suptitle(f"{name}: the extreme final largest aggregates of each model")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def angular_momentum(name: str, histories: list[tuple[str, list[tuple[str, dict]]]],
                     path: Path) -> None:
    """|H| (orbital, solid) and the total with the grains' spins (dashed) against time, one
    panel per set, the models in their colours (campaign.angular_momentum_history)."""
    n = max(len(histories), 1)
    columns = min(n, 4)
    rows = -(-n // columns)
    fig, axs = plt.subplots(rows, columns, figsize=(4.6 * columns, 3.8 * rows), squeeze=False)
    for ax, (set_name, series) in zip(axs.flat, histories):
        for model, h in series:
            color, _ = MODEL_STYLE[model]
            hours = h["time_s"] / HOURS
            ax.plot(hours, np.linalg.norm(h["orbital"], axis=1), color=color, label=model)
            ax.plot(hours, np.linalg.norm(h["total"], axis=1), color=color, linestyle="--",
                    linewidth=0.8)
        ax.set_title(f"set {set_name}", fontsize=10)
        ax.set_xlabel("t [h]")
        ax.set_ylabel("|H| [kg m^2/s]")
    for ax in list(axs.flat)[len(histories):]:
        ax.set_axis_off()
    if histories:
        axs[0, 0].legend(fontsize=8)
    fig.suptitle(f"{name}: orbital angular momentum about the centre of mass (solid) and the "
                 "total with the grains' spins (dashed)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
