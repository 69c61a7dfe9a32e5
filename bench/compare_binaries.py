#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Runs two rubble binaries on the same scenarios and checks that their outputs are bitwise equal.

A redesign that must leave the physics unchanged (issue 19: free-sphere results bitwise as
before; issue 32: every parameter file of params/ that runs in under ten minutes, and a tiny
campaign in the three grain models) is checked with this: every snapshot dataset, every diagnostics series, the collision log
and their attributes are compared byte for byte, except the attributes that name the build
(code_version, build). The run times of both binaries are printed too, one after the other per
scenario (a rough comparison only: the benchmarks measure speed, bench/rubble_bench.cpp).

    /usr/bin/python3 bench/compare_binaries.py --old /work/baseline/rubble \
        --new build/release/rubble [--scenario NAME ...]      (params/NAME, campaign, ...)

Exit status 0 when every scenario matches, 1 otherwise.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

# name -> (parameter file, overrides). Each resolves collisions but kepler and the cube: periodic
# elastic gas, a G = 1 collapse through the tree, a rotating cloud bouncing with friction and the
# overlap guards, a merging cloud, plain drifts with tree and direct gravity, and polyhedra
# (the NSC stepper: a self-gravitating pile, a box pile).
SCENARIOS = {
    "granular_gas": ("params/granular_gas.toml", ["--output.collision_log", "true"]),
    "cloud_g1_tree": ("params/cloud_collapse_g1.toml",
                      ["--integrator.n_steps", "150", "--output.collision_log", "true"]),
    "cloud_bounce": ("params/cloud_collapse.toml",
                     ["--collisions.enabled", "true", "--gravity.softening", "0",
                      "--collisions.eps_n", "0.5", "--collisions.eps_t", "0.8",
                      "--collisions.f_crit", "0.01", "--collisions.v_min", "1e-4",
                      "--collisions.overlaps", "trace_back", "--output.collision_log", "true",
                      "--integrator.t_end", "1.2e5"]),
    "cloud_merge": ("params/cloud_collapse.toml",
                    ["--collisions.enabled", "true", "--gravity.softening", "0",
                     "--collisions.outcome", "merge", "--collisions.overlaps", "merge",
                     "--output.collision_log", "true",
                     "--integrator.t_end", "1.2e5"]),
    "collapsing_cube_tree": ("params/collapsing_cube.toml", ["--integrator.t_end", "200"]),
    "kepler": ("params/kepler.toml", []),
    # Polyhedra (the NSC stepper), shortened for a quick check: a self-gravitating pile and a
    # box pile under uniform gravity (params/ below runs them whole).
    "polyhedra_pile": ("params/polyhedra_pile.toml",
                       ["--integrator.t_end", "0", "--integrator.n_steps", "200"]),
    "polyhedra_box": ("params/polyhedra_box.toml",
                      ["--integrator.t_end", "0", "--integrator.n_steps", "100"]),
}

# Every scenario of params/ that runs in under ten minutes on two cores, as it is (issue 32:
# spheres, aggregates, polyhedra, walls), and the two that take hours for their first steps.
PARAMS = ["aggregate_pile", "ball_on_floor", "bouncing_cubes", "box_settling", "cloud_collapse",
          "cloud_collapse_g1", "collapsing_cube", "default", "granular_gas", "kepler",
          "polyhedra_bounce", "polyhedra_box", "polyhedra_incline", "polyhedra_pile",
          "rotating_drum", "taylor_couette", "tumbling_asteroid"]
for _name in PARAMS:
    SCENARIOS[f"params/{_name}"] = (f"params/{_name}.toml", [])
for _name, _steps in (("collapse_100k", "20"), ("polyhedra_cloud_1e4", "3")):
    SCENARIOS[f"params/{_name}@{_steps}"] = (f"params/{_name}.toml", [
        "--integrator.t_end", "0", "--integrator.n_steps", _steps])

# A campaign of eight hulls in all three grain models, two sets (the campaign test's, with
# aggregates): every run file of the old and the new binary compared.
TINY_CAMPAIGN = """[campaign]
name = "tiny"
directory = "tiny"
models = ["sphere", "aggregate", "polyhedron"]
seeds = [3]
sets = ["0", "1.1"]
levels = [1.0]
v0 = 0.01
[integrator]
dt = 5.0
t_end = 40000.0
[gravity]
backend = "direct"
[collisions]
enabled = true
eps_n = 0.5
mu = 0.6
v_min = 2.0e-3
f_crit = 0.01
[output]
snapshot_interval = 500.0
[stop]
settled_window = 12000.0
[ic.cloud]
n = 8
shape = "cube"
size = 700.0
radius_distribution = "uniform"
radius_min = 40.0
radius_max = 130.0
density = 3000.0
grain = "hull"
spheres_per_grain = 10
"""

IGNORED_ATTRS = {"code_version", "build"}
LAYOUT_ATTRS = {"description", "format_version"}


def run(binary, scenario, out_file):
    params, overrides = SCENARIOS[scenario]
    cmd = [binary, "run", params, *overrides, "--output.file", out_file, "--output.overwrite",
           "true", "--quiet"]
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stderr}")
    return wall


