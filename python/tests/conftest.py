"""Shared fixtures: the presets, and the `torite` binary for the equivalence tests."""

import os
import shutil
from pathlib import Path

import pytest

import torite

PRESETS = torite.presets()


def torite_binary() -> str:
    """The `torite` command: $TORITE_BIN, else the workspace's debug or release build, else PATH."""
    env = os.environ.get("TORITE_BIN")
    if env:
        return env
    root = Path(__file__).resolve().parents[2]
    for build in ("debug", "release"):
        path = root / "target" / build / "torite"
        if path.is_file():
            return str(path)
    found = shutil.which("torite")
    if found is None:
        raise RuntimeError(
            "no torite binary: build it with `cargo build -p torite-cli` or set TORITE_BIN"
        )
    return found


@pytest.fixture(scope="session")
def torite_bin() -> str:
    return torite_binary()
