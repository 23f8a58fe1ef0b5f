"""The annotated bibliography as BibTeX that LaTeX and reference managers (Zotero, JabRef) take as
written.

The entry type is the kind of work (``ui.core.exports.venues``) with the venue in the field that
type reads (``journal``, ``booktitle``, ``school``, ``institution``, ``publisher`` or
``howpublished``). Authors keep the parts their source gave ("de las Casas, Diego", "Roe, Jr., John",
a corporate "{Gemma Team}"), joined by "and"; titles brace the capitals a style must keep and keep
their math (``ui.core.exports.latex_text``); an entry without authors has a ``key`` (its title's first
word), so styles can sort and label it. The DOI and the arXiv id (``eprint`` with ``archivePrefix =
{arXiv}``) are fields of their own; ``file`` is the local file; ``annote`` what the report cited the
document for (styles do not print it). ``note`` (the prp document id, which styles do print) only
when asked for.
"""

from __future__ import annotations

from collections.abc import Mapping

from corpus.author_names import name_parts
from corpus.models import Document, WorkType
from ui.core.exports import latex_text
from ui.core.exports.bibliography import BibEntry, annotation, bibliography
from ui.core.exports.citation_keys import citation_keys, title_word
from ui.core.exports.record import ReportRecord
from ui.core.exports.venues import tidy, venue_of

# The field each entry type names its venue in.
VENUE_FIELDS = {
    WorkType.ARTICLE: "journal",
    WorkType.INPROCEEDINGS: "booktitle",
    WorkType.INCOLLECTION: "booktitle",
    WorkType.PROCEEDINGS: "publisher",
    WorkType.BOOK: "publisher",
    WorkType.INBOOK: "publisher",
    WorkType.BOOKLET: "howpublished",
    WorkType.PHDTHESIS: "school",
    WorkType.MASTERSTHESIS: "school",
    WorkType.TECHREPORT: "institution",
    WorkType.MANUAL: "organization",
    WorkType.UNPUBLISHED: "note",
    WorkType.MISC: "howpublished",
}
# A path is not LaTeX: reference managers read ``file`` as written, so only braces are taken out.
_PATH_UNSAFE = str.maketrans("", "", "{}")


def bibtex_escape(text: str) -> str:
    return latex_text.escape(text)


def bibtex_name(name: str) -> str:
    """A stored name in BibTeX's form: "de la Cruz, Ana", "Roe, Jr., John", "{Gemma Team}"."""
    parts = name_parts(name)
    if parts.literal:
        return f"{{{latex_text.escape(parts.family)}}}"
    # A braced "and" inside a name keeps BibTeX from splitting it into two people.
    return ", ".join(latex_text.escape(p).replace(" and ", " {and} ") for p in parts.inverted())


def _fields(entry: BibEntry, report_title: str, with_notes: bool) -> tuple[str, list[tuple[str, str]]]:
    bib = entry.bib
    venue = venue_of(bib)
    fields: list[tuple[str, str]] = []
    if bib.authors:
        fields.append(("author", " and ".join(bibtex_name(a) for a in bib.authors)))
    else:
        fields.append(("key", latex_text.escape(title_word(entry.title, as_written=True))))
    fields.append(("title", latex_text.title(tidy(entry.title), entry.names)))
    if entry.year:
        fields.append(("year", str(entry.year)))
    if venue.name:
        fields.append((VENUE_FIELDS[venue.kind], latex_text.with_math(venue.name)))
    elif bib.arxiv_id and bib.entry_type is None:
        # A preprint named by its repository, as arXiv's own BibTeX and the styles' readers expect.
        fields.append(("howpublished", latex_text.escape(f"arXiv preprint arXiv:{bib.arxiv_id}")))
    if bib.doi:
        # Read verbatim, as url is: an escaped "\_" would stay in the DOI and break its link.
        fields.append(("doi", bib.doi.translate(_PATH_UNSAFE)))
    if bib.arxiv_id:
        fields += [("eprint", latex_text.escape(bib.arxiv_id)), ("archivePrefix", "arXiv")]
    if entry.url:
        fields.append(("url", entry.url.translate(_PATH_UNSAFE)))
    if entry.document is not None:
        fields.append(("file", entry.document.path.translate(_PATH_UNSAFE)))
        if with_notes:
            fields.append(("note", latex_text.escape(f"prp document {entry.doc_id}")))
    fields.append(("annote", latex_text.escape(annotation(entry, report_title))))
    return venue.kind.value, fields


def bibtex(
    record: ReportRecord,
    documents: Mapping[str, Document],
    with_notes: bool = False,
    names: Mapping[str, frozenset[str]] | None = None,
) -> str:
    return bibtex_entries(bibliography(record, documents, names), record.report.title, with_notes)


def bibtex_entries(entries: list[BibEntry], report_title: str, with_notes: bool = False) -> str:
    """``entries`` as BibTeX, each under its citation key, annotated as cited in ``report_title``."""
    keys = citation_keys(entries)
    blocks = []
    for entry in entries:
        entry_type, fields = _fields(entry, report_title, with_notes)
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
        blocks.append(f"@{entry_type}{{{keys[entry.doc_id]},\n{body}\n}}\n")
    return "\n".join(blocks)


def document_bibtex(document: Document) -> str:
    """One document's entry on its own (a citation of one of its passages: ``ui.core.passages``): the
    same fields as in a report's bibliography, without the note of what the report cited it for."""
    entry = BibEntry(doc_id=document.doc_id, title=document.title, document=document)
    entry_type, fields = _fields(entry, "", with_notes=False)
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields if name != "annote")
    return f"@{entry_type}{{{citation_keys([entry])[entry.doc_id]},\n{body}\n}}\n"
