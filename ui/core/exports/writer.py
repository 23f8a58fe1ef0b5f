"""Write a run's artifacts: one way for the research chat, the API and ``prp export`` (``ui.core.runs``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from corpus.models import Document
from ui.core.exports.bibliography import bibliography_markdown
from ui.core.exports.bibtex import bibtex
from ui.core.exports.contradictions import contradictions_csv, contradictions_markdown
from ui.core.exports.evidence_table import evidence_csv
from ui.core.exports.formats import FILE_NAMES, ExportFormat
from ui.core.exports.record import ReportRecord
from ui.core.exports.ris import ris


def render_export(
    record: ReportRecord,
    fmt: ExportFormat,
    documents: Mapping[str, Document],
    font: Path | None = None,
    with_notes: bool = False,
    names: Mapping[str, frozenset[str]] | None = None,
) -> bytes:
    """One export; ``with_notes``: BibTeX entries carry a ``note`` (their prp document), which styles
    print; ``names``: by document, the words of its title it writes as proper names."""
    if fmt is ExportFormat.REPORT_PDF:
        # Imported only for a PDF: its typesetter and Markdown parser are a large share of what a
        # research run would load (``prp ask`` writes no export unless asked).
        from ui.core.exports.report_pdf import report_pdf

        return report_pdf(record.report, record.thread_id, font)
    text = {
        ExportFormat.EVIDENCE_CSV: lambda: evidence_csv(record),
        ExportFormat.BIBTEX: lambda: bibtex(record, documents, with_notes, names),
        ExportFormat.RIS: lambda: ris(record, documents),
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
    names: Mapping[str, frozenset[str]] | None = None,
) -> list[Path]:
    """Write each format to ``out_dir`` (created) under a fixed name; returns the paths in order."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for fmt in formats:
        path = out_dir / FILE_NAMES[fmt]
        path.write_bytes(render_export(record, fmt, documents, font, names=names))
        written.append(path)
    return written
