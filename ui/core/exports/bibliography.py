"""The annotated bibliography of a report: every cited document, what it was cited for, its quotes.

Written as Markdown here, and for reference managers as BibTeX (``ui.core.exports.bibtex``) and RIS
(``ui.core.exports.ris``), each entry with the document's authors, year, title, venue and identifiers
as the registry holds them (extracted at ingest, or set by the user: ``prp docs edit``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from corpus.author_names import all_authors
from corpus.locations import extent
from corpus.models import Bibliography, Document
from corpus.text import counted
from research.ai_address import shown_title
from research.report import clip, inert_html
from tools.citations.resolve import Resolution
from ui.core.exports.record import ReportRecord

FORMAT_NAMES = {
    "pdf": "PDF",
    "markdown": "Markdown",
    "text": "plain text",
    "html": "HTML",
    "docx": "Word",
    "pptx": "PowerPoint",
    "epub": "EPUB",
    "odt": "OpenDocument",
    "latex": "LaTeX",
}


@dataclass
class BibEntry:
    doc_id: str
    title: str
    document: Document | None
    citations: list[tuple[int, Resolution]] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)
    disagreements: list[str] = field(default_factory=list)
    names: frozenset[str] = frozenset()  # words of the title the document writes as proper names

    def __post_init__(self) -> None:
        # A title addressing an AI is shown marked in every export, never as a plain title.
        self.title = shown_title(self.title)

    @property
    def year(self) -> int | None:
        return self.document.year if self.document else None

    @property
    def bib(self) -> Bibliography:
        return self.document.bibliography if self.document else Bibliography()

    @property
    def url(self) -> str | None:
        """Where the document is online, from its identifiers."""
        if self.bib.doi:
            return f"https://doi.org/{self.bib.doi}"
        if self.bib.arxiv_id:
            return f"https://arxiv.org/abs/{self.bib.arxiv_id}"
        return None

    def heading(self) -> str:
        """ "Halvorsen, Alcaraz and Venkataraman (2019). Title"; without authors "Title (2019)"."""
        year = f" ({self.year})" if self.year else ""
        if self.bib.authors:
            return f"{all_authors(self.bib.authors)}{year}. {self.title}"
        return f"{self.title}{year}"

    def describe(self) -> str:
        if self.document is None:
            return "no longer in the library"
        kind = FORMAT_NAMES.get(self.document.type.value, self.document.type.value)
        length = extent(self.document.type, self.document.page_count)
        return f"{kind}, {length}" if length else kind


def bibliography(
    record: ReportRecord, documents: Mapping[str, Document], names: Mapping[str, frozenset[str]] | None = None
) -> list[BibEntry]:
    """Cited documents in order of their first citation number (``names``: by document, the words of
    its title it writes as proper names, ``latex_text.proper_words``)."""
    entries: dict[str, BibEntry] = {}
    names = names or {}
    for c in sorted(record.report.citations, key=lambda c: c.number):
        r = c.resolution
        entry = entries.setdefault(
            r.doc_id, BibEntry(r.doc_id, r.title, documents.get(r.doc_id), names=names.get(r.doc_id, frozenset()))
        )
        entry.citations.append((c.number, r))
    for claim in record.cited_claims():
        for _, r in claim.citations:
            parts = entries[r.doc_id].parts
            if claim.part not in parts:
                parts.append(claim.part)
    for item, (_, a), (_, b) in record.shown_disagreements():
        entries[a.doc_id].disagreements.append(f"disagrees with {b.title} on {item.subject}")
        entries[b.doc_id].disagreements.append(f"disagrees with {a.title} on {item.subject}")
    return list(entries.values())


def annotation(entry: BibEntry, report_title: str) -> str:
    """What the report cited the document for, with its quotes: BibTeX's ``annote``, RIS's ``N1``."""
    numbers = ", ".join(f"[{n}]" for n, _ in entry.citations)
    parts = "; ".join(entry.parts) if entry.parts else "the report"
    text = f"Cited as {numbers} in \u201c{report_title}\u201d for: {parts}."
    quotes = " ".join(
        f"[{n}] {r.where + ': ' if r.where else ''}\u201c{clip(r.matched_text, 200)}\u201d" for n, r in entry.citations
    )
    text += f" {quotes}"
    if entry.disagreements:
        text += " Note: " + "; ".join(entry.disagreements) + "."
    return text


# --- Markdown -----------------------------------------------------------------------------------


def bibliography_markdown(record: ReportRecord, documents: Mapping[str, Document]) -> str:
    entries = bibliography(record, documents)
    lines = [
        "# Annotated bibliography",
        "",
        f"For the report \u201c{record.report.title}\u201d (thread `{record.thread_id}`, {record.report.mode} mode): "
        f"{counted(len(entries), 'document')}, {counted(len(record.report.citations), 'citation')}.",
        "",
    ]
    for i, entry in enumerate(entries, start=1):
        where = f" \u00b7 `{Path(entry.document.path).name}`" if entry.document else ""
        venue = f"*{entry.bib.venue}* \u00b7 " if entry.bib.venue else ""
        ids = "".join(f" \u00b7 {u}" for u in [entry.url] if u)
        lines += [
            f"## {i}. {entry.heading()}",
            "",
            f"{venue}{entry.describe()}{where} \u00b7 document `{entry.doc_id}`{ids}",
            "",
        ]
        numbers = ", ".join(f"[{n}]" for n, _ in entry.citations)
        lines += [f"Cited as {numbers} for: " + "; ".join(f"*{p}*" for p in entry.parts or ["the report"]), ""]
        lines += [
            f"- [{n}] {r.where + ', ' if r.where else ''}block {', '.join(r.block_ids)}: "
            f"\u201c{clip(r.matched_text, 300)}\u201d"
            for n, r in entry.citations
        ]
        if entry.disagreements:
            lines += ["", "Note: " + "; ".join(entry.disagreements) + "."]
        lines.append("")
    return inert_html("\n".join(lines).rstrip() + "\n")
