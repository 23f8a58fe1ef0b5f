"""Write a run's artifacts to files: one function for the research chat and for ``prp export``."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from enum import StrEnum
from pathlib import Path

from corpus.models import Document
from ui.exports.bibliography import bibliography_markdown, bibtex
from ui.exports.contradictions import contradictions_csv, contradictions_markdown
from ui.exports.evidence_table import evidence_csv
from ui.exports.record import ReportRecord
from ui.exports.report_pdf import report_pdf


class ExportFormat(StrEnum):
    EVIDENCE_CSV = "evidence-csv"
    BIBTEX = "bibtex"
    BIBLIOGRAPHY_MD = "bibliography-md"
    REPORT_MD = "report-md"
    REPORT_PDF = "report-pdf"
    CONTRADICTIONS_CSV = "contradictions-csv"
    CONTRADICTIONS_MD = "contradictions-md"


FILE_NAMES = {
    ExportFormat.EVIDENCE_CSV: "evidence.csv",
    ExportFormat.BIBTEX: "bibliography.bib",
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


def render_export(
    record: ReportRecord, fmt: ExportFormat, documents: Mapping[str, Document], font: Path | None = None
) -> bytes:
    if fmt is ExportFormat.REPORT_PDF:
        return report_pdf(record.report, record.thread_id, font)
    text = {
        ExportFormat.EVIDENCE_CSV: lambda: evidence_csv(record),
        ExportFormat.BIBTEX: lambda: bibtex(record, documents),
        ExportFormat.BIBLIOGRAPHY_MD: lambda: bibliography_markdown(record, documents),
        ExportFormat.REPORT_MD: lambda: record.report.markdown,
        ExportFormat.CONTRADICTIONS_CSV: lambda: contradictions_csv(record),
        ExportFormat.CONTRADICTIONS_MD: lambda: contradictions_markdown(record),
    }[fmt]()
    return text.encode("utf-8")


def write_exports(
    record: ReportRecord,
    out_dir: Path,
    documents: Mapping[str, Document],
    formats: Iterable[ExportFormat] = tuple(ExportFormat),
    font: Path | None = None,
) -> list[Path]:
    """Write each format to ``out_dir`` (created) under a fixed name; returns the paths in order."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for fmt in formats:
        path = out_dir / FILE_NAMES[fmt]
        path.write_bytes(render_export(record, fmt, documents, font))
        written.append(path)
    return written
