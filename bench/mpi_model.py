#!/usr/bin/python3
"""Measures what the performance model of one run over MPI ranks needs (issue 34, item 8;
docs/mpi.md, "A performance model"): for a uniform cloud of N boulders under tree gravity
(theta 0.5, no contacts), over P ranks, each rank's computation, communication and waiting per
step and the bytes it sends (rubble run --rank-timings), and the serial time per step.

    /usr/bin/python3 bench/mpi_model.py [--n 20000,80000,320000] [--ranks 2,4] [--steps 4]

Prints one row per (N, P). The bytes and collectives per step do not depend on the machine;
the times do, and over more ranks than cores they measure the oversubscription, not the code
(run on a machine with at least max(P) cores for the times)."""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def args_for(n, steps, out):
    size = 1000.0 * (n / 2000.0) ** (1.0 / 3.0)  # the density of params/cloud_collapse.toml
    return ["run", os.path.join(ROOT, "params/cloud_collapse.toml"), "--ic.cloud.n", str(n),
            "--ic.cloud.size", str(size), "--gravity.backend", "tree", "--integrator.t_end",
            str(50.0 * steps), "--output.diagnostics_interval", str(50.0 * steps),
            "--output.snapshot_interval", str(50.0 * steps), "--output.file", out, "--quiet"]


def run(cmd, env, ranks, line, wall):
    """Totals of one run: (wall, [per rank (compute, communication, waiting, MB, collectives)])
    in s and MB, summed over its steps."""
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    rows = [tuple(float(x) for x in m.groups()[1:]) for m in line.finditer(r.stdout)]
    if r.returncode != 0 or len(rows) != (ranks if ranks > 1 else 0):
        sys.exit(f"{' '.join(cmd)} failed:\n{r.stdout}\n{r.stderr}")
    return float(wall.search(r.stdout).group(1)), rows


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", default="20000,80000,320000")
    p.add_argument("--ranks", default="2,4")
    p.add_argument("--steps", type=int, default=4)
    p.add_argument("--build", default=os.path.join(ROOT, "build/release"))
    p.add_argument("--serial", help="the serial executable (default: BUILD/rubble)")
    p.add_argument("--mpi", help="the MPI executable (default: BUILD/mpi/rubble)")
    p.add_argument("--mpirun", default="mpirun", help="the launcher, with its options")
    a = p.parse_args()
    serial = a.serial or os.path.join(a.build, "rubble")
    mpi = a.mpi or os.path.join(a.build, "mpi/rubble")
    env = dict(os.environ, OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1")
    line = re.compile(r"rank (\d+): compute ([\d.]+), communication ([\d.]+), waiting ([\d.]+), "
                      r"sent ([\d.]+) MB per step in ([\d.]+) collectives")
    wall = re.compile(r"step \d+, t = .* s, ([\d.e+-]+) s wall")
    # Each quantity per step as the difference of a run of 2 steps and one of 2 + steps, so
    # that what happens once per run (the last snapshot's gather, the file) drops out.
    short, long = 2, 2 + a.steps
    print("N P compute_max_ms compute_mean_ms communication_max_ms waiting_max_ms "
          "sent_MB_per_step_all_ranks collectives_per_step wall_ms_per_step")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "s.h5")
        for n in (int(x) for x in a.n.split(",")):
            for ranks in [1] + [int(x) for x in a.ranks.split(",")]:
                cmd = ([serial] if ranks == 1 else
                       a.mpirun.split() + ["-np", str(ranks), mpi])
                extra = [] if ranks == 1 else ["--rank-timings"]
                w1, r1 = run(cmd + args_for(n, short, out) + extra, env, ranks, line, wall)
                w2, r2 = run(cmd + args_for(n, long, out) + extra, env, ranks, line, wall)
                per = lambda x1, x2: (x2 * long - x1 * short) / a.steps  # noqa: E731
                w = 1e3 * (w2 - w1) / a.steps
                if ranks == 1:
                    print(f"{n} 1 {w:.1f} {w:.1f} 0 0 0 0 {w:.1f}", flush=True)
                    continue
                k = [[per(x1[c], x2[c]) for x1, x2 in zip(r1, r2)] for c in range(5)]
                print(f"{n} {ranks} {max(k[0]):.1f} {sum(k[0]) / ranks:.1f} {max(k[1]):.2f} "
                      f"{max(k[2]):.2f} {sum(k[3]):.3f} {k[4][0]:.0f} {w:.1f}", flush=True)


if __name__ == "__main__":
    main()
