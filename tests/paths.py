"""Where tests find the project's sample corpus and the shared development data."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_DOCS = ROOT / "sample_corpus" / "docs"
SHARED = Path(os.environ.get("PRP_SHARED_DIR", ROOT.parent / "shared")).resolve()


def shared_data(*parts: str) -> Path:
    """A path under ../shared/data, or skip the test with the reason when it is absent."""
    path = SHARED.joinpath("data", *parts)
    if not path.exists():
        pytest.skip(f"{path} not found: ../shared/data is only present in development and CI")
    return path
