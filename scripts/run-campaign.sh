#!/usr/bin/env bash
# The reduced Ferrari et al. 2017 campaign (params/ferrari2017/reduced.toml, docs/campaigns.md):
# set up, build, run 200 boulders as spheres, aggregates and polyhedra over four sets of initial
# conditions (under 30 minutes on two cores; run it again after an interruption and it
# continues), then compare what the three grain models formed: a table of every run's largest
# aggregate and the figures, in out/ferrari2017_reduced/comparison.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh release
build/release/rubble campaign params/ferrari2017/reduced.toml
export PYTHONPATH=analysis
/usr/bin/python3 -m rubble_analysis compare out/ferrari2017_reduced/campaign.json
echo
echo "the three models' asteroids side by side: $(pwd)/out/ferrari2017_reduced/comparison/asteroids.png"
