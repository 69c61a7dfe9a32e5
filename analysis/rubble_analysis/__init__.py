"""Post-processing of rubble runs: read the HDF5 output (docs/output-format.md) and plot it.

Runs on Debian's python3-numpy, python3-h5py and python3-matplotlib through /usr/bin/python3.
"""

from .reader import (CollisionLog, Run, RunFormatError, Snapshot, open_run, snapshot_from_state,
                     snapshot_of)

__all__ = ["CollisionLog", "Run", "RunFormatError", "Snapshot", "open_run", "snapshot_from_state",
           "snapshot_of"]
