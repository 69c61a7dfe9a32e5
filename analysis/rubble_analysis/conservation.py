"""Conservation report from the diagnostics series."""

from __future__ import annotations

import numpy as np


def conservation_series(diag: dict[str, np.ndarray], total_mass: float) -> dict[str, np.ndarray]:
    """Errors against the first row:
    energy |E - E0| / |E0|; momentum |P - P0| / sqrt(2 M K) (K translational kinetic energy,
    so the reference is the momentum the bodies' own motion carries); angular momentum about
    the centre of mass |L - L0| / max(|L0|, L_scale0, L_scale) (docs/output-format.md); and the
    centre of mass's departure from uniform motion, |R(t) - R0 - V0 (t - t0)| in m."""
    t = diag["time"]
    e = diag["total_energy"]
    p = diag["momentum"]
    lc = diag["angular_momentum_com"]
    e_ref = abs(e[0]) if e[0] != 0 else 1.0
    p_ref = np.sqrt(2.0 * total_mass * np.maximum(diag["kinetic_translational"], 0.0))
    p_ref = np.maximum(p_ref, np.finfo(float).tiny)
    l_ref = np.maximum.reduce([np.full_like(t, np.linalg.norm(lc[0])),
                               np.full_like(t, diag["angular_momentum_scale"][0]),
                               diag["angular_momentum_scale"]])
    l_ref = np.maximum(l_ref, np.finfo(float).tiny)
    drift = diag["com_position"] - diag["com_position"][0] - np.outer(t - t[0],
                                                                      diag["com_velocity"][0])
    return {
        "time_s": t,
        "energy_error": np.abs(e - e[0]) / e_ref,
        "momentum_error": np.linalg.norm(p - p[0], axis=1) / p_ref,
        "angular_momentum_error": np.linalg.norm(lc - lc[0], axis=1) / l_ref,
        "com_drift_m": np.linalg.norm(drift, axis=1),
    }
