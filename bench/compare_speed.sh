#!/usr/bin/env bash
# Side-by-side speed of two builds on the benchmarks a redesign must not slow (issue 19:
# GranularGasDrift at 1e4 bodies and packing 0.3, TreeGravity at 1e6 bodies; issue 32 adds
# AggregateGasDrift, cubes of 8 spheres, and the settled 1,000-hull box pile): the two builds
# alternate, `rounds` times, so that a noisy machine slows both alike; the medians and their
# ratio are printed, with each round's times for the range.
#   bench/compare_speed.sh OLD_BUILD_DIR NEW_BUILD_DIR [rounds]      (default 3 rounds)
# A build dir holds bench/rubble_bench and bench/rubble_polyhedra_pile_bench. The pile is filled
# once by the old build (about a minute) and both measure the same settled pile (--load-pile),
# with the solver capped at 50 iterations and 2 Coulomb passes (docs/polyhedra.md) whatever
# either build's defaults are.
set -euo pipefail
old="$1"; new="$2"; rounds="${3:-3}"
filter='BM_GranularGasDrift/22/30/(1|4)/50/0/|BM_TreeGravity/N:1000000/theta100:50/order:2/bucket:16/group:64/|BM_AggregateGasDrift/cubes:1/k:22/phi100:20/mft:1/'
out=$(mktemp -d)
pile="${PILE:-$out/pile.bin}" # PILE=FILE: a pile saved before (--save-pile), reused
[ -f "$pile" ] || "$old/bench/rubble_polyhedra_pile_bench" --save-pile "$pile" --settled-steps 1 \
  --iterations 50 --ccps 2 >/dev/null 2>&1
for r in $(seq "$rounds"); do
  for which in old new; do
    dir=$old; [ "$which" = new ] && dir=$new
    OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} "$dir/bench/rubble_bench" --benchmark_filter="$filter" \
      --benchmark_format=json --benchmark_out="$out/$which.$r.json" >/dev/null 2>&1
    "$dir/bench/rubble_polyhedra_pile_bench" --load-pile "$pile" --settled-steps 100 \
      --iterations 50 --ccps 2 \
      > "$out/$which.$r.pile.txt" 2>&1
  done
done
/usr/bin/python3 - "$out" <<'PY'
import glob, json, re, statistics, sys
from collections import defaultdict
times = {w: defaultdict(list) for w in ("old", "new")}
for w in times:
    for path in sorted(glob.glob(f"{sys.argv[1]}/{w}.*.json")):
        for b in json.load(open(path))["benchmarks"]:
            name = b["name"].split("/min_time")[0].split("/real_time")[0]
            times[w][name].append(b["real_time"])  # in the benchmark's time unit
    for path in sorted(glob.glob(f"{sys.argv[1]}/{w}.*.pile.txt")):
        # The settled phase's line: "settled  steps 100  ms/step X" (polyhedra_pile_bench.cpp).
        for line in open(path):
            m = re.search(r"^settled\s+steps\s+\d+\s+ms/step\s+([0-9.]+)", line)
            if m:
                times[w]["polyhedra pile, settled (ms/step)"].append(float(m.group(1)))
print(f"{'benchmark (median real time)':58s} {'old':>11s} {'new':>11s} {'new/old':>8s}  rounds")
for name in times["old"]:
    o, n = statistics.median(times["old"][name]), statistics.median(times["new"][name])
    each = " ".join(f"{a:.4g}/{b:.4g}" for a, b in zip(times["old"][name], times["new"][name]))
    print(f"{name:58s} {o:11.4g} {n:11.4g} {n / o:8.3f}  {each}")
PY
