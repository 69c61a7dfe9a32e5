#!/usr/bin/env bash
# The main job: set up, build, run the default scenario (params/default.toml) to an HDF5 file
# and draw a quick-look plot of it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh release
build/release/rubble run params/default.toml
PYTHONPATH=analysis /usr/bin/python3 -m rubble_analysis quicklook out/default.h5 --output out/default.png
echo "HDF5 output: $(pwd)/out/default.h5"
echo "plot:        $(pwd)/out/default.png"
