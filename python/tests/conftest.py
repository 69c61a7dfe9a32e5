"""Fixtures of the Python module's tests (python_support.py: what they share)."""

from __future__ import annotations

from pathlib import Path

import pytest

from python_support import PARAMS


def rubble_module():
    """The module, or the test is skipped where it was not built (RUBBLE_PYTHON=OFF)."""
    try:
        import rubble
    except ImportError as e:
        pytest.skip(f"the Python module is not built ({e}); see docs/python.md")
    return rubble


@pytest.fixture
def rubble():
    return rubble_module()


@pytest.fixture
def params_file(tmp_path: Path):
    def make(name: str = "run") -> Path:
        p = tmp_path / f"{name}.toml"
        p.write_text(PARAMS.format(out=tmp_path / f"{name}.h5"))
        return p
    return make
