#!/usr/bin/env bash
# The whole test suite from a fresh machine: set up, build the release and the
# address+undefined sanitizer configurations, run ctest on both, then pytest for analysis/
# and for the Python module (python/tests).
# This is what CI runs, on 2 cores within 45 minutes. The physics comparisons that take
# minutes each (ctest label `slow`) are left out; run them with
#   ctest --test-dir build/release -L slow
# No test may take ten minutes (--timeout 600): the longest take about three under the
# sanitizers, and a test that hangs must fail on its own instead of ending CI by its limit.
set -euo pipefail
cd "$(dirname "$0")/.."

# ParaView (and a virtual display for its headless render) for the XDMF sidecar test; Open MPI
# for the MPI executable and its tests (docs/mpi.md; the serial executable is built as always).
RUBBLE_EXTRA_PACKAGES="python3-paraview xvfb xauth libopenmpi-dev openmpi-bin" \
  scripts/setup.sh release
ctest --test-dir build/release --output-on-failure -j "$(nproc)" --timeout 600 -LE slow

# Under the sanitizers: the unit suite, which runs every component and the executable end to
# end (campaigns, interruptions, damaged files); the validation suite's long physics
# comparisons run in the release build above.
scripts/setup.sh debug-sanitize rubble rubble_unit_tests
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build/sanitize --output-on-failure -j "$(nproc)" --timeout 600 -L unit

# Two pytest runs: analysis/tests' files import their helpers from their conftest.py by that
# name, which python/tests' conftest.py would shadow in one run.
RUBBLE_BIN="$(pwd)/build/release/rubble" PYTHONPATH="$(pwd)/analysis" \
  /usr/bin/python3 -m pytest -q analysis/tests
RUBBLE_BIN="$(pwd)/build/release/rubble" PYTHONPATH="$(pwd)/build/release/python:$(pwd)/analysis" \
  /usr/bin/python3 -m pytest -q python/tests
