"""The annotated bibliography of a report: every cited document, what it was cited for, its quotes.

Written as BibTeX (``annote`` holds the annotation) and as Markdown. The registry does not record
authors, so entries carry title, year, format and the local file instead.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from corpus.models import Document
from corpus.text import page_label
from research.report import clip, counted
from tools.citations.resolve import Resolution
from ui.core.exports.record import ReportRecord

FORMAT_NAMES = {"pdf": "PDF", "markdown": "Markdown", "text": "plain text", "html": "HTML"}


@dataclass
class BibEntry:
    doc_id: str
    title: str
    document: Document | None
    citations: list[tuple[int, Resolution]] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)
    disagreements: list[str] = field(default_factory=list)

    @property
    def year(self) -> int | None:
        return self.document.year if self.document else None

    def describe(self) -> str:
        if self.document is None:
            return "no longer in the library"
        kind = FORMAT_NAMES.get(self.document.type.value, self.document.type.value)
        pages = f", {self.document.page_count} pages" if self.document.type.value == "pdf" else ""
        return f"{kind}{pages}"


def bibliography(record: ReportRecord, documents: Mapping[str, Document]) -> list[BibEntry]:
    """Cited documents in order of their first citation number."""
    entries: dict[str, BibEntry] = {}
    for c in sorted(record.report.citations, key=lambda c: c.number):
        r = c.resolution
        entry = entries.setdefault(r.doc_id, BibEntry(r.doc_id, r.title, documents.get(r.doc_id)))
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


# --- BibTeX -------------------------------------------------------------------------------------

_BIBTEX_ESCAPES = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def bibtex_escape(text: str) -> str:
    return "".join(_BIBTEX_ESCAPES.get(ch, ch) for ch in " ".join(text.split()))


def _key_word(title: str) -> str:
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", ascii_title)]
    skip = {"a", "an", "the", "of", "on", "in", "for", "and", "to", "how"}
    return next((w for w in words if w not in skip), words[0] if words else "doc")


def bibtex_key(entry: BibEntry) -> str:
    return f"{_key_word(entry.title)}{entry.year or 'nd'}{entry.doc_id[:4]}"


def annotation(entry: BibEntry, report_title: str) -> str:
    numbers = ", ".join(f"[{n}]" for n, _ in entry.citations)
    parts = "; ".join(entry.parts) if entry.parts else "the report"
    text = f"Cited as {numbers} in \u201c{report_title}\u201d for: {parts}."
    quotes = " ".join(
        f"[{n}] {page_label(r.pages)}: \u201c{clip(r.matched_text, 200)}\u201d" for n, r in entry.citations
    )
    text += f" {quotes}"
    if entry.disagreements:
        text += " Note: " + "; ".join(entry.disagreements) + "."
    return text


def bibtex(record: ReportRecord, documents: Mapping[str, Document]) -> str:
    blocks = []
    for entry in bibliography(record, documents):
        fields = [("title", "{" + bibtex_escape(entry.title) + "}")]
        if entry.year:
            fields.append(("year", str(entry.year)))
        fields.append(("howpublished", bibtex_escape(entry.describe())))
        if entry.document is not None:
            note = f"Local file {Path(entry.document.path).name}; prp document {entry.doc_id}"
            fields.append(("note", bibtex_escape(note)))
        fields.append(("annote", bibtex_escape(annotation(entry, record.report.title))))
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
        blocks.append(f"@misc{{{bibtex_key(entry)},\n{body}\n}}\n")
    return "\n".join(blocks)


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
        year = f" ({entry.year})" if entry.year else ""
        where = f" \u00b7 `{Path(entry.document.path).name}`" if entry.document else ""
        lines += [f"## {i}. {entry.title}{year}", "", f"{entry.describe()}{where} \u00b7 document `{entry.doc_id}`", ""]
        numbers = ", ".join(f"[{n}]" for n, _ in entry.citations)
        lines += [f"Cited as {numbers} for: " + "; ".join(f"*{p}*" for p in entry.parts or ["the report"]), ""]
        lines += [
            f"- [{n}] {page_label(r.pages)}, block {', '.join(r.block_ids)}: \u201c{clip(r.matched_text, 300)}\u201d"
            for n, r in entry.citations
        ]
        if entry.disagreements:
            lines += ["", "Note: " + "; ".join(entry.disagreements) + "."]
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
