"""The annotated bibliography as RIS, the tagged format every reference manager imports (Zotero,
EndNote, Mendeley): one record per cited document, ``TY`` first and ``ER`` last, a tag per line."""

from __future__ import annotations

from collections.abc import Mapping

from corpus.author_names import inverted_parts
from corpus.models import Document
from ui.core.exports.bibliography import BibEntry, VenueKind, annotation, bibliography, venue_kind
from ui.core.exports.citation_keys import citation_keys
from ui.core.exports.record import ReportRecord

_TYPES = {VenueKind.JOURNAL: "JOUR", VenueKind.PROCEEDINGS: "CPAPER", VenueKind.OTHER: "GEN"}
# The tag that names the venue, by type: the journal's name, or the secondary title.
_VENUE_TAGS = {VenueKind.JOURNAL: "JO", VenueKind.PROCEEDINGS: "T2", VenueKind.OTHER: "PB"}


def _line(tag: str, value: object) -> str:
    # One line per tag: RIS has no continuation lines.
    return f"{tag}  - {' '.join(str(value).split())}"


def _record(entry: BibEntry, key: str, report_title: str) -> list[str]:
    bib = entry.bib
    kind = venue_kind(bib.venue)
    lines = [_line("TY", _TYPES[kind]), _line("ID", key)]
    lines += [_line("AU", ", ".join(inverted_parts(a))) for a in bib.authors]
    lines.append(_line("TI", entry.title))
    if entry.year:
        lines.append(_line("PY", entry.year))
    if bib.venue:
        lines.append(_line(_VENUE_TAGS[kind], bib.venue))
    if bib.doi:
        lines.append(_line("DO", bib.doi))
    if entry.url:
        lines.append(_line("UR", entry.url))
    if entry.document is not None:
        lines.append(_line("L1", entry.document.path))
        lines.append(_line("M3", entry.describe()))
    lines.append(_line("N1", annotation(entry, report_title)))
    return [*lines, "ER  - "]


def ris(record: ReportRecord, documents: Mapping[str, Document]) -> str:
    entries = bibliography(record, documents)
    keys = citation_keys(entries)
    return "\n".join("\n".join(_record(e, keys[e.doc_id], record.report.title)) + "\n" for e in entries)
