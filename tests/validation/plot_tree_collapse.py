"""Plot tree_collapse.csv (written by rubble_slow_tests, TreeCollapse): the largest position
error of tree runs against the direct-summation run over a cold collapse, as in Ferrari et
al. 2020, Fig. 5.

    /usr/bin/python3 tests/validation/plot_tree_collapse.py build/release/tests/tree_collapse.csv out.png
"""

import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(path: str, output: str) -> None:
    series = defaultdict(list)
    with open(path) as f:
        for row in csv.DictReader(f):
            series[(float(row["theta"]), int(row["order"]))].append(
                (float(row["t_over_tff"]), float(row["max_relative_position_error"])))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for (theta, order), points in sorted(series.items()):
        t, e = zip(*points)
        ax.semilogy(t, e, "-" if order == 4 else "--",
                    label=f"theta = {theta:g}, {'hexadecapole' if order == 4 else 'monopole'}")
    ax.axvline(1.0, color="0.6", lw=0.8)
    ax.set_xlabel("t / t_ff")
    ax.set_ylabel("max |x_tree - x_direct| / R")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(output, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
