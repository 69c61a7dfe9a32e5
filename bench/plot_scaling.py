"""Time per force evaluation against N for direct summation and the tree at several theta
(the seeds' Fig. 4, Ferrari et al. 2020), from Google Benchmark's JSON output:

    build/release/bench/rubble_bench --benchmark_filter='DirectGravity|TreeGravity' \\
        --benchmark_format=json --benchmark_out=scaling.json
    /usr/bin/python3 bench/plot_scaling.py scaling.json scaling.png
"""

import json
import re
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

UNIT = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def main(path: str, output: str) -> None:
    with open(path) as f:
        runs = json.load(f)["benchmarks"]
    curves = defaultdict(list)
    for run in runs:
        seconds = run["real_time"] * UNIT[run["time_unit"]]
        name = run["run_name"]
        if name.startswith("BM_DirectGravity/"):
            curves["direct"].append((int(name.split("/")[1]), seconds))
            continue
        # The default walk groups only (the group-size sweep is a separate question).
        m = re.match(r"BM_TreeGravity/N:(\d+)/theta100:(\d+)/order:(\d+)/bucket:16/group:64/", name)
        if m:
            n, theta, order = int(m[1]), int(m[2]) / 100, int(m[3])
            label = f"tree theta={theta:g} {'quadrupole' if order == 2 else f'order {order}'}"
            curves[label].append((n, seconds))
    fig, ax = plt.subplots(figsize=(7, 5))
    for label, points in sorted(curves.items()):
        n, t = zip(*sorted(points))
        ax.loglog(n, t, "o-" if label == "direct" else ".-", label=label)
    ax.set_xlabel("N (bodies)")
    ax.set_ylabel("time per force evaluation incl. tree build [s]")
    ax.legend(fontsize=7)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(output, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
