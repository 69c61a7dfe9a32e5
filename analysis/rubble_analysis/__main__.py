"""Command line: /usr/bin/python3 -m rubble_analysis quicklook RUN.h5 [--output PNG]"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .quicklook import quicklook
from .reader import RunFormatError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rubble_analysis", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    q = sub.add_parser("quicklook", help="first/last snapshot and conservation plot (PNG)")
    q.add_argument("run", type=Path, help="rubble HDF5 output")
    q.add_argument("--output", type=Path, help="PNG file (default: RUN with .png)")
    args = parser.parse_args(argv)
    try:
        out = quicklook(args.run, args.output or args.run.with_suffix(".png"))
    except RunFormatError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"plot: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
