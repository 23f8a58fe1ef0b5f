"""The annotated bibliography as BibTeX that reference managers (Zotero, JabRef) and LaTeX read.

The entry type follows the venue (``bibliography.venue_kind``): ``@article`` with a ``journal``,
``@inproceedings`` with a ``booktitle``, ``@misc`` otherwise, the venue (or the file's format) as
``howpublished``. Authors are "Family, Given" joined by "and"; the DOI and the arXiv id (``eprint``
with ``archivePrefix = {arXiv}``) as their own fields; ``file`` is the local file; ``annote`` what
the report cited the document for.
"""

from __future__ import annotations

from collections.abc import Mapping

from corpus.author_names import inverted_parts
from corpus.models import Document
from ui.core.exports.bibliography import BibEntry, VenueKind, annotation, bibliography, venue_kind
from ui.core.exports.citation_keys import citation_keys
from ui.core.exports.record import ReportRecord

# LaTeX's special characters. Braces become commands, not "\{": BibTeX counts every brace, escaped
# or not, so a lone "\{" would leave the entry unbalanced.
_ESCAPES = {
    "\\": r"\textbackslash{}",
    "{": r"\textbraceleft{}",
    "}": r"\textbraceright{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
# A path is not LaTeX: reference managers read ``file`` as written, so only braces are taken out.
_PATH_UNSAFE = str.maketrans("", "", "{}")


def bibtex_escape(text: str) -> str:
    return "".join(_ESCAPES.get(ch, ch) for ch in " ".join(text.split()))


def bibtex_name(name: str) -> str:
    """ "Ana de la Cruz" -> "de la Cruz, Ana"; "John Roe Jr." -> "Roe, Jr., John" (BibTeX's forms)."""
    # A braced "and" inside a name keeps BibTeX from splitting it into two people.
    return ", ".join(bibtex_escape(p).replace(" and ", " {and} ") for p in inverted_parts(name))


def _fields(entry: BibEntry, report_title: str) -> tuple[str, list[tuple[str, str]]]:
    bib = entry.bib
    fields: list[tuple[str, str]] = []
    if bib.authors:
        fields.append(("author", " and ".join(bibtex_name(a) for a in bib.authors)))
    fields.append(("title", bibtex_escape(entry.title)))
    if entry.year:
        fields.append(("year", str(entry.year)))
    kind = venue_kind(bib.venue)
    if kind is VenueKind.JOURNAL:
        entry_type, venue_field = "article", "journal"
    elif kind is VenueKind.PROCEEDINGS:
        entry_type, venue_field = "inproceedings", "booktitle"
    else:
        entry_type, venue_field = "misc", "howpublished"
    fields.append((venue_field, bibtex_escape(bib.venue or entry.describe())))
    if bib.doi:
        # Read verbatim, as url is: an escaped "\_" would stay in the DOI and break its link.
        fields.append(("doi", bib.doi.translate(_PATH_UNSAFE)))
    if bib.arxiv_id:
        fields += [("eprint", bibtex_escape(bib.arxiv_id)), ("archivePrefix", "arXiv")]
    if entry.url:
        fields.append(("url", entry.url.translate(_PATH_UNSAFE)))
    if entry.document is not None:
        fields.append(("file", entry.document.path.translate(_PATH_UNSAFE)))
        fields.append(("note", bibtex_escape(f"prp document {entry.doc_id}")))
    fields.append(("annote", bibtex_escape(annotation(entry, report_title))))
    return entry_type, fields


def bibtex(record: ReportRecord, documents: Mapping[str, Document]) -> str:
    entries = bibliography(record, documents)
    keys = citation_keys(entries)
    blocks = []
    for entry in entries:
        entry_type, fields = _fields(entry, record.report.title)
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
        blocks.append(f"@{entry_type}{{{keys[entry.doc_id]},\n{body}\n}}\n")
    return "\n".join(blocks)


def document_bibtex(document: Document) -> str:
    """One document's entry on its own (a citation of one of its passages: ``ui.core.passages``): the
    same fields as in a report's bibliography, without the note of what the report cited it for."""
    entry = BibEntry(doc_id=document.doc_id, title=document.title, document=document)
    entry_type, fields = _fields(entry, "")
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields if name != "annote")
    return f"@{entry_type}{{{citation_keys([entry])[entry.doc_id]},\n{body}\n}}\n"
