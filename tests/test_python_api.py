"""docs/python-api.md's notebook session, run as it is (as a notebook runs it: no script file for the
ingest's worker processes to import again) on the sample corpus, offline."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from .cli_process import prp_env
from .paths import ROOT


def test_the_documented_notebook_session_runs(tmp_path: Path, models_dir: Path) -> None:
    page = (ROOT / "docs" / "python-api.md").read_text()
    cells = re.findall(r"```python\n(.*?)```", page, flags=re.DOTALL)
    assert len(cells) >= 6
    (tmp_path / "sample_corpus").symlink_to(ROOT / "sample_corpus")
    run = subprocess.run(
        [sys.executable, "-c", "\n".join(cells)],
        cwd=tmp_path,
        env=prp_env(tmp_path / "lib", models_dir),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    out = run.stdout
    assert "{'ok': 12, 'skipped': 0, 'failed': 0}" in out
    assert "[finalize] finalize: 1 citation(s), 0 unverified, 0 dropped" in out
    assert "**50 to 60 percent**" in out
    assert "| and what about peak flow? -> " in out
    assert "@article{halvorsen2019hydrological," in out
    assert re.search(r"\| \d+ sections, \d+ citations, \d+ disagreements", out)
    assert (tmp_path / "green-roofs.bib").read_text().startswith("@")
