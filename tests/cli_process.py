"""Running ``prp`` as a user does: its own process, on a library's data directory."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, redirect_stderr, redirect_stdout
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


def run_prp_here(args: Sequence[str], env: Mapping[str, str]) -> subprocess.CompletedProcess:
    """``prp ARGS`` through the same ``main`` in this process, in ``env``, its output captured as text.

    For tests of what a command does, not of its process (a lock held by another process, a signal, a
    crash, a hash seed): a new interpreter pays 3-5 s of imports (Qdrant's client, fastembed) per
    command. What a process would print as a traceback is raised here instead."""
    from ui.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with _environment(env), redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return subprocess.CompletedProcess([*PRP, *args], code, out.getvalue(), err.getvalue())


@contextmanager
def _environment(env: Mapping[str, str]) -> Iterator[None]:
    """``os.environ`` is ``env`` inside, as it was after: the command's settings come from it."""
    before = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(before)


def run_prp_commands(
    commands: Sequence[Sequence[str]], env: dict[str, str], timeout: float
) -> subprocess.CompletedProcess:
    """``prp ARGS`` for each of ``commands`` in turn, all in one process, stopping at the first that fails."""
    script = [sys.executable, "-c", _IN_ONE_PROCESS, json.dumps([list(c) for c in commands])]
    return subprocess.run(script, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
