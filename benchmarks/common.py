"""Helpers for the benchmark scripts: where shared data is, where results go."""

from __future__ import annotations

import json
import os
import socket
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PRP_SHARED_DIR", ROOT.parent / "shared")).resolve()
RESULTS = ROOT / "benchmarks" / "results"
# Benchmark indexes are kept between runs (re-ingest is idempotent), outside the user's data dir.
WORK = ROOT / "benchmarks" / ".data"


def shared_path(*parts: str) -> Path:
    path = SHARED.joinpath("data", *parts)
    if not path.exists():
        sys.exit(f"{path} not found: the benchmarks need ../shared/data (or PRP_SHARED_DIR)")
    return path


def save(name: str, figures: dict) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / f"{name}.json"
    out.write_text(json.dumps(figures, indent=2))
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
