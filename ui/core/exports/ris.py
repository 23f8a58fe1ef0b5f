"""The annotated bibliography as RIS, the tagged format every reference manager imports (Zotero,
EndNote, Mendeley): one record per cited document, ``TY`` first and ``ER`` last, a tag per line."""

from __future__ import annotations

from collections.abc import Mapping

from corpus.author_names import name_parts
from corpus.models import Document, WorkType
from ui.core.exports.bibliography import BibEntry, annotation, bibliography
from ui.core.exports.citation_keys import citation_keys
from ui.core.exports.record import ReportRecord
from ui.core.exports.venues import tidy, venue_of

_TYPES = {
    WorkType.ARTICLE: "JOUR",
    WorkType.INPROCEEDINGS: "CPAPER",
    WorkType.PROCEEDINGS: "CONF",
    WorkType.BOOK: "BOOK",
    WorkType.INBOOK: "CHAP",
    WorkType.INCOLLECTION: "CHAP",
    WorkType.BOOKLET: "PAMP",
    WorkType.PHDTHESIS: "THES",
    WorkType.MASTERSTHESIS: "THES",
    WorkType.TECHREPORT: "RPRT",
    WorkType.MANUAL: "GEN",
    WorkType.UNPUBLISHED: "UNPB",
    WorkType.MISC: "GEN",
}
# The tag that names the venue, by type: the journal's name, the secondary title (proceedings, a
# book's title), else the publisher (a thesis's school, a report's institution, a repository).
_VENUE_TAGS = {WorkType.ARTICLE: "JO", WorkType.INPROCEEDINGS: "T2", WorkType.INCOLLECTION: "T2"}


def ris_name(name: str) -> str:
    """RIS's "Family, Given, Suffix"; a corporate name as written (no comma: one literal)."""
    parts = name_parts(name)
    return ", ".join(p for p in (parts.family, parts.given, parts.suffix) if p) if not parts.literal else parts.family


def _line(tag: str, value: object) -> str:
    # One line per tag: RIS has no continuation lines.
    return f"{tag}  - {' '.join(str(value).split())}"


def _record(entry: BibEntry, key: str, report_title: str) -> list[str]:
    bib = entry.bib
    venue = venue_of(bib)
    lines = [_line("TY", _TYPES[venue.kind]), _line("ID", key)]
    lines += [_line("AU", ris_name(a)) for a in bib.authors]
    lines.append(_line("TI", tidy(entry.title)))
    if entry.year:
        lines.append(_line("PY", entry.year))
    if venue.name:
        lines.append(_line(_VENUE_TAGS.get(venue.kind, "PB"), venue.name))
    if bib.doi:
        lines.append(_line("DO", bib.doi))
    if bib.arxiv_id:
        lines.append(_line("AN", f"arXiv:{bib.arxiv_id}"))
    if entry.url:
        lines.append(_line("UR", entry.url))
    if entry.document is not None:
        lines.append(_line("L1", entry.document.path))
        lines.append(_line("M3", entry.describe()))
    lines.append(_line("N1", annotation(entry, report_title)))
    return [*lines, "ER  - "]


def ris(record: ReportRecord, documents: Mapping[str, Document]) -> str:
    return ris_entries(bibliography(record, documents), record.report.title)


def ris_entries(entries: list[BibEntry], report_title: str) -> str:
    """``entries`` as RIS records, annotated as cited in ``report_title``."""
    keys = citation_keys(entries)
    return "\n".join("\n".join(_record(e, keys[e.doc_id], report_title)) + "\n" for e in entries)
