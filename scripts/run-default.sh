#!/usr/bin/env bash
# The main job: set up, build, run the default scenario (params/default.toml: a rotating cloud
# of 3000 boulders that collapses, with collisions, into a spinning rubble pile) to an HDF5
# file, then analyse it: print the largest aggregate (bodies, mass, spin period against the
# critical period, elongation, porosity, bulk density, settling) and draw the run and the pile.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh release
build/release/rubble run params/default.toml
export PYTHONPATH=analysis
/usr/bin/python3 -m rubble_analysis quicklook out/default.h5 --output out/default.png
echo
/usr/bin/python3 -m rubble_analysis report out/default.h5 --output out/default_report
report="$(pwd)/out/default_report"
echo
echo "HDF5 output:    $(pwd)/out/default.h5"
echo "quick look:     $(pwd)/out/default.png (cloud at the start, pile at the end, conservation)"
echo "the pile:       $report/largest.png (three views in its principal axes, to scale)"
echo "all bodies:     $report/views.png (three views, coloured by aggregate)"
echo "against time:   $report/timeseries.png (growth, elongation, spin period, settling)"
echo "tables:         $report/largest.txt, summary.csv, final_aggregates.csv, summary.json"
