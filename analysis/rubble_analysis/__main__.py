"""rubble_analysis: read rubble runs, find and measure aggregates, plot, compare.

  /usr/bin/python3 -m rubble_analysis quicklook RUN.h5 [--output PNG]
  /usr/bin/python3 -m rubble_analysis report RUN.h5 [--output DIR] [--tolerance T] [--bound]
  /usr/bin/python3 -m rubble_analysis compare RUN.h5 RUN.h5 ... [--output DIR]
  /usr/bin/python3 -m rubble_analysis compare CAMPAIGN/campaign.json [--output DIR]
                                                 [--set NAME] [--seed N]
  /usr/bin/python3 -m rubble_analysis couette RUN.h5 [--bins N] [--since T] [--output PNG]
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

from .campaign import compare_campaign, finished_part, read_index
from .compare import compare
from .couette import couette_profile, format_profile, plot_profile
from .quicklook import quicklook
from .reader import RunFormatError, check_before_reading
from .report import report


def _identification_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tolerance", type=float, default=0.01,
                   help="contact when the surface gap <= TOLERANCE x the smaller radius "
                        "(default 0.01)")
    p.add_argument("--bound", action="store_true",
                   help="keep only bodies gravitationally bound to their aggregate")


# Seconds a child process may take to open an input before it counts as hung (reader.py,
# check_before_reading); opening reads only attributes and dataset shapes.
OPEN_TIMEOUT = 60


def _is_campaign(args) -> bool:
    """compare of one campaign index (a .json file), not of run files."""
    if args.command != "compare" or not any(p.suffix == ".json" for p in args.runs):
        return False
    if len(args.runs) > 1:
        raise RunFormatError(f"{next(p for p in args.runs if p.suffix == '.json')}: a "
                             "campaign index is compared alone, not with other files")
    return True


def _compare_campaign(args) -> Path:
    campaign = read_index(args.runs[0], require_runs=not args.finished)
    left = None
    if args.finished:
        for entry in campaign.runs:
            if campaign.run_path(entry).exists():
                check_before_reading(campaign.run_path(entry), OPEN_TIMEOUT)
        total = len(campaign.runs)
        campaign, left = finished_part(campaign)
        print(f"compare: {len(campaign.runs)} of {total} runs finished; left out: "
              f"{left['not run']} not run, {left['unfinished']} unfinished", file=sys.stderr)
        if not campaign.runs:
            raise RunFormatError(f"{campaign.path}: no run of the campaign has finished yet")
    else:
        for entry in campaign.runs:
            check_before_reading(campaign.run_path(entry), OPEN_TIMEOUT)
    out = args.output or campaign.path.parent / "comparison"
    return compare_campaign(campaign, out, tolerance=args.tolerance, binding=args.bound,
                            view_set=args.set, view_seed=args.seed, left_out=left)


def _run(args) -> Path:
    if _is_campaign(args):
        return _compare_campaign(args)
    if args.command == "compare" and (args.set is not None or args.seed is not None
                                      or args.finished):
        raise RunFormatError("--set, --seed and --finished choose among a campaign's runs: "
                             "give one campaign index (campaign.json)")
    for path in args.runs if args.command == "compare" else [args.run]:
        check_before_reading(path, OPEN_TIMEOUT)
    if args.command == "quicklook":
        return quicklook(args.run, args.output or args.run.with_suffix(".png"))
    if args.command == "couette":
        profile = couette_profile(args.run, bins=args.bins, since=args.since)
        print(format_profile(profile), end="")
        return plot_profile(profile, args.output) if args.output else args.run
    if args.command == "report":
        return report(args.run, args.output or args.run.with_name(args.run.stem + "_report"),
                      tolerance=args.tolerance, binding=args.bound, every=args.every)
    return compare(args.runs, args.output or Path("comparison"), tolerance=args.tolerance,
                   binding=args.bound)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rubble_analysis", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    q = sub.add_parser("quicklook", help="first/last snapshot and conservation plot (PNG)")
    q.add_argument("run", type=Path)
    q.add_argument("--output", type=Path, help="PNG file (default: RUN with .png)")
    r = sub.add_parser("report", help="aggregates, properties, conservation, pictures; prints "
                                      "the largest aggregate of the last snapshot")
    r.add_argument("run", type=Path)
    r.add_argument("--output", type=Path, help="folder (default: RUN without .h5 + _report)")
    r.add_argument("--every", type=int, default=1, help="analyse every EVERY-th snapshot")
    _identification_options(r)
    c = sub.add_parser("compare", help="final largest aggregates of several runs, or of a "
                                       "campaign's runs across grain models, sets and seeds")
    c.add_argument("runs", type=Path, nargs="+",
                   help="run files, or one campaign index (campaign.json, written by "
                        "'rubble campaign'): a table per run and per (model, set) over seeds, "
                        "outcome plots of the three grain models, their final asteroids")
    c.add_argument("--output", type=Path, help="folder (default: comparison; for a campaign, "
                                                "comparison beside the index)")
    c.add_argument("--set", help="campaign: the set whose final asteroids are drawn side by "
                                 "side (default: the first set run in every model)")
    c.add_argument("--seed", type=int, help="campaign: the seed of that picture (default: the "
                                            "first one run in every model)")
    c.add_argument("--finished", action="store_true",
                   help="campaign: compare the runs that have finished so far and leave out "
                        "the others (not run yet, running, interrupted), saying how many; "
                        "without it every run of the index must have a file")
    _identification_options(c)
    t = sub.add_parser("couette", help="azimuthal velocity profile v_theta(r) about the z axis "
                                       "(a Taylor-Couette cell), averaged over snapshots")
    t.add_argument("run", type=Path)
    t.add_argument("--bins", type=int, default=10, help="radial bins (default 10)")
    t.add_argument("--since", type=float, help="average snapshots from this time (s; default: "
                                               "the second half of the run)")
    t.add_argument("--output", type=Path, help="also plot the profile to this PNG")
    args = parser.parse_args(argv)
    # A damaged input file is reported in one line, never a traceback: the reader turns every
    # fault it finds into RunFormatError, and OSError covers an output that cannot be
    # written. Any other exception is a bug and keeps its traceback.
    # Warnings (an unfinished run) are held back and printed one line each once the command
    # has succeeded, so that a refused file gets its one error line alone.
    try:
        with warnings.catch_warnings(record=True) as caught:
            out = _run(args)
    except (RunFormatError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for warning in caught:
        print(f"warning: {warning.message}", file=sys.stderr)
    if args.command == "report":
        print((out / "largest.txt").read_text(), end="")
    if _is_campaign(args):
        print((out / "campaign.md").read_text(), end="")
    print(f"{args.command}: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
