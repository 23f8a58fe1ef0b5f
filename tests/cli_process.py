"""Running ``prp`` as a user does: its own process, on a library's data directory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from .paths import ROOT

PRP = [sys.executable, "-m", "ui.cli"]

# ``prp`` commands one after another in one process, as a shell would run them one by one, without
# paying for the interpreter, fastembed and Qdrant imports each time. The first that fails ends the
# process with its exit code, naming it on stderr.
_IN_ONE_PROCESS = """
import json, sys
from ui.cli.main import main
for args in json.loads(sys.argv[1]):
    code = main(args)
    if code:
        print(f"prp {' '.join(args)}: exit {code}", file=sys.stderr)
        sys.exit(code)
"""


def prp_env(data_dir: Path, models_dir: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "PRP_DATA_DIR": str(data_dir), "PRP_MODELS_DIR": str(models_dir), **extra}


def run_prp(args: Sequence[str], env: dict[str, str], timeout: float, **kw) -> subprocess.CompletedProcess:
    """``prp ARGS`` to the end, its output captured as text."""
    return subprocess.run([*PRP, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, **kw)


def run_prp_commands(
    commands: Sequence[Sequence[str]], env: dict[str, str], timeout: float
) -> subprocess.CompletedProcess:
    """``prp ARGS`` for each of ``commands`` in turn, all in one process, stopping at the first that fails."""
    script = [sys.executable, "-c", _IN_ONE_PROCESS, json.dumps([list(c) for c in commands])]
    return subprocess.run(script, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
