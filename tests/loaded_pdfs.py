"""PDFs the tests read, each parsed once per test session.

The eight shared papers take ~22 s of CPU to parse, and test_pdf_loader and test_bibliography both read
all of them; tests only read the loaded document, so one parse serves both.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from corpus.loaders.pdf import load_pdf
from corpus.models import LoadedDocument


@cache
def loaded_pdf(path: Path) -> LoadedDocument:
    return load_pdf(path)
