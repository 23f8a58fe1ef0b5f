"""Running ``prp`` as a user does: its own process, on a library's data directory."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from .paths import ROOT

PRP = [sys.executable, "-m", "ui.cli"]


def prp_env(data_dir: Path, models_dir: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "PRP_DATA_DIR": str(data_dir), "PRP_MODELS_DIR": str(models_dir), **extra}


def run_prp(args: Sequence[str], env: dict[str, str], timeout: float, **kw) -> subprocess.CompletedProcess:
    """``prp ARGS`` to the end, its output captured as text."""
    return subprocess.run([*PRP, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, **kw)
