#!/usr/bin/env bash
# Side-by-side speed of two rubble_bench binaries on the benchmarks a redesign must not slow
# (issue 19: GranularGasDrift at 1e4 bodies and packing 0.3, TreeGravity at 1e6 bodies): the
# two binaries alternate, `rounds` times, so that a noisy machine slows both alike; the
# medians and their ratio are printed.
#   bench/compare_speed.sh OLD_BENCH NEW_BENCH [rounds]      (default 3 rounds)
set -euo pipefail
old="$1"; new="$2"; rounds="${3:-3}"
filter='BM_GranularGasDrift/22/30/(1|4)/50/0/|BM_TreeGravity/N:1000000/theta100:50/order:2/bucket:16/group:64/'
out=$(mktemp -d)
for r in $(seq "$rounds"); do
  for which in old new; do
    bin=$old; [ "$which" = new ] && bin=$new
    OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} "$bin" --benchmark_filter="$filter" \
      --benchmark_format=json --benchmark_out="$out/$which.$r.json" >/dev/null 2>&1
  done
done
/usr/bin/python3 - "$out" <<'PY'
import glob, json, statistics, sys
from collections import defaultdict
times = {w: defaultdict(list) for w in ("old", "new")}
for w in times:
    for path in sorted(glob.glob(f"{sys.argv[1]}/{w}.*.json")):
        for b in json.load(open(path))["benchmarks"]:
            name = b["name"].split("/min_time")[0].split("/real_time")[0]
            times[w][name].append(b["real_time"])  # in the benchmark's time unit
print(f"{'benchmark (median real time)':58s} {'old':>11s} {'new':>11s} {'new/old':>8s}")
for name in times["old"]:
    o, n = statistics.median(times["old"][name]), statistics.median(times["new"][name])
    print(f"{name:58s} {o:11.4g} {n:11.4g} {n / o:8.3f}")
PY
