"""BibTeX (and BibLaTeX) exports read into ``ReferenceEntry`` values, with ``bibtexparser``.

LaTeX in the fields (accents, escaped characters, protective braces) is decoded to Unicode by
bibtexparser's decoding middleware. Two fields are handled apart: the author list is split on its
raw text, where a braced "{Barnes and Noble}" still reads as one name, and ``file`` is never decoded,
because it is a path in Zotero's own escaping, not LaTeX (see ``corpus.references.attachments``).
"""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path

import bibtexparser
from bibtexparser.middlewares import LatexDecodingMiddleware, NormalizeFieldKeys, SeparateCoAuthors
from bibtexparser.middlewares.names import parse_single_name_into_parts
from bibtexparser.model import Entry, Field

from corpus.author_names import is_braced, stored_name
from corpus.loaders.identifiers import normalise_arxiv_id, normalise_doi
from corpus.models import work_type
from corpus.parsing import decode_text
from corpus.references.entries import EntryProblem, ReadEntries, ReferenceEntry, clean, year_of

# Where each document field is read from, first present wins. The venue is the journal or the
# proceedings the work appeared in, else whoever published it (a book, a thesis, a report).
VENUE_FIELDS = ("journal", "journaltitle", "booktitle", "publisher", "school", "institution", "howpublished")
# Each part of each author's raw name goes to a field of its own, so the decoding middleware decodes
# it as a string: the parts are split first, on the raw text, where braces still mark a literal.
_AUTHOR_FIELD = "prp-author-{}-{}"
_NAME_PARTS = ("first", "von", "last", "jr", "literal")
_ENTRY_KEY = re.compile(r"\s*@\w+\s*[{(]\s*([^,\s]+)\s*,")


def read_bibtex(path: Path) -> ReadEntries:
    library = bibtexparser.parse_string(
        decode_text(path.read_bytes()), append_middleware=[NormalizeFieldKeys(), SeparateCoAuthors()]
    )
    files = {entry.key: str(entry.get("file").value) if entry.get("file") else "" for entry in library.entries}
    for entry in library.entries:
        author = entry.get("author")
        names = author.value if author is not None and isinstance(author.value, list) else []
        for i, name in enumerate(names):
            for part, value in _raw_parts(name).items():
                entry.set_field(Field(_AUTHOR_FIELD.format(i, part), value))
        entry.pop("author")
    library = LatexDecodingMiddleware().transform(library)
    read = ReadEntries(entries=[_entry(entry, files.get(entry.key, "")) for entry in library.entries])
    for block in library.failed_blocks:
        key = getattr(block, "key", None) or getattr(block.ignore_error_block, "key", None)
        if key is None:
            found = _ENTRY_KEY.match(block.raw or "")
            key = found.group(1) if found else f"(the entry at line {block.start_line})"
        why = str(block.error) or "a brace or quote left open"
        read.problems.append(EntryProblem(key=key, reason=f"not readable BibTeX at line {block.start_line}: {why}"))
    return read


def _entry(entry: Entry, file_field: str) -> ReferenceEntry:
    text = partial(_text, entry)
    eprint = text("eprint") or ""
    archive = (text("archiveprefix") or text("eprinttype") or "arxiv").lower()
    return ReferenceEntry(
        key=entry.key,
        title=text("title"),
        authors=[a for a in _authors(entry) if a],
        year=year_of(text("year")) or year_of(text("date")),
        venue=next((v for v in map(text, VENUE_FIELDS) if v), None),
        doi=normalise_doi(text("doi") or ""),
        arxiv_id=normalise_arxiv_id(eprint) if archive == "arxiv" else None,
        entry_type=work_type(entry.entry_type),
        files=[file_field] if file_field.strip() else [],
    )


def _text(entry: Entry, name: str) -> str | None:
    """A field's decoded text, cleaned; None when the entry lacks it."""
    field = entry.get(name)
    return clean(str(field.value)) if field is not None else None


def _authors(entry: Entry) -> list[str]:
    """The entry's authors as stored names, in order, from the name parts ``read_bibtex`` set apart."""
    authors = []
    for i in range(len(entry.fields)):
        parts = {part: _text(entry, _AUTHOR_FIELD.format(i, part)) or "" for part in _NAME_PARTS}
        if not any(parts.values()):
            break
        if parts["literal"]:
            authors.append(stored_name(parts["literal"], literal=True))
        else:
            family = " ".join(p for p in (parts["von"], parts["last"]) if p)
            authors.append(stored_name(family, parts["first"], parts["jr"]))
    return authors


def _raw_parts(name: str) -> dict[str, str]:
    """A raw BibTeX name split by BibTeX's rules ("von Last, Jr, First"); a wholly braced name
    ("{Gemma Team}") is one literal. A name the rules cannot split is kept whole as the family name."""
    try:
        parts = parse_single_name_into_parts(name, strict=False)
    except ValueError:
        return {"last": name}
    if not (parts.first or parts.von or parts.jr) and len(parts.last) == 1 and is_braced(parts.last[0]):
        return {"literal": parts.last[0]}
    return {
        "first": " ".join(parts.first),
        "von": " ".join(parts.von),
        "last": " ".join(parts.last),
        "jr": " ".join(parts.jr),
    }
