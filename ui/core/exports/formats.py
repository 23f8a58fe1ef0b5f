"""The export formats, the file each is written to, and the folder a thread's exports go in."""

from __future__ import annotations

import hashlib
import re
from enum import StrEnum


class ExportFormat(StrEnum):
    EVIDENCE_CSV = "evidence-csv"
    BIBTEX = "bibtex"
    RIS = "ris"
    BIBLIOGRAPHY_MD = "bibliography-md"
    REPORT_MD = "report-md"
    REPORT_PDF = "report-pdf"
    CONTRADICTIONS_CSV = "contradictions-csv"
    CONTRADICTIONS_MD = "contradictions-md"


FILE_NAMES = {
    ExportFormat.EVIDENCE_CSV: "evidence.csv",
    ExportFormat.BIBTEX: "bibliography.bib",
    ExportFormat.RIS: "bibliography.ris",
    ExportFormat.BIBLIOGRAPHY_MD: "bibliography.md",
    ExportFormat.REPORT_MD: "report.md",
    ExportFormat.REPORT_PDF: "report.pdf",
    ExportFormat.CONTRADICTIONS_CSV: "contradictions.csv",
    ExportFormat.CONTRADICTIONS_MD: "contradictions.md",
}


def folder_name(thread_id: str) -> str:
    """A folder name for a thread's exports: thread ids come from users (``--thread``), so anything
    but letters, digits, ``.``, ``_`` and ``-`` is replaced, and a short hash keeps names distinct."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", thread_id).strip("._") or "thread"
    if safe == thread_id:
        return safe
    return f"{safe[:60]}-{hashlib.sha1(thread_id.encode()).hexdigest()[:8]}"