def run_campaign(binary, directory):
    """Runs the tiny campaign in `directory`; returns the wall time and its run files."""
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "tiny.toml")
    with open(path, "w") as f:
        f.write(TINY_CAMPAIGN)
    start = time.perf_counter()
    proc = subprocess.run([binary, "campaign", "tiny.toml", "--quiet"], capture_output=True,
                          text=True, cwd=directory)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{binary} campaign exited {proc.returncode}:\n{proc.stderr}")
    runs = sorted(f for f in os.listdir(os.path.join(directory, "tiny")) if f.endswith(".h5"))
    return wall, [os.path.join(directory, "tiny", f) for f in runs]


def output_file_dropped(toml):
    """The stored parameters without the output file's name (which differs by design)."""
    text = toml.decode() if isinstance(toml, bytes) else str(toml)
    return [line for line in text.splitlines() if not line.startswith("file = ")]


def same_parameters(old, new):
    """The new binary stored every parameter of the old one alike; parameters it added may
    appear only at their defaults (lines without a "# from" comment), which cannot change
    what the old parameters meant."""
    a, b = output_file_dropped(old), output_file_dropped(new)
    added = [line for line in b if line not in a]
    return all(line in b for line in a) and all("# from" not in line for line in added)


def differences(a, b, path="/", layout=None):
    """Every way in which the values of HDF5 objects a and b differ (the data and attributes
    both hold, byte for byte). Differences of layout (an object or attribute only one holds, a
    description, the format version) are appended to `layout` instead: a new output format may
    add fields, but every value both formats hold must be the same."""
    layout = [] if layout is None else layout
    out = []
    for key in sorted(set(a.attrs) | set(b.attrs)):
        if key in IGNORED_ATTRS:
            continue
        if key not in a.attrs or key not in b.attrs:
            layout.append(f"{path}@{key}: only in one file")
        elif key in LAYOUT_ATTRS:
            if np.asarray(a.attrs[key]).tobytes() != np.asarray(b.attrs[key]).tobytes():
                layout.append(f"{path}@{key}: {a.attrs[key]!r} -> {b.attrs[key]!r}")
        elif path == "/parameters/" and key == "toml":
            if not same_parameters(a.attrs[key], b.attrs[key]):
                out.append(f"{path}@{key}: the parameters differ")
        elif np.asarray(a.attrs[key]).tobytes() != np.asarray(b.attrs[key]).tobytes():
            out.append(f"{path}@{key}: {a.attrs[key]!r} != {b.attrs[key]!r}")
    if isinstance(a, h5py.Dataset):
        x, y = a[()], b[()]
        if x.shape != y.shape or x.dtype != y.dtype or x.tobytes() != y.tobytes():
            out.append(f"{path}: data differ")
        return out
    for key in sorted(set(a) | set(b)):
        if key not in a or key not in b:
            layout.append(f"{path}{key}: only in {'the old' if key in a else 'the new'} file")
        else:
            out += differences(a[key], b[key], f"{path}{key}/", layout)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True, help="the reference binary")
    ap.add_argument("--new", required=True, help="the binary under test")
    ap.add_argument("--scenario", action="append", choices=sorted(SCENARIOS) + ["campaign"],
                    help="one scenario (repeatable; default: all, and the tiny campaign)")
    args = ap.parse_args()
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.scenario or [*SCENARIOS, "campaign"]:
            if name == "campaign":
                t_old, old_runs = run_campaign(args.old, os.path.join(tmp, "campaign_old"))
                t_new, new_runs = run_campaign(args.new, os.path.join(tmp, "campaign_new"))
                names = [os.path.basename(f) for f in old_runs]
                diff = [] if names == [os.path.basename(f) for f in new_runs] else ["run files"]
                for a_path, b_path in zip(old_runs, new_runs):
                    with h5py.File(a_path, "r") as a, h5py.File(b_path, "r") as b:
                        diff += [os.path.basename(a_path) + ": " + d
                                 for d in differences(a, b, layout=[])]
                verdict = "bitwise equal" if not diff else f"{len(diff)} differences"
                print(f"{'campaign (tiny)':22s} {len(old_runs):4d} run files: {verdict}; "
                      f"wall old {t_old:7.2f} s, new {t_new:7.2f} s", flush=True)
                for d in diff[:10]:
                    print("    " + d)
                failed |= bool(diff)
                continue
            stem = name.replace("/", "_")
            old_file, new_file = os.path.join(tmp, f"{stem}_old.h5"), os.path.join(tmp, f"{stem}_new.h5")
            t_old = run(args.old, name, old_file)
            t_new = run(args.new, name, new_file)
            layout = []
            with h5py.File(old_file, "r") as a, h5py.File(new_file, "r") as b:
                diff = differences(a, b, layout=layout)
                snaps = len(a["snapshots"])
                logged = len(a["collisions/step"]) if "collisions/step" in a else 0
            verdict = "bitwise equal" if not diff else f"{len(diff)} differences"
            print(f"{name:22s} {snaps:4d} snapshots {logged:9d} collisions logged: {verdict}; "
                  f"wall old {t_old:7.2f} s, new {t_new:7.2f} s", flush=True)
            for d in diff[:10]:
                print("    " + d)
            # Layout changes, once per kind (the same in every snapshot).
            kinds = sorted({re.sub(r"/\d{6}/", "/NNNNNN/", d) for d in layout})
            for d in kinds[:12]:
                print("    layout: " + d)
            failed |= bool(diff)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
